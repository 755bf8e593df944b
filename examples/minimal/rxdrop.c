// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The smallest xskx receiver: drop every packet that arrives on one queue
 * and count them.
 *   rxdrop IFNAME [QUEUE]   a real interface, for 5 seconds or until
 *                           SIGINT/SIGTERM (as root)
 *   rxdrop --sim            the simulated NIC: a source sends 1,000,000
 *                           packets (no privileges, no NIC)
 */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_source_opts, source, .count = 1000000);
	XSKX_OPTS(xskx_umem_opts, umem_opts,
		  .frame_size = xskx_frame_size_for_mtu(1500, 0));
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = XSKX_SOCKET_NO_TX);
	uint32_t queue = 0;
	struct xskx_sim *sim = NULL;
	struct xskx_sim_port *nic;
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	struct xskx_frame_census census;
	struct xskx_pkt pkts[BURST];
	uint64_t received = 0;
	double end = now_s() + 5;

	if (argc < 2)
		errx(2, "usage: %s IFNAME [QUEUE] | --sim", argv[0]);
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	if (!strcmp(argv[1], "--sim")) {
		if (xskx_sim_create(&sim, &sim_opts) ||
		    xskx_sim_port_create(sim, NULL, &nic) ||
		    xskx_sim_port_add_source(nic, &source) ||
		    xskx_port_open_sim(&port, nic, NULL))
			errx(1, "simulated NIC: %s", xskx_last_error());
	} else {
		/* The port attaches xskx's XDP program with the first socket. */
		if (xskx_port_open(&port, argv[1], NULL))
			errx(1, "%s", xskx_last_error());
		queue = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
	}
	/* The library logs no error itself: each is printed once, here. */
	if (xskx_umem_create(&umem, &umem_opts) ||
	    xskx_socket_open_queue(&sock, port, queue, umem, &sock_opts))
		errx(1, "%s", xskx_last_error());
	/* An empty burst posts the socket's frames on FILL before traffic. */
	if (xskx_rx_burst(sock, NULL, 0) < 0)
		errx(1, "%s", xskx_last_error());

	for (;;) {
		int n;

		/* The simulated NIC in deterministic mode runs when asked. */
		if (sim && xskx_sim_poll(sim) < 0)
			errx(1, "simulated NIC: %s", xskx_last_error());
		/* Refills FILL, and kicks the peer only if it asked. */
		n = xskx_rx_burst(sock, pkts, BURST);
		if (n < 0)
			errx(1, "rx: %s", xskx_last_error());
		received += (uint64_t)n;
		/* Frames back to the pool, for the next refill. */
		xskx_rx_release(sock, pkts, (uint32_t)n);
		if (stop ||
		    (sim ? !n && !xskx_sim_sources_active(sim) : now_s() > end))
			break;
	}

	printf("received %llu packets%s\n", (unsigned long long)received,
	       stop ? " (stopped by a signal)" : "");
	if (xskx_socket_close(sock) || xskx_port_close(port) ||
	    xskx_umem_census(umem, &census))
		errx(1, "%s", xskx_last_error());
	if (census.unaccounted || census.app)
		errx(1, "frames: %lld unaccounted, %u held",
		     (long long)census.unaccounted, census.app);
	if (xskx_umem_destroy(umem) || (sim && xskx_sim_destroy(sim)))
		errx(1, "%s", xskx_last_error());
	return 0;
}
