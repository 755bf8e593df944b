// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The smallest xskx forwarder: what arrives on queue 0 of one port leaves
 * by the other, both ways, without a copy (one UMEM for both sockets).
 *   l2fwd IF_A IF_B   two real interfaces, for 5 seconds or until
 *                     SIGINT/SIGTERM (as root)
 *   l2fwd --sim       two simulated ports; a source sends 1,000,000
 *                     packets into the first (no privileges, no NIC)
 */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#define BURST 64

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Ctrl-C or kill: end the run as its time would, with the count. */
static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* Receive a burst on `in` and send it out of `out`; returns packets sent. */
static int forward(struct xskx_socket *in, struct xskx_socket *out)
{
	struct xskx_pkt pkts[BURST];
	int n = xskx_rx_burst(in, pkts, BURST);
	int sent = 0;

	if (n < 0)
		errx(1, "rx: %s", xskx_last_error());
	/*
	 * Always call TX, even with nothing to send: it reclaims completed
	 * frames into the pool and wakes the peer's TX if asked.
	 */
	sent = xskx_tx_burst(out, pkts, (uint32_t)n);
	if (sent < 0)
		errx(1, "tx: %s", xskx_last_error());
	/* What a full TX ring did not take is dropped: back to the pool. */
	xskx_rx_release(in, pkts + sent, (uint32_t)(n - sent));
	return sent;
}

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_source_opts, source, .count = 1000000);
	XSKX_OPTS(xskx_umem_opts, umem_opts,
		  .frame_size = xskx_frame_size_for_mtu(1500, 0));
	/* A forwarder only sends what it received: no frames kept for TX. */
	XSKX_OPTS(xskx_socket_opts, a_opts, .tx_reserve = XSKX_TX_RESERVE_NONE);
	XSKX_OPTS(xskx_socket_opts, b_opts, .tx_reserve = XSKX_TX_RESERVE_NONE);
	struct xskx_sim_port *nic_a, *nic_b;
	struct xskx_sim_port_stats b_stats;
	struct xskx_port *port_a, *port_b;
	struct xskx_socket *a, *b;
	struct xskx_sim *sim = NULL;
	struct xskx_umem *umem;
	struct xskx_frame_census census;
	uint64_t forwarded = 0;
	double end = now_s() + 5;

	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	if (argc == 2 && !strcmp(argv[1], "--sim")) {
		if (xskx_sim_create(&sim, &sim_opts) ||
		    xskx_sim_port_create(sim, NULL, &nic_a) ||
		    xskx_sim_port_create(sim, NULL, &nic_b) ||
		    xskx_sim_port_add_source(nic_a, &source) ||
		    xskx_port_open_sim(&port_a, nic_a, NULL) ||
		    xskx_port_open_sim(&port_b, nic_b, NULL))
			errx(1, "simulated NIC: %s", xskx_last_error());
	} else if (argc == 3) {
		if (xskx_port_open(&port_a, argv[1], NULL) ||
		    xskx_port_open(&port_b, argv[2], NULL))
			errx(1, "%s", xskx_last_error());
	} else {
		errx(2, "usage: %s IF_A IF_B | --sim", argv[0]);
	}
	if (xskx_umem_create(&umem, &umem_opts) ||
	    xskx_socket_open_queue(&a, port_a, 0, umem, &a_opts) ||
	    xskx_socket_open_queue(&b, port_b, 0, umem, &b_opts))
		errx(1, "%s", xskx_last_error());
	/*
	 * Both sockets are open, so the UMEM's frames are shared out: an empty
	 * burst on each posts its share on FILL before traffic.
	 */
	if (xskx_rx_burst(a, NULL, 0) < 0 || xskx_rx_burst(b, NULL, 0) < 0)
		errx(1, "%s", xskx_last_error());

	for (;;) {
		int moved;

		if (sim && xskx_sim_poll(sim) < 0)
			errx(1, "simulated NIC: %s", xskx_last_error());
		moved = forward(a, b);
		moved += forward(b, a);
		forwarded += (uint64_t)moved;
		if (stop || (sim ? !moved && !xskx_sim_sources_active(sim) :
				   now_s() > end))
			break;
	}
	/* Let the last packets leave before closing. */
	for (int i = 0; i < 100; i++) {
		if (sim)
			xskx_sim_poll(sim);
		xskx_tx_reclaim(a);
		xskx_tx_reclaim(b);
	}

	printf("forwarded %llu packets%s\n", (unsigned long long)forwarded,
	       stop ? " (stopped by a signal)" : "");
	if (sim && !xskx_sim_port_stats(nic_b, &b_stats))
		printf("port b sent %llu packets\n",
		       (unsigned long long)b_stats.tx_packets);
	if (xskx_socket_close(a) || xskx_socket_close(b) ||
	    xskx_port_close(port_a) || xskx_port_close(port_b) ||
	    xskx_umem_census(umem, &census))
		errx(1, "%s", xskx_last_error());
	if (census.unaccounted || census.app)
		errx(1, "frames: %lld unaccounted, %u held",
		     (long long)census.unaccounted, census.app);
	if (xskx_umem_destroy(umem) || (sim && xskx_sim_destroy(sim)))
		errx(1, "%s", xskx_last_error());
	return 0;
}
