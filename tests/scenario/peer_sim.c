// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "helpers.h"
#include "peer_sim.h"

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
	/* Packets the TEST_XDP_DROP_HALF program has seen on each port. */
	uint64_t xdp_seen[2];
};

static struct peer_sim *to_sim(struct test_peer *peer)
{
	return (struct peer_sim *)peer;
}

static void sim_bind(struct test_peer *peer, enum test_port port,
		     struct xskx_socket_opts *opts)
{
	opts->port = test_port(to_sim(peer)->port[port]);
	opts->queue_id = 0;
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

static int sim_set_xdp(struct test_peer *peer, enum test_port port,
		       enum test_xdp_prog prog)
{
	struct peer_sim *ps = to_sim(peer);

	switch (prog) {
	case TEST_XDP_REDIRECT:
		return xskx_sim_port_set_xdp(ps->port[port], NULL, NULL);
	case TEST_XDP_DROP_HALF:
		ps->xdp_seen[port] = 0;
		return xskx_sim_port_set_xdp(ps->port[port], drop_every_other,
					     &ps->xdp_seen[port]);
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

static void sim_destroy(struct test_peer *peer)
{
	struct peer_sim *ps = to_sim(peer);

	if (ps->running)
		xskx_sim_stop(ps->sim);
	if (ps->sim)
		test_sim_destroy(ps->sim);
	free(ps);
}

int test_peer_sim_create(struct test_peer **peer, enum xskx_sim_mode mode)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = mode);
	static const char *const names[] = { "simA", "simB" };
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
		.bind = sim_bind,
		.set_xdp = sim_set_xdp,
		.pump = sim_pump,
		.quiesce = sim_quiesce,
		.destroy = sim_destroy,
	};
	err = xskx_sim_create(&ps->sim, &sim_opts);
	if (err) {
		ps->sim = NULL;
		goto fail;
	}
	for (int p = 0; p < 2; p++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[p]);

		err = xskx_sim_port_create(ps->sim, &port_opts, &ps->port[p]);
		if (err)
			goto fail;
	}
	err = xskx_sim_wire(ps->port[0], ps->port[1]);
	if (err)
		goto fail;
	*peer = &ps->peer;
	return 0;
fail:
	sim_destroy(&ps->peer);
	return err;
}
