// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP_DROP_HALF's program, after the kernel selftests' xsk_xdp_drop: of
 * the packets reaching it, the 1st, 3rd, 5th... go to the queue's socket
 * and the 2nd, 4th... are dropped. Built on xskx's maps so that the library
 * attaches it, fills its XSKMAP and reads its counters like its own.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* bpf/: the maps of a program xskx manages. */
#include "../../bpf/xskx_maps.bpf.h"

static __u64 seen;

SEC("xdp")
int xskx_drop_half(struct xdp_md *ctx)
{
	if (__sync_fetch_and_add(&seen, 1) & 1) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	return xskx_redirect_to_queue(ctx);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
