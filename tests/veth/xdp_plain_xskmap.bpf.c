// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A program that is not xskx's, as a node agent or the AF_XDP device
 * plugin attaches one: each packet to the socket in its queue's slot of
 * an XSKMAP, to the stack when the slot is empty. UNPRIV_* attach it as
 * root and hand its map to an unprivileged process.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

SEC("xdp")
int plain_xskmap(struct xdp_md *ctx)
{
	return (int)bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
