// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx's XDP program: packets the deny list (xskx/filter.h) denies are
 * dropped; every other packet goes to the AF_XDP socket bound to the RX
 * queue it arrived on, and a queue without a socket hands its packets to the
 * kernel stack. Each verdict is counted per CPU.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "xskx_maps.bpf.h"

/*
 * For libxdp's multi-program dispatcher: run early, and let packets we pass
 * (queues without a socket) continue to the programs after us.
 */
struct {
	__uint(priority, 20);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xskx_redirect);

SEC("xdp")
int xskx_redirect(struct xdp_md *ctx)
{
	__u32 queue = ctx->rx_queue_index;
	long action;

	if (xskx_filter_denied(ctx)) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	if (!bpf_map_lookup_elem(&xskx_xsks, &queue)) {
		xskx_count(XSKX_VERDICT_PASSED);
		return XDP_PASS;
	}

	action = bpf_redirect_map(&xskx_xsks, queue, XDP_PASS);
	xskx_count(action == XDP_REDIRECT ? XSKX_VERDICT_REDIRECTED :
					    XSKX_VERDICT_REDIRECT_FAILED);
	return (int)action;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
