// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP metadata: the receiving port's program puts a running count in front
 * of every packet with bpf_xdp_adjust_meta() (xdp_meta.h), and each packet
 * reaches the socket with the next count in front of its data, where
 * xskx_pkt_meta() finds it: copied with the packet in copy mode, left in
 * the frame's headroom in zero-copy mode, in front of a chain's first
 * fragment (docs/KERNEL_RULES.md, "XDP metadata").
 */
#include "traffic.h"

static void metadata_count(struct test_peer *peer, struct link_config *cfg,
			   enum test_xdp_prog prog, uint32_t len,
			   struct scenario_result *r)
{
	struct traffic_opts opts;

	cfg->xdp[TEST_PORT_B] = prog;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.meta_count = true;
	traffic_one_way_len(peer, cfg, TEST_PKT_COUNT, len, &opts, r);
}

/*
 * The selftests' stream of 64-byte packets to a receiver in copy mode,
 * where the metadata is copied with the packet: a count the program did
 * not reserve room for would not arrive.
 */
void scenario_xdp_metadata_copy(struct test_peer *peer,
				struct scenario_result *r)
{
	struct link_config cfg;

	link_config_init(&cfg);
	cfg.sock[TEST_PORT_B].copy_mode = XSKX_COPY_FORCE;
	metadata_count(peer, &cfg, TEST_XDP_META_COUNT, TEST_PKT_LEN, r);
}

/*
 * MTU 9000, multi-buffer sockets, a frags-aware program: 9000-byte packets
 * arrive as chains with the count in front of the first fragment. The
 * receiver in the mode its port prefers: zero-copy on the simulated NIC
 * (the count stays in the frame's headroom), copy on veth.
 */
void scenario_xdp_metadata_copy_multi_buff(struct test_peer *peer,
					   struct scenario_result *r)
{
	struct link_config cfg;

	link_config_jumbo(&cfg);
	metadata_count(peer, &cfg, TEST_XDP_META_COUNT_MB, TEST_JUMBO_LEN, r);
}
