// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The XDP_STATISTICS counters, each provoked on purpose as the selftests do:
 * packets too large for the receiver's frames (rx_dropped), descriptors too
 * long for any frame (tx_invalid_descs), an RX ring nobody reads
 * (rx_ring_full), a FILL ring nobody fills (rx_fill_ring_empty_descs).
 */
#include <stdlib.h>

#include "traffic.h"

/* RX ring entries of STAT_RX_FULL: the selftests' RX_FULL_RXQSIZE. */
#define RX_FULL_RING 32u
/* Packets sent to STAT_FILL_EMPTY's receiver: two bursts. */
#define FILL_EMPTY_PKTS 128u

/*
 * The last packet sent is a dropped one, and a peer that runs on its own may
 * not have reached it when the statistics are read; the selftest allows for
 * that too. A deterministic peer has.
 */
static bool rx_dropped_as_expected(const struct test_peer *peer, uint64_t got,
				   uint64_t want)
{
	if (peer->caps & TEST_PEER_DETERMINISTIC)
		return got == want;
	return got == want || got == want - 1;
}

/*
 * Every odd packet is twice as long as the room left in the receiver's
 * frames. The selftests' room of three packets is a headroom the kernel
 * refuses now: at most the frame less 704 bytes (docs/KERNEL_RULES.md,
 * "UMEM registration"), which leaves 448 bytes of room.
 */
void scenario_stat_rx_dropped(struct test_peer *peer, struct scenario_result *r)
{
	const uint32_t frame_size = 4096, room = 704 - XSKX_XDP_PACKET_HEADROOM;
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;
	struct xskx_stats stats;

	link_config_init(&cfg);
	cfg.umem[TEST_PORT_B].frame_size = frame_size;
	cfg.umem[TEST_PORT_B].headroom =
		frame_size - XSKX_XDP_PACKET_HEADROOM - room;
	traffic_opts_init(&opts, TEST_PORT_A);
	if (stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	stream_odd_packets(&stream, 2 * room);

	if (link_open(&link, peer, &cfg, r)) {
		if (traffic_run(&link, &stream, &opts, r) &&
		    link_stats(&link, TEST_PORT_B, &stats, r) &&
		    !rx_dropped_as_expected(peer, stats.rx_dropped,
					    TEST_PKT_COUNT / 2))
			scenario_fail(
				r,
				"rx_dropped: expected %u (every %u-byte packet; %u bytes fit), got %llu",
				TEST_PKT_COUNT / 2, 2 * room, room,
				(unsigned long long)stats.rx_dropped);
		link_close(&link, r);
	}
	stream_free(&stream);
}

/* Every odd descriptor is 9001 bytes long, more than any frame holds. */
void scenario_stat_tx_invalid(struct test_peer *peer, struct scenario_result *r)
{
	const uint32_t frame_size = 4096, frames = 1024;
	struct raw_desc *descs = calloc(TEST_PKT_COUNT, sizeof(*descs));
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;
	struct xskx_stats stats;

	if (!descs || stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		free(descs);
		scenario_fail(r, "out of memory");
		return;
	}
	for (uint32_t seq = 0; seq < TEST_PKT_COUNT; seq++) {
		bool valid = !(seq & 1);

		descs[seq] =
			(struct raw_desc){ .what = valid ? "" : "9001 bytes",
					   .addr = (uint64_t)(seq % frames) *
						   frame_size,
					   .len = valid ? TEST_PKT_LEN : 9001,
					   .valid = valid };
		stream_set(&stream, seq, descs[seq].len, valid);
	}
	link_config_init(&cfg);
	cfg.umem[TEST_PORT_A].frame_size = frame_size;
	cfg.umem[TEST_PORT_A].frame_count = frames;
	cfg.hold_all_frames[TEST_PORT_A] = true;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.raw = descs;

	if (link_open(&link, peer, &cfg, r)) {
		if (traffic_run(&link, &stream, &opts, r) &&
		    link_stats(&link, TEST_PORT_A, &stats, r) &&
		    stats.tx_invalid_descs != TEST_PKT_COUNT / 2)
			scenario_fail(
				r, "tx_invalid_descs: expected %u, got %llu",
				TEST_PKT_COUNT / 2,
				(unsigned long long)stats.tx_invalid_descs);
		link_close(&link, r);
	}
	stream_free(&stream);
	free(descs);
}

/*
 * Send everything the stream has without reading, then let the peer settle.
 * One receive burst first, on an empty RX ring, hands FILL to the peer as
 * the selftests' receiver does before the sender starts.
 */
static bool send_all_unread(struct traffic *t, struct scenario_result *r)
{
	if (!traffic_receive(t, r))
		return false;
	while (t->next_tx < t->stream->count) {
		if (!traffic_send(t, r) ||
		    !link_turn(t->link, r, "the sender to finish"))
			return false;
	}
	return traffic_complete(t, r) && link_settle(t->link, r);
}

/* Ask the peer to look at the receiver again, as the selftests do before reading. */
static bool kick_receiver(struct test_link *link, struct scenario_result *r)
{
	int err = xskx_socket_kick_rx(link->sock[TEST_PORT_B]);

	if (err)
		return scenario_fail(r, "port B: xskx_socket_kick_rx: %s",
				     xskx_strerror(err));
	return link_settle(link, r);
}

/* Eight times more packets than the receiver's RX ring holds, and nobody reading. */
void scenario_stat_rx_full(struct test_peer *peer, struct scenario_result *r)
{
	const uint32_t count = 8 * RX_FULL_RING;
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;
	struct xskx_stats stats;
	struct traffic t;

	link_config_init(&cfg);
	cfg.sock[TEST_PORT_B].rx_size = RX_FULL_RING;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.window = count;
	opts.allow_loss = true;
	if (stream_init(&stream, count, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		traffic_begin(&t, &link, &stream, &opts);
		if (send_all_unread(&t, r) && kick_receiver(&link, r) &&
		    link_stats(&link, TEST_PORT_B, &stats, r) &&
		    !stats.rx_ring_full)
			scenario_fail(
				r,
				"rx_ring_full: still 0 after %u packets to a %u-entry RX ring nobody read",
				count, RX_FULL_RING);
		/* What the full ring held must still come out whole and in order. */
		if (scenario_ok(r) && traffic_drain(&t, r) &&
		    t.received < RX_FULL_RING)
			scenario_fail(
				r,
				"received %u packets after the RX ring was full, expected at least its %u",
				t.received, RX_FULL_RING);
		if (scenario_ok(r))
			traffic_expect_no_more(&t, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}

/* The receiver's FILL ring is empty when the packets come. */
void scenario_stat_fill_empty(struct test_peer *peer, struct scenario_result *r)
{
	const uint32_t count = FILL_EMPTY_PKTS;
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;
	struct xskx_stats stats;
	struct traffic t;

	link_config_init(&cfg);
	cfg.hold_all_frames[TEST_PORT_B] = true;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.window = count;
	opts.allow_loss = true;
	if (stream_init(&stream, count, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		traffic_begin(&t, &link, &stream, &opts);
		if (send_all_unread(&t, r) && kick_receiver(&link, r) &&
		    link_stats(&link, TEST_PORT_B, &stats, r) &&
		    !stats.rx_fill_ring_empty_descs)
			scenario_fail(
				r,
				"rx_fill_ring_empty_descs: still 0 after %u packets to a socket with an empty FILL ring",
				count);
		/* With frames back in the pool, whatever still comes is in order. */
		link_release_held(&link, TEST_PORT_B);
		if (scenario_ok(r) && traffic_drain(&t, r))
			traffic_expect_no_more(&t, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}
