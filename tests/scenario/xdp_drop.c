// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An XDP program on the receiving port drops every other packet: exactly the
 * even-numbered ones reach the socket, in order.
 */
#include "traffic.h"

void scenario_xdp_drop_half(struct test_peer *peer, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.xdp[TEST_PORT_B] = TEST_XDP_DROP_HALF;
	traffic_opts_init(&opts, TEST_PORT_A);
	if (stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	stream_odd_packets(&stream, TEST_PKT_LEN);
	traffic_on_new_link(peer, &cfg, &stream, &opts, r);
	stream_free(&stream);
}
