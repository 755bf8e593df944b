// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer_sim.h"
#include "xdp_meta.h"
#include "xdp_tail.h"

/* Sanitizers slow the simulated NIC down tenfold; a stuck scenario still ends. */
#define PEER_SIM_TIME_LIMIT_S 30u
/* Threaded mode: how long xskx_socket_poll may wait, and one pump's nap. */
#define PEER_SIM_POLL_TIMEOUT_MS 10
#define PEER_SIM_NAP_NS 20000L

struct peer_sim {
	struct test_peer peer;
	struct xskx_sim *sim;
	struct xskx_sim_port *port[2];
	bool threaded;
	bool running;
	uint32_t mtu;		/* set_mtu()'s; 0: 1500 */
	/* The library's port on each simulated one, opened by the first bind. */
	struct xskx_port *lib_port[2];
	uint32_t port_flags[2];	/* set_port_flags()'s */
	uint32_t hw_rx, hw_tx;	/* set_hw_rings()'s; 0: the defaults */
	/* Packets the TEST_XDP_DROP_HALF or _META_COUNT program saw on each port. */
	uint64_t xdp_seen[2];
};

static struct peer_sim *to_sim(struct test_peer *peer)
{
	return (struct peer_sim *)peer;
}

static void sim_bind(struct test_peer *peer, enum test_port port,
		     struct xskx_socket_opts *opts)
{
	struct peer_sim *ps = to_sim(peer);
	XSKX_OPTS(xskx_port_opts, po, .flags = ps->port_flags[port]);

	/* A failure leaves opts->port NULL: the socket's open reports it. */
	if (!ps->lib_port[port])
		xskx_port_open_sim(&ps->lib_port[port], ps->port[port], &po);
	opts->port = ps->lib_port[port];
	opts->queue_id = 0;
}

static void sim_set_port_flags(struct test_peer *peer, enum test_port port,
			       uint32_t flags)
{
	to_sim(peer)->port_flags[port] = flags;
}

static enum xskx_xdp_verdict drop_every_other(uint8_t *data, uint32_t len,
					      uint32_t queue, void *ctx)
{
	uint64_t *seen = ctx;

	(void)data;
	(void)len;
	(void)queue;
	return (*seen)++ & 1 ? XSKX_XDP_DROP : XSKX_XDP_REDIRECT;
}

/* The tail programs (xdp_tail.h); ctx: the signed delta. */
static enum xskx_xdp_verdict adjust_tail(struct xskx_sim_xdp_buff *xdp,
					 void *ctx)
{
	const int *delta = ctx;
	uint32_t len = xdp->len;

	if (xskx_sim_xdp_adjust_tail(xdp, *delta))
		return XSKX_XDP_DROP;
	if (xdp->len > len)
		memset(xdp->data + len, TEST_XDP_TAIL_FILL, xdp->len - len);
	return XSKX_XDP_REDIRECT;
}

/*
 * The multi-buffer tail programs (xdp_adjust_tail_mb.bpf.h): a resize the
 * device does not support drops the packet, any other refusal lets it go
 * unchanged, for the scenario to name its length.
 */
static enum xskx_xdp_verdict adjust_tail_mb(struct xskx_sim_xdp_buff *xdp,
					    void *ctx)
{
	const int *delta = ctx;

	if (xskx_sim_xdp_adjust_tail(xdp, *delta) == -EOPNOTSUPP)
		return XSKX_XDP_DROP;
	return XSKX_XDP_REDIRECT;
}

/*
 * The metadata programs (xdp_meta.h); ctx: the packets seen so far. The
 * hook sees a chain's first buffer, where the metadata goes: one hook for
 * both.
 */
static enum xskx_xdp_verdict count_into_meta(struct xskx_sim_xdp_buff *xdp,
					     void *ctx)
{
	uint64_t *seen = ctx;
	uint32_t count = (uint32_t)(*seen)++;

	xdp->meta_len = TEST_XDP_META_LEN;
	memcpy(xdp->data - TEST_XDP_META_LEN, &count, sizeof(count));
	return XSKX_XDP_REDIRECT;
}

static int sim_set_xdp(struct test_peer *peer, enum test_port port,
		       enum test_xdp_prog prog)
{
	static const int shrink = -TEST_XDP_TAIL_DELTA,
			 grow = TEST_XDP_TAIL_DELTA,
			 shrink_mb = TEST_XDP_TAIL_MB_SHRINK,
			 grow_mb = TEST_XDP_TAIL_MB_GROW;
	struct peer_sim *ps = to_sim(peer);

	switch (prog) {
	case TEST_XDP_REDIRECT:
		return xskx_sim_port_set_xdp(ps->port[port], NULL, NULL);
	case TEST_XDP_DROP_HALF:
		ps->xdp_seen[port] = 0;
		return xskx_sim_port_set_xdp(ps->port[port], drop_every_other,
					     &ps->xdp_seen[port]);
	case TEST_XDP_TAIL_SHRINK:
		return xskx_sim_port_set_xdp_buff(ps->port[port], adjust_tail,
						  (void *)&shrink);
	case TEST_XDP_TAIL_GROW:
		return xskx_sim_port_set_xdp_buff(ps->port[port], adjust_tail,
						  (void *)&grow);
	case TEST_XDP_META_COUNT:
	case TEST_XDP_META_COUNT_MB:
		ps->xdp_seen[port] = 0;
		return xskx_sim_port_set_xdp_buff(
			ps->port[port], count_into_meta, &ps->xdp_seen[port]);
	case TEST_XDP_ADJUST_TAIL_SHRINK_MB:
		return xskx_sim_port_set_xdp_buff(ps->port[port], adjust_tail_mb,
						  (void *)&shrink_mb);
	case TEST_XDP_ADJUST_TAIL_GROW_MB:
		return xskx_sim_port_set_xdp_buff(ps->port[port], adjust_tail_mb,
						  (void *)&grow_mb);
	}
	return -EOPNOTSUPP;
}

