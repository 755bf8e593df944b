// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"

const struct scenario scenarios[] = {
	{ "SEND_RECEIVE", scenario_send_receive },
	{ "SEND_RECEIVE_2K_FRAME", scenario_send_receive_2k_frame },
	{ "SEND_RECEIVE_SINGLE_PKT", scenario_send_receive_single_pkt },
	{ "POLL_RX", scenario_poll_rx },
	{ "POLL_TX", scenario_poll_tx },
	{ "ALIGNED_INV_DESC", scenario_aligned_inv_desc },
	{ "ALIGNED_INV_DESC_2K_FRAME_SIZE",
	  scenario_aligned_inv_desc_2k_frame },
	{ "UNALIGNED_INV_DESC", scenario_unaligned_inv_desc },
	{ "UMEM_HEADROOM", scenario_umem_headroom },
	{ "STAT_RX_DROPPED", scenario_stat_rx_dropped },
	{ "STAT_TX_INVALID", scenario_stat_tx_invalid },
	{ "STAT_RX_FULL", scenario_stat_rx_full },
	{ "STAT_FILL_EMPTY", scenario_stat_fill_empty },
	{ "BIDIRECTIONAL", scenario_bidirectional },
	{ "XDP_DROP_HALF", scenario_xdp_drop_half },
	{ "POLL_RXQ_FULL", scenario_poll_rxq_full },
	{ "POLL_TXQ_FULL", scenario_poll_txq_full },
	{ "SEND_RECEIVE_UNALIGNED", scenario_send_receive_unaligned },
	{ "UNALIGNED_INV_DESC_4001_FRAME_SIZE",
	  scenario_unaligned_inv_desc_4001_frame_size },
	{ "TX_QUEUE_CONSUMER", scenario_tx_queue_consumer },
	{ "TEARDOWN", scenario_teardown },
	{ "XDP_SHARED_UMEM", scenario_xdp_shared_umem },
	{ "HW_SW_MIN_RING_SIZE", scenario_hw_sw_min_ring_size },
	{ "HW_SW_MAX_RING_SIZE", scenario_hw_sw_max_ring_size },
	{ "XDP_ADJUST_TAIL_SHRINK", scenario_xdp_adjust_tail_shrink },
	{ "XDP_ADJUST_TAIL_GROW", scenario_xdp_adjust_tail_grow },
	{ "XDP_PROG_CLEANUP", scenario_xdp_prog_cleanup },
	{ "SEND_RECEIVE_9K_PACKETS", scenario_send_receive_9k_packets },
	{ "SEND_RECEIVE_UNALIGNED_9K_PACKETS",
	  scenario_send_receive_unaligned_9k_packets },
	{ "ALIGNED_INV_DESC_MULTI_BUFF", scenario_aligned_inv_desc_multi_buff },
	{ "UNALIGNED_INV_DESC_MULTI_BUFF",
	  scenario_unaligned_inv_desc_multi_buff },
	{ "TOO_MANY_FRAGS", scenario_too_many_frags },
	{ "XDP_ADJUST_TAIL_SHRINK_MULTI_BUFF",
	  scenario_xdp_adjust_tail_shrink_multi_buff },
	{ "XDP_ADJUST_TAIL_GROW_MULTI_BUFF",
	  scenario_xdp_adjust_tail_grow_multi_buff },
	{ "XDP_METADATA_COPY", scenario_xdp_metadata_copy },
	{ "XDP_METADATA_COPY_MULTI_BUFF",
	  scenario_xdp_metadata_copy_multi_buff },
	{ "RX_METADATA", scenario_rx_metadata },
	{ "VERDICT_BATCH", scenario_verdict_batch },
	{ NULL, NULL },
};

const struct scenario *scenario_find(const char *name)
{
	for (const struct scenario *s = scenarios; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

bool scenario_runs_on_veth(const struct scenario *s)
{
	/*
	 * STAT_RX_DROPPED needs an MTU larger than the receiver's frames,
	 * which the library refuses on the kernel backend
	 * (tests/veth/veth_errors.c); veth's STAT_RX_DROPPED_MTU_RAISED raises
	 * the MTU after the bind instead. tests/veth/CMakeLists.txt leaves it
	 * out likewise.
	 */
	return strcmp(s->name, "STAT_RX_DROPPED") != 0;
}

bool scenario_fail(struct scenario_result *result, const char *fmt, ...)
{
	va_list ap;

	if (result->status != SCENARIO_PASS)
		return false;
	result->status = SCENARIO_FAIL;
	va_start(ap, fmt);
	vsnprintf(result->msg, sizeof(result->msg), fmt, ap);
	va_end(ap);
	return false;
}

void scenario_skip(struct scenario_result *result, const char *fmt, ...)
{
	va_list ap;

	if (result->status != SCENARIO_PASS)
		return;
	result->status = SCENARIO_SKIP;
	va_start(ap, fmt);
	vsnprintf(result->msg, sizeof(result->msg), fmt, ap);
	va_end(ap);
}
