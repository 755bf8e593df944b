/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * XDP_ADJUST_TAIL_{SHRINK,GROW}_MULTI_BUFF's program: every packet, a chain
 * of fragments at MTU 9000, is resized by ADJUST_TAIL_DELTA bytes with
 * bpf_xdp_adjust_tail() — the tail fragments shrink or go, or the last one
 * grows into its tailroom — then goes to the queue's socket. A packet the
 * helper refuses as unsupported (-EOPNOTSUPP: the device cannot resize a
 * multi-buffer packet that way) is dropped and counted, which the scenario
 * reads as a reason to skip, as the kernel selftests do; one refused for
 * another reason goes unchanged, so that the scenario fails naming its
 * length. The including file defines ADJUST_TAIL_DELTA; built on xskx's
 * maps so that the library attaches it.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>

/* bpf/: the maps of a program xskx manages. */
#include "../../bpf/xskx_maps.bpf.h"

SEC("xdp.frags")
int xskx_adjust_tail_mb(struct xdp_md *ctx)
{
	if (bpf_xdp_adjust_tail(ctx, ADJUST_TAIL_DELTA) == -EOPNOTSUPP) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	return xskx_redirect_to_queue(ctx);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
