// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Plain traffic from A to B: every packet arrives, in order, intact, at the
 * right place in its frame; and back again for BIDIRECTIONAL.
 */
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
