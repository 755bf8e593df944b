// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An XDP program on the receiving port resizes every packet with
 * bpf_xdp_adjust_tail() (xdp_tail.h): each arrives exactly
 * TEST_XDP_TAIL_DELTA bytes shorter or longer, its sent bytes intact up to
 * where it was cut, and the bytes it grew by as the program wrote them.
 */
#include "traffic.h"
#include "xdp_tail.h"

/* The selftests' count and length: one default batch of 128-byte packets. */
#define XDP_TAIL_PKTS 64u
#define XDP_TAIL_PKT_LEN (2 * TEST_PKT_LEN)

static void adjust_tail(struct test_peer *peer, enum test_xdp_prog prog,
			int32_t delta, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.xdp[TEST_PORT_B] = prog;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.rx_len_delta = delta;
	opts.grown_byte = TEST_XDP_TAIL_FILL;
	if (stream_init(&stream, XDP_TAIL_PKTS, XDP_TAIL_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	traffic_on_new_link(peer, &cfg, &stream, &opts, r);
	stream_free(&stream);
}

void scenario_xdp_adjust_tail_shrink(struct test_peer *peer,
				     struct scenario_result *r)
{
	adjust_tail(peer, TEST_XDP_TAIL_SHRINK, -TEST_XDP_TAIL_DELTA, r);
}

void scenario_xdp_adjust_tail_grow(struct test_peer *peer,
				   struct scenario_result *r)
{
	adjust_tail(peer, TEST_XDP_TAIL_GROW, TEST_XDP_TAIL_DELTA, r);
}
