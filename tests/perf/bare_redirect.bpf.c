// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The yardstick of xdp_cost.c: the least an AF_XDP program does — redirect
 * every packet to the socket of its RX queue, or pass it when there is
 * none — with no deny list and no counters.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} bare_xsks SEC(".maps");

SEC("xdp")
int bare_redirect(struct xdp_md *ctx)
{
	return (int)bpf_redirect_map(&bare_xsks, ctx->rx_queue_index, XDP_PASS);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
