// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Plain traffic from A to B: every packet arrives, in order, intact, at the
 * right place in its frame; and back again for BIDIRECTIONAL; from unaligned
 * addresses; and on sockets made and unmade again and again (TEARDOWN).
 */
#include <stdlib.h>

#include "traffic.h"

void scenario_send_receive(struct test_peer *peer, struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, NULL, r);
}

void scenario_send_receive_2k_frame(struct test_peer *peer,
				    struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.umem[TEST_PORT_A].frame_size = 2048;
	cfg.umem[TEST_PORT_B].frame_size = 2048;
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, NULL, r);
}

void scenario_send_receive_single_pkt(struct test_peer *peer,
				      struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	traffic_one_way(peer, &cfg, 1, NULL, r);
}

/* The receiver's packets start 128 bytes later: XDP_PACKET_HEADROOM + 128. */
void scenario_umem_headroom(struct test_peer *peer, struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.umem[TEST_PORT_B].headroom = 128;
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, NULL, r);
}

/* Both sockets send and receive: A to B first, then B to A on the same link. */
void scenario_bidirectional(struct test_peer *peer, struct scenario_result *r)
{
	struct traffic_opts a_to_b, b_to_a;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;

	link_config_init(&cfg);
	link_config_both_ways(&cfg);
	traffic_opts_init(&a_to_b, TEST_PORT_A);
	traffic_opts_init(&b_to_a, TEST_PORT_B);
	if (stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		if (traffic_run(&link, &stream, &a_to_b, r))
			traffic_run(&link, &stream, &b_to_a, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}

/* The selftests' MAX_TEARDOWN_ITER. */
#define TEARDOWN_CYCLES 10

/*
 * Sockets and UMEMs created, used and destroyed again and again on the same
 * two ports: every cycle's traffic arrives whole, and every cycle starts
 * from ports its predecessor left clean.
 */
void scenario_teardown(struct test_peer *peer, struct scenario_result *r)
{
	for (int cycle = 0; cycle < TEARDOWN_CYCLES; cycle++) {
		struct scenario_result one = { 0 };

		scenario_send_receive(peer, &one);
		if (one.status == SCENARIO_SKIP) {
			scenario_skip(r, "%s", one.msg);
			return;
		}
		if (one.status == SCENARIO_FAIL) {
			scenario_fail(r, "cycle %d: %.900s", cycle, one.msg);
			return;
		}
	}
}

/* Each unaligned packet of SEND_RECEIVE_UNALIGNED has an 8 KiB region of its own. */
#define UNALIGNED_REGION 8192u
/* How far before a 4 KiB boundary an odd packet starts: half of it on each side. */
#define UNALIGNED_STRADDLE (TEST_PKT_LEN / 2)

/*
 * Unaligned-chunk UMEMs on both sides, and every odd packet sent from an
 * address that straddles a 4 KiB page boundary (the even ones start on one):
 * legal in unaligned mode, so every packet arrives, in order and intact.
 * The descriptors are written by hand, as only a raw sender can place a
 * packet across two chunks.
 */
void scenario_send_receive_unaligned(struct test_peer *peer,
				     struct scenario_result *r)
{
	const uint32_t regions =
		XSKX_UMEM_DEFAULT_FRAME_COUNT * XSKX_UMEM_DEFAULT_FRAME_SIZE /
		UNALIGNED_REGION;
	struct raw_desc *descs = calloc(TEST_PKT_COUNT, sizeof(*descs));
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;

	if (!descs || stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		free(descs);
		scenario_fail(r, "out of memory");
		return;
	}
	for (uint32_t seq = 0; seq < TEST_PKT_COUNT; seq++) {
		uint64_t region = (uint64_t)(seq % regions) * UNALIGNED_REGION;
		bool odd = seq & 1;

		descs[seq] = (struct raw_desc){
			.what = odd ? "straddling a 4 KiB boundary" :
				      "on a 4 KiB boundary",
			.addr = region + (odd ? 4096 - UNALIGNED_STRADDLE : 0),
			.len = TEST_PKT_LEN,
			.valid = true,
		};
	}
	link_config_init(&cfg);
	cfg.umem[TEST_PORT_A].flags = XSKX_UMEM_UNALIGNED;
	cfg.umem[TEST_PORT_B].flags = XSKX_UMEM_UNALIGNED;
	cfg.hold_all_frames[TEST_PORT_A] = true;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.raw = descs;
	traffic_on_new_link(peer, &cfg, &stream, &opts, r);
	stream_free(&stream);
	free(descs);
}

/*
 * The sender on A and the receiver on B share one UMEM, as the selftests'
 * sender uses its receiver's: sockets on two devices, each with its own
 * FILL/COMPLETION pair, one frame pool. The receiver keeps at most half the
 * frames for FILL, so that the sender always has frames to send from.
 */
void scenario_xdp_shared_umem(struct test_peer *peer, struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.shared_umem = true;
	cfg.sock[TEST_PORT_B].fill_max = XSKX_UMEM_DEFAULT_FRAME_COUNT / 2;
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, NULL, r);
}
