// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx's XDP program: every packet goes to the AF_XDP socket bound to the
 * RX queue it arrived on; a queue without a socket hands its packets to the
 * kernel stack. Nothing is dropped here. Each verdict is counted per CPU.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "xskx_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSKX_XSKMAP_DEFAULT_ENTRIES);
	__type(key, __u32);
	__type(value, __u32);
} xskx_xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKX_VERDICT_COUNT);
	__type(key, __u32);
	__type(value, __u64);
} xskx_verdicts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskx_prog_owner);
} xskx_owner SEC(".maps");

/*
 * For libxdp's multi-program dispatcher: run early, and let packets we pass
 * (queues without a socket) continue to the programs after us.
 */
struct {
	__uint(priority, 20);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xskx_redirect);

static __always_inline void count(__u32 verdict)
{
	__u64 *packets = bpf_map_lookup_elem(&xskx_verdicts, &verdict);

	if (packets)
		*packets += 1;	/* per-CPU slot: no other writer */
}

SEC("xdp")
int xskx_redirect(struct xdp_md *ctx)
{
	__u32 queue = ctx->rx_queue_index;
	long action;

	if (!bpf_map_lookup_elem(&xskx_xsks, &queue)) {
		count(XSKX_VERDICT_PASSED);
		return XDP_PASS;
	}

	action = bpf_redirect_map(&xskx_xsks, queue, XDP_PASS);
	count(action == XDP_REDIRECT ? XSKX_VERDICT_REDIRECTED :
				       XSKX_VERDICT_REDIRECT_FAILED);
	return (int)action;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
