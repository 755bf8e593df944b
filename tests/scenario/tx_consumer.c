// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The TX ring's consumer index in copy mode: one sendto() sends at most the
 * kernel's budget of 32 descriptors, and publishes the consumer index when
 * the budget runs out, so that an application sees those 32 slots free
 * without waiting for the ring to run dry.
 */
#include "traffic.h"

/* One descriptor more than one sendto() takes: the selftests' count. */
#define TX_CONSUMER_PKTS 33u

void scenario_tx_queue_consumer(struct test_peer *peer,
				struct scenario_result *r)
{
	struct raw_desc descs[TX_CONSUMER_PKTS];
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;

	for (uint32_t seq = 0; seq < TX_CONSUMER_PKTS; seq++)
		descs[seq] = (struct raw_desc){
			.what = "",
			.addr = (uint64_t)seq * XSKX_UMEM_DEFAULT_FRAME_SIZE,
			.len = TEST_PKT_LEN,
			.valid = true,
		};
	link_config_init(&cfg);
	/* The rule is copy mode's: zero-copy drivers send from their own NAPI. */
	cfg.sock[TEST_PORT_A].copy_mode = XSKX_COPY_FORCE;
	/* At the kernel's budget of 32: xskx asks for the whole ring by default. */
	cfg.port_flags[TEST_PORT_A] = XSKX_PORT_KERNEL_TX_BUDGET;
	cfg.hold_all_frames[TEST_PORT_A] = true;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.raw = descs;
	opts.batch = TX_CONSUMER_PKTS;
	opts.check_consumer = true;
	if (stream_init(&stream, TX_CONSUMER_PKTS, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	traffic_on_new_link(peer, &cfg, &stream, &opts, r);
	stream_free(&stream);
}
