// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An XDP program of a user's, built by scripts/check-install.sh on the
 * installed <xskx/bpf/xskx_maps.bpf.h>, as opts.xdp_obj asks.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xskx/bpf/xskx_maps.bpf.h>

SEC("xdp")
int consumer_redirect(struct xdp_md *ctx)
{
	long action = bpf_redirect_map(&xskx_xsks, ctx->rx_queue_index,
				       XDP_PASS);

	xskx_count(action == XDP_REDIRECT ? XSKX_VERDICT_REDIRECTED :
					    XSKX_VERDICT_PASSED);
	return (int)action;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
