/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The body of XDP_METADATA_COPY*'s programs, after the kernel selftests'
 * xsk_xdp_populate_metadata: reserve TEST_XDP_META_LEN bytes of metadata
 * in front of the packet (bpf_xdp_adjust_meta), write there how many
 * packets the program saw before this one (xdp_meta.h), then to the
 * queue's socket. A packet the helper refuses room for is dropped and
 * counted, so that the scenario fails naming the count it missed. Built
 * on xskx's maps so that the library attaches it like its own.
 */
#ifndef XSKX_TEST_XDP_META_COUNT_BPF_H
#define XSKX_TEST_XDP_META_COUNT_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* bpf/: the maps of a program xskx manages. */
#include "../../bpf/xskx_maps.bpf.h"
#include "../scenario/xdp_meta.h"

static __u32 seen;

static __always_inline int count_into_meta(struct xdp_md *ctx)
{
	__u32 *meta;

	if (bpf_xdp_adjust_meta(ctx, -TEST_XDP_META_LEN)) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	meta = (__u32 *)(long)ctx->data_meta;
	/* The verifier's bound: the metadata ends where the data begins. */
	if ((void *)(meta + 1) > (void *)(long)ctx->data) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	/*
	 * A plain increment: the scenario's packets reach the program one at
	 * a time, in order, on one queue (an atomic one's result needs BPF
	 * v3 instructions this build does not ask for).
	 */
	*meta = seen++;
	return xskx_redirect_to_queue(ctx);
}

#endif /* XSKX_TEST_XDP_META_COUNT_BPF_H */
