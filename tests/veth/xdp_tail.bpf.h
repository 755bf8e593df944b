/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The body of XDP_ADJUST_TAIL_*'s programs, after the kernel selftests'
 * xsk_xdp_adjust_tail: bpf_xdp_adjust_tail() by delta bytes, the bytes
 * grown by set to TEST_XDP_TAIL_FILL, then to the queue's socket. A resize
 * the kernel refuses drops the packet, counted as dropped. Built on xskx's
 * maps so that the library attaches it like its own.
 */
#ifndef XSKX_TEST_XDP_TAIL_BPF_H
#define XSKX_TEST_XDP_TAIL_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* bpf/: the maps of a program xskx manages. */
#include "../../bpf/xskx_maps.bpf.h"
#include "../scenario/xdp_tail.h"

/*
 * No packet of the scenarios is longer than a jumbo frame; the offset of the
 * grown bytes is masked to this many bits so that the verifier sees it
 * bounded (a bounds check on a copy of it is not enough).
 */
#define XDP_TAIL_MAX_LEN 9000
#define XDP_TAIL_OFF_MASK 0x3fff

static __always_inline int drop(void)
{
	xskx_count(XSKX_VERDICT_DROPPED);
	return XDP_DROP;
}

static __always_inline int adjust_tail_and_redirect(struct xdp_md *ctx,
						    int delta)
{
	unsigned char *data, *data_end, *grown;
	__u32 len;
	long action;

	if (bpf_xdp_adjust_tail(ctx, delta))
		return drop();
	data = (unsigned char *)(long)ctx->data;
	data_end = (unsigned char *)(long)ctx->data_end;
	len = (__u32)(data_end - data);
	if (delta > 0) {
		if (len < (__u32)delta || len > XDP_TAIL_MAX_LEN)
			return drop();
		grown = data + ((len - (__u32)delta) & XDP_TAIL_OFF_MASK);
		if (grown + delta > data_end)
			return drop();
		for (int i = 0; i < delta; i++)
			grown[i] = TEST_XDP_TAIL_FILL;
	}
	action = bpf_redirect_map(&xskx_xsks, ctx->rx_queue_index, XDP_DROP);
	xskx_count(action == XDP_REDIRECT ? XSKX_VERDICT_REDIRECTED :
					    XSKX_VERDICT_DROPPED);
	return (int)action;
}

#endif /* XSKX_TEST_XDP_TAIL_BPF_H */
