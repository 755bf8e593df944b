/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Scenarios: one behaviour each, named after the kernel's AF_XDP selftests
 * (tools/testing/selftests/bpf/test_xsk.c) and asserting what they assert,
 * written once against a test peer (peer.h) so that the simulated NIC and
 * veth run the very same code.
 *
 * A scenario gets a fresh peer, builds its link (link.h), runs its traffic
 * (traffic.h) and reports in *result: pass, fail with a message naming what
 * differed (expected vs got), or skip with the reason. It always closes
 * every socket and UMEM it opened, and before that asserts that every frame
 * is accounted for.
 */
#ifndef XSKX_TEST_SCENARIO_H
#define XSKX_TEST_SCENARIO_H

#include <stdbool.h>

#include "peer.h"

enum scenario_status {
	SCENARIO_PASS = 0,
	SCENARIO_FAIL,
	SCENARIO_SKIP,
};

struct scenario_result {
	enum scenario_status status;
	char msg[1024];
};

typedef void (*scenario_fn)(struct test_peer *peer,
			    struct scenario_result *result);

struct scenario {
	const char *name; /* the selftest's name: "SEND_RECEIVE" */
	scenario_fn run;
};

/* Every scenario, in the selftests' order, ending with { NULL, NULL }. */
extern const struct scenario scenarios[];

const struct scenario *scenario_find(const char *name);

/*
 * Whether tests/veth runs the scenario (in both XDP modes): all but the
 * simulated NIC's own, scenario.c says why for each.
 */
bool scenario_runs_on_veth(const struct scenario *s);

/*
 * Record a failure (the first one wins: later ones are its consequences)
 * and return false, so that checks read as
 *	if (got != want)
 *		return scenario_fail(r, "rx_dropped: expected %u, got %u", ...);
 */
bool scenario_fail(struct scenario_result *result, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record that the scenario cannot run on this peer, and why. */
void scenario_skip(struct scenario_result *result, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline bool scenario_ok(const struct scenario_result *result)
{
	return result->status == SCENARIO_PASS;
}

/* The scenarios. */
void scenario_send_receive(struct test_peer *peer, struct scenario_result *r);
void scenario_send_receive_2k_frame(struct test_peer *peer,
				    struct scenario_result *r);
void scenario_send_receive_single_pkt(struct test_peer *peer,
				      struct scenario_result *r);
void scenario_poll_rx(struct test_peer *peer, struct scenario_result *r);
void scenario_poll_tx(struct test_peer *peer, struct scenario_result *r);
void scenario_aligned_inv_desc(struct test_peer *peer,
			       struct scenario_result *r);
void scenario_aligned_inv_desc_2k_frame(struct test_peer *peer,
					struct scenario_result *r);
void scenario_unaligned_inv_desc(struct test_peer *peer,
				 struct scenario_result *r);
void scenario_umem_headroom(struct test_peer *peer, struct scenario_result *r);
void scenario_stat_rx_dropped(struct test_peer *peer,
			      struct scenario_result *r);
void scenario_stat_tx_invalid(struct test_peer *peer,
			      struct scenario_result *r);
void scenario_stat_rx_full(struct test_peer *peer, struct scenario_result *r);
void scenario_stat_fill_empty(struct test_peer *peer,
			      struct scenario_result *r);
void scenario_bidirectional(struct test_peer *peer, struct scenario_result *r);
void scenario_xdp_drop_half(struct test_peer *peer, struct scenario_result *r);
void scenario_poll_rxq_full(struct test_peer *peer, struct scenario_result *r);
void scenario_poll_txq_full(struct test_peer *peer, struct scenario_result *r);
void scenario_send_receive_unaligned(struct test_peer *peer,
				     struct scenario_result *r);
void scenario_unaligned_inv_desc_4001_frame_size(struct test_peer *peer,
						 struct scenario_result *r);
void scenario_tx_queue_consumer(struct test_peer *peer,
				struct scenario_result *r);
void scenario_teardown(struct test_peer *peer, struct scenario_result *r);
void scenario_xdp_shared_umem(struct test_peer *peer, struct scenario_result *r);
void scenario_hw_sw_min_ring_size(struct test_peer *peer,
				  struct scenario_result *r);
void scenario_hw_sw_max_ring_size(struct test_peer *peer,
				  struct scenario_result *r);
void scenario_xdp_adjust_tail_shrink(struct test_peer *peer,
				     struct scenario_result *r);
void scenario_xdp_adjust_tail_grow(struct test_peer *peer,
				   struct scenario_result *r);
void scenario_xdp_prog_cleanup(struct test_peer *peer,
			       struct scenario_result *r);
void scenario_send_receive_9k_packets(struct test_peer *peer,
				      struct scenario_result *r);
void scenario_send_receive_unaligned_9k_packets(struct test_peer *peer,
						struct scenario_result *r);
void scenario_aligned_inv_desc_multi_buff(struct test_peer *peer,
					  struct scenario_result *r);
void scenario_unaligned_inv_desc_multi_buff(struct test_peer *peer,
					    struct scenario_result *r);
void scenario_too_many_frags(struct test_peer *peer, struct scenario_result *r);
void scenario_xdp_adjust_tail_shrink_multi_buff(struct test_peer *peer,
						struct scenario_result *r);
void scenario_xdp_adjust_tail_grow_multi_buff(struct test_peer *peer,
					      struct scenario_result *r);
void scenario_xdp_metadata_copy(struct test_peer *peer,
				struct scenario_result *r);
void scenario_xdp_metadata_copy_multi_buff(struct test_peer *peer,
					   struct scenario_result *r);
/* xskx's own: XSKX_PORT_RX_METADATA (rx_meta.c). */
void scenario_rx_metadata(struct test_peer *peer, struct scenario_result *r);

/* xskx's own: the verdict batch on a link of one shared UMEM (verdict.c). */
void scenario_verdict_batch(struct test_peer *peer, struct scenario_result *r);

#endif /* XSKX_TEST_SCENARIO_H */
