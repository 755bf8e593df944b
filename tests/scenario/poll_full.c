// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_socket_poll() on a queue that cannot move: the selftests' "timeout"
 * scenarios. A receiver nothing is sent to sees no POLLIN, and a sender
 * whose TX ring stays full (nobody reads its COMPLETION ring, so the peer
 * stops sending) sees no POLLOUT: the poll times out. Each then shows that
 * the poll was not simply deaf: the event comes once the queue can move.
 */
#include <poll.h>

#include "helpers.h"
#include "traffic.h"

/* Polls on a receiver nothing is sent to, each of which must time out. */
#define POLL_IDLE_TIMEOUTS 3
/* POLL_TXQ_FULL's sender: small rings, and a frame for every descriptor. */
#define TXQ_FULL_RING 64u
#define TXQ_FULL_FRAMES 1024u
/* Polls, after COMPLETION is read, until POLLOUT must be back. */
#define TXQ_FULL_RECOVERY_POLLS 1000u

static int poll_port(struct test_link *link, enum test_port port, short events,
		     struct scenario_result *r)
{
	int ev = xskx_socket_poll(link->sock[port], events,
				  link->peer->poll_timeout_ms);

	if (ev < 0)
		scenario_fail(r, "port %s: xskx_socket_poll: %s",
			      link_port_name(port), xskx_strerror(ev));
	return ev;
}

void scenario_poll_rxq_full(struct test_peer *peer, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;

	link_config_init(&cfg);
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.poll_rx = true;
	if (stream_init(&stream, 1, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		for (int i = 0; i < POLL_IDLE_TIMEOUTS && scenario_ok(r); i++) {
			int ev = poll_port(&link, TEST_PORT_B, POLLIN, r);

			if (ev > 0)
				scenario_fail(
					r,
					"poll %d on an RX ring nothing was sent to: events %#x, expected a timeout",
					i, (unsigned int)ev);
			else if (ev == 0)
				link_turn(&link, r, "an idle poll");
		}
		/* Not deaf: one packet, POLLIN, and it is the one sent. */
		if (scenario_ok(r))
			traffic_run(&link, &stream, &opts, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}

static bool kick_if_asked(struct test_link *link,
			  const struct xskx_rings *rings,
			  struct scenario_result *r)
{
	int err;

	if (!test_needs_wakeup(rings->tx))
		return true;
	err = xskx_socket_kick_tx(link->sock[TEST_PORT_A]);
	if (err)
		return scenario_fail(r, "port A: xskx_socket_kick_tx: %s",
				     xskx_strerror(err));
	return true;
}

/* Fill every free TX slot with a test packet in a frame never used before. */
static bool fill_tx(struct test_link *link, const struct xskx_rings *rings,
		    uint32_t *sent, struct scenario_result *r)
{
	uint32_t n = xskx_ring_prod_free(rings->tx), idx;

	if (*sent + n > TXQ_FULL_FRAMES)
		return scenario_fail(
			r,
			"POLLOUT still reported after %u packets with COMPLETION never read: expected a timeout once the TX ring held more than half its %u slots",
			*sent, TXQ_FULL_RING);
	if (xsk_ring_prod__reserve(rings->tx, n, &idx) != n)
		return scenario_fail(
			r, "the TX ring has %u free slots but refused them", n);
	for (uint32_t i = 0; i < n; i++) {
		struct xdp_desc *d = xsk_ring_prod__tx_desc(rings->tx, idx + i);

		d->addr = (uint64_t)(*sent + i) * XSKX_UMEM_DEFAULT_FRAME_SIZE;
		d->len = TEST_PKT_LEN;
		d->options = 0;
		pkt_write(xskx_umem_addr_data(rings->area, d->addr), *sent + i,
			  TEST_PKT_LEN);
	}
	xsk_ring_prod__submit(rings->tx, n);
	*sent += n;
	return kick_if_asked(link, rings, r) &&
	       link_turn(link, r, "the sender's TX ring to fill");
}

/* Send while poll says POLLOUT; never read COMPLETION. True once a poll timed out. */
static bool send_until_timeout(struct test_link *link,
			       const struct xskx_rings *rings,
			       struct scenario_result *r)
{
	uint32_t sent = 0;
	int ev;

	while ((ev = poll_port(link, TEST_PORT_A, POLLOUT, r)) & POLLOUT)
		if (ev < 0 || !fill_tx(link, rings, &sent, r))
			return false;
	if (ev < 0)
		return false;
	if (xskx_ring_cons_queued(rings->comp) != TXQ_FULL_RING)
		return scenario_fail(
			r,
			"poll timed out with %u of %u COMPLETION entries filled: expected the peer to stop only when COMPLETION is full",
			xskx_ring_cons_queued(rings->comp), TXQ_FULL_RING);
	return true;
}

/* Read COMPLETION: the peer sends again and POLLOUT comes back. */
static bool pollout_returns(struct test_link *link,
			    const struct xskx_rings *rings,
			    struct scenario_result *r)
{
	uint32_t idx, n = xsk_ring_cons__peek(rings->comp, TXQ_FULL_RING, &idx);

	xsk_ring_cons__release(rings->comp, n);
	for (uint32_t i = 0; i < TXQ_FULL_RECOVERY_POLLS; i++) {
		int ev = poll_port(link, TEST_PORT_A, POLLOUT, r);

		if (ev < 0)
			return false;
		if (ev & POLLOUT)
			return true;
		if (!link_turn(link, r, "POLLOUT after COMPLETION was read"))
			return false;
	}
	return scenario_fail(r,
			     "no POLLOUT in %u polls after COMPLETION was read",
			     TXQ_FULL_RECOVERY_POLLS);
}

/*
 * Let the peer send what is left, and read COMPLETION until every
 * descriptor written came back: the frames are the application's again.
 */
static bool drain_completions(struct test_link *link,
			      const struct xskx_rings *rings,
			      struct scenario_result *r)
{
	for (;;) {
		uint32_t idx, n = xsk_ring_cons__peek(rings->comp,
						      TXQ_FULL_RING, &idx);

		xsk_ring_cons__release(rings->comp, n);
		if (xskx_ring_prod_free(rings->tx) == rings->tx->size &&
		    !xskx_ring_cons_queued(rings->comp) && !n)
			return true;
		if (!kick_if_asked(link, rings, r) ||
		    !link_turn(link, r, "the sender's last completions"))
			return false;
	}
}

void scenario_poll_txq_full(struct test_peer *peer, struct scenario_result *r)
{
	struct xskx_rings rings;
	struct link_config cfg;
	struct test_link link;
	int err;

	link_config_init(&cfg);
	cfg.umem[TEST_PORT_A].frame_count = TXQ_FULL_FRAMES;
	cfg.umem[TEST_PORT_A].comp_size = TXQ_FULL_RING;
	cfg.sock[TEST_PORT_A].tx_size = TXQ_FULL_RING;
	cfg.hold_all_frames[TEST_PORT_A] = true;
	if (!link_open(&link, peer, &cfg, r))
		return;
	err = xskx_socket_rings(link.sock[TEST_PORT_A], &rings);
	if (err)
		scenario_fail(r, "port A: xskx_socket_rings: %s",
			      xskx_strerror(err));
	else if (send_until_timeout(&link, &rings, r) &&
		 pollout_returns(&link, &rings, r))
		drain_completions(&link, &rings, r);
	link_close(&link, r);
}