/*
 * Deterministic: one NIC round. Threaded: the NIC thread starts on the first
 * pump, once the sockets are open, and each pump naps so that it can run.
 */
static int sim_pump(struct test_peer *peer)
{
	struct peer_sim *ps = to_sim(peer);
	struct timespec nap = { .tv_nsec = PEER_SIM_NAP_NS };
	int err;

	if (!ps->threaded)
		return xskx_sim_poll(ps->sim);
	if (!ps->running) {
		err = xskx_sim_start(ps->sim);
		if (err)
			return err;
		ps->running = true;
	}
	nanosleep(&nap, NULL);
	return 1;
}

static int sim_quiesce(struct test_peer *peer)
{
	struct peer_sim *ps = to_sim(peer);

	if (!ps->running)
		return 0;
	ps->running = false;
	return xskx_sim_stop(ps->sim);
}

/* Stop and free the machine, its ports and their wire. */
static void drop_world(struct peer_sim *ps)
{
	if (ps->running)
		xskx_sim_stop(ps->sim);
	ps->running = false;
	/* The library's ports on the simulated ones go first. */
	for (int p = 0; p < 2; p++) {
		xskx_port_close(ps->lib_port[p]);
		ps->lib_port[p] = NULL;
	}
	if (ps->sim)
		xskx_sim_destroy(ps->sim);
	ps->sim = NULL;
}

/*
 * Two ports, wired, with the peer's MTU and hardware ring sizes (0: the
 * defaults): what set_mtu() and set_hw_rings() chose, fixed when a port is
 * made.
 */
static int make_world(struct peer_sim *ps)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts,
		  .mode = ps->threaded ? XSKX_SIM_THREADED :
					 XSKX_SIM_DETERMINISTIC);
	static const char *const names[] = { "simA", "simB" };
	int err = xskx_sim_create(&ps->sim, &sim_opts);

	if (err) {
		ps->sim = NULL;
		return err;
	}
	for (int p = 0; p < 2; p++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[p],
			  .mtu = ps->mtu, .hw_ring_size = ps->hw_rx,
			  .hw_tx_ring_size = ps->hw_tx);

		err = xskx_sim_port_create(ps->sim, &port_opts, &ps->port[p]);
		if (err)
			return err;
	}
	return xskx_sim_wire(ps->port[0], ps->port[1]);
}

/* The simulated NIC's rings are sized when its ports are made: make them again. */
static int sim_set_hw_rings(struct test_peer *peer, uint32_t *rx, uint32_t *tx)
{
	struct peer_sim *ps = to_sim(peer);

	if (!*rx)
		*rx = XSKX_SIM_MAX_HW_RING;
	if (!*tx)
		*tx = XSKX_SIM_MAX_HW_RING;
	ps->hw_rx = *rx;
	ps->hw_tx = *tx;
	drop_world(ps);
	return make_world(ps);
}

/* A port's MTU is fixed when it is made: make the machine again. */
static int sim_set_mtu(struct test_peer *peer, uint32_t mtu)
{
	struct peer_sim *ps = to_sim(peer);

	ps->mtu = mtu;
	drop_world(ps);
	return make_world(ps);
}

static void sim_destroy(struct test_peer *peer)
{
	struct peer_sim *ps = to_sim(peer);

	drop_world(ps);
	free(ps);
}

int test_peer_sim_create(struct test_peer **peer, enum xskx_sim_mode mode)
{
	struct peer_sim *ps = calloc(1, sizeof(*ps));
	int err;

	if (!ps)
		return -ENOMEM;
	ps->threaded = mode == XSKX_SIM_THREADED;
	ps->peer = (struct test_peer){
		.name = ps->threaded ? "sim-threaded" : "sim",
		.caps = TEST_PEER_COUNTS_FRAMES |
			(ps->threaded ? 0 : TEST_PEER_DETERMINISTIC),
		.poll_timeout_ms = ps->threaded ? PEER_SIM_POLL_TIMEOUT_MS : 0,
		.time_limit_s = PEER_SIM_TIME_LIMIT_S,
		/* Its RSS hash and clock; it strips no VLAN tag (sim_rx_meta.c). */
		.rx_meta_fields = XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH,
		.rx_meta_clock = true,
		.rx_meta_rss = true,
		.set_hw_rings = sim_set_hw_rings,
		.set_mtu = sim_set_mtu,
		.set_port_flags = sim_set_port_flags,
		.bind = sim_bind,
		.set_xdp = sim_set_xdp,
		.pump = sim_pump,
		.quiesce = sim_quiesce,
		.destroy = sim_destroy,
	};
	err = make_world(ps);
	if (err) {
		sim_destroy(&ps->peer);
		return err;
	}
	*peer = &ps->peer;
	return 0;
}
