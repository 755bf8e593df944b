// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Traffic driven by xskx_socket_poll(): the receiver reads only after POLLIN
 * and then finds packets; the sender writes only after POLLOUT and then
 * finds room.
 */
#include "traffic.h"

void scenario_poll_rx(struct test_peer *peer, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct link_config cfg;

	link_config_init(&cfg);
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.poll_rx = true;
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, &opts, r);
}

void scenario_poll_tx(struct test_peer *peer, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct link_config cfg;

	link_config_init(&cfg);
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.poll_tx = true;
	traffic_one_way(peer, &cfg, TEST_PKT_COUNT, &opts, r);
}
