// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * VERDICT_BATCH (xskx's own): the verdict batch (xskx/verdict.h) on a link
 * whose two sockets share one UMEM. A sends a stream to B; B judges each
 * RX batch where it lies: even sequence numbers pass, out of B's own port
 * back to A, without a copy; odd ones are dropped. A receives exactly the
 * even ones, intact and in order, and B's counts add up to what it
 * received.
 */
#include "traffic.h"

#define VERDICT_PKTS 64u
#define VERDICT_BATCH 16u

/* One RX batch of B's judged whole (TX room waited for), *seen += it. */
static bool judge_at_b(struct test_link *link, uint32_t *seen,
		       uint32_t *passed, uint32_t *dropped,
		       struct scenario_result *r)
{
	struct xskx_socket *b = link->sock[TEST_PORT_B];
	struct xskx_rx_verdict_result res = { 0 };
	struct xskx_rx_batch batch;
	uint8_t v[VERDICT_BATCH];
	uint32_t done = 0;
	int n = xskx_rx_peek(b, &batch, VERDICT_BATCH);

	if (n < 0)
		return scenario_fail(r, "xskx_rx_peek: %s", xskx_last_error());
	for (int i = 0; i < n; i++) {
		uint32_t seq;

		if (!pkt_seq(xskx_rx_batch_data(&batch, (uint32_t)i),
			     xskx_rx_batch_len(&batch, (uint32_t)i), &seq))
			return scenario_fail(r, "B received a packet not of the stream");
		v[i] = seq % 2 ? XSKX_PKT_DROP : XSKX_PKT_PASS;
	}
	while (batch.n) {
		int k = xskx_rx_verdict(b, &batch, v + done, b, 0, &res);

		if (k < 0)
			return scenario_fail(r, "xskx_rx_verdict: %s",
					     xskx_last_error());
		done += (uint32_t)k;
		*passed += res.forwarded;
		*dropped += res.dropped;
		if (res.tx_full_dropped || res.kept)
			return scenario_fail(r, "xskx_rx_verdict: %u dropped for TX, %u kept; expected none",
					     res.tx_full_dropped, res.kept);
		if (batch.n && !link_turn(link, r, "room on B's TX ring"))
			return false;
	}
	*seen += (uint32_t)n;
	return true;
}

/* A's packets so far: each the next even sequence number, intact. */
static bool receive_at_a(struct test_link *link, uint32_t *next,
			 struct scenario_result *r)
{
	struct xskx_socket *a = link->sock[TEST_PORT_A];
	struct xskx_pkt pkts[VERDICT_BATCH];
	int n = xskx_rx_burst(a, pkts, VERDICT_BATCH);

	if (n < 0)
		return scenario_fail(r, "xskx_rx_burst on A: %s", xskx_last_error());
	for (int i = 0; i < n; i++) {
		uint32_t seq, bad;

		if (!pkt_seq(pkts[i].data, pkts[i].len, &seq) || seq != *next ||
		    !pkt_intact(pkts[i].data, pkts[i].len, seq, &bad)) {
			xskx_rx_release(a, pkts, (uint32_t)n);
			return scenario_fail(r, "A: expected packet %u back, intact", *next);
		}
		*next += 2;
	}
	if (xskx_rx_release(a, pkts, (uint32_t)n))
		return scenario_fail(r, "xskx_rx_release on A: %s", xskx_last_error());
	return true;
}

void scenario_verdict_batch(struct test_peer *peer, struct scenario_result *r)
{
	uint32_t seen = 0, passed = 0, dropped = 0, next_back = 0;
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;
	struct traffic t;

	link_config_init(&cfg);
	link_config_both_ways(&cfg);
	cfg.shared_umem = true;
	/* Both sockets receive: each a share of the one UMEM's frames. */
	for (int side = 0; side < 2; side++) {
		cfg.sock[side].fill_max = 1024;
		cfg.sock[side].tx_reserve = 512;
	}
	if (stream_init(&stream, VERDICT_PKTS, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (!link_open(&link, peer, &cfg, r)) {
		stream_free(&stream);
		return;
	}
	traffic_opts_init(&opts, TEST_PORT_A);
	traffic_begin(&t, &link, &stream, &opts);
	while (scenario_ok(r) && next_back < VERDICT_PKTS) {
		if (t.next_tx < VERDICT_PKTS && !traffic_send(&t, r))
			break;
		if (!judge_at_b(&link, &seen, &passed, &dropped, r) ||
		    !receive_at_a(&link, &next_back, r))
			break;
		if (next_back < VERDICT_PKTS &&
		    !link_turn(&link, r, "the passed packets back at A"))
			break;
	}
	if (scenario_ok(r) && (seen != VERDICT_PKTS ||
			       passed != VERDICT_PKTS / 2 ||
			       dropped != VERDICT_PKTS / 2))
		scenario_fail(r, "B: received %u, passed %u, dropped %u; expected %u, %u, %u",
			      seen, passed, dropped, VERDICT_PKTS,
			      VERDICT_PKTS / 2, VERDICT_PKTS / 2);
	if (scenario_ok(r))
		traffic_complete(&t, r);
	link_close(&link, r);
	stream_free(&stream);
}
