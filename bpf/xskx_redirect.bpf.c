// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx's XDP programs: packets the deny list (xskx/filter.h) denies are
 * dropped; every other packet goes to the AF_XDP socket bound to the RX
 * queue it arrived on, and a queue without a socket hands its packets to the
 * kernel stack. Each verdict is counted per CPU, and a packet that found
 * no socket also for its queue. xskx_redirect is the one a
 * port runs; xskx_rx_meta, for a port opened with XSKX_PORT_RX_METADATA,
 * also puts the device's RX metadata in front of each packet it redirects
 * (xskx/rx_meta.h), and xskx_rx_nokfunc puts the same struct there with
 * valid 0 where the device-bound xskx_rx_meta cannot run. One source for
 * all three, so that they never judge a packet differently; the library
 * loads one of them.
 */
#include <linux/bpf.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>
#include <xskx/rx_meta.h>

#include "xskx_maps.bpf.h"

/* The kernel's enum, named for the kfunc's prototype; values: XSKX_RSS_*. */
enum xdp_rss_hash_type { XSKX_RSS_TYPE_NONE = 0 };

/*
 * The RX metadata kfuncs (6.3+; the VLAN tag 6.8+). Weak, so that the
 * object's other programs load on a kernel without them. The verifier
 * refuses a program calling them unless it is device-bound ("metadata
 * kfuncs require device-bound program", 6.18): hence xskx_rx_nokfunc.
 */
extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx,
					 __u64 *timestamp) __ksym __weak;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym
	__weak;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto,
					__u16 *vlan_tci) __ksym __weak;

/*
 * For libxdp's multi-program dispatcher: run early, and let packets we pass
 * (queues without a socket) continue to the programs after us.
 */
struct {
	__uint(priority, 20);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xskx_redirect);

/* What xskx_deliver() puts in front of a packet it redirects. */
enum xskx_meta_kind {
	XSKX_META_NONE = 0,	/* nothing: xskx_redirect */
	XSKX_META_EMPTY,	/* the struct, valid 0: xskx_rx_nokfunc */
	XSKX_META_KFUNCS,	/* the struct from the kfuncs: xskx_rx_meta */
};

/*
 * A struct xskx_rx_meta in front of the packet, each field from its kfunc
 * (with kfuncs) or none. Without room for it (a driver that keeps no
 * metadata) the packet goes without: xskx_pkt_rx_meta() then finds no
 * magic there.
 */
static __always_inline void xskx_rx_meta_fill(struct xdp_md *ctx, int kfuncs)
{
	struct xskx_rx_meta *meta;
	enum xdp_rss_hash_type type;
	__be16 proto;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return;
	__builtin_memset(meta, 0, sizeof(*meta));
	meta->magic = XSKX_RX_META_MAGIC;
	if (!kfuncs)
		return;
	if (!bpf_xdp_metadata_rx_timestamp(ctx, &meta->timestamp))
		meta->valid |= XSKX_RX_META_TIMESTAMP;
	else
		meta->timestamp = 0;
	if (!bpf_xdp_metadata_rx_hash(ctx, &meta->hash, &type)) {
		meta->hash_type = type;
		meta->valid |= XSKX_RX_META_HASH;
	} else {
		meta->hash = 0;
	}
	if (!bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &meta->vlan_tci)) {
		meta->vlan_proto = bpf_ntohs(proto);
		meta->valid |= XSKX_RX_META_VLAN_TAG;
	} else {
		meta->vlan_tci = 0;
	}
}

static __always_inline int xskx_deliver(struct xdp_md *ctx,
					enum xskx_meta_kind meta)
{
	__u32 queue = ctx->rx_queue_index;
	long action;

	if (xskx_filter_denied(ctx)) {
		xskx_count(XSKX_VERDICT_DROPPED);
		return XDP_DROP;
	}
	if (!bpf_map_lookup_elem(&xskx_xsks, &queue)) {
		xskx_count(XSKX_VERDICT_PASSED);
		xskx_count_no_socket(queue);
		return XDP_PASS;
	}
	if (meta != XSKX_META_NONE)
		xskx_rx_meta_fill(ctx, meta == XSKX_META_KFUNCS);

	action = bpf_redirect_map(&xskx_xsks, queue, XDP_PASS);
	xskx_count(action == XDP_REDIRECT ? XSKX_VERDICT_REDIRECTED :
					    XSKX_VERDICT_REDIRECT_FAILED);
	return (int)action;
}

SEC("xdp")
int xskx_redirect(struct xdp_md *ctx)
{
	return xskx_deliver(ctx, XSKX_META_NONE);
}

SEC("xdp")
int xskx_rx_meta(struct xdp_md *ctx)
{
	return xskx_deliver(ctx, XSKX_META_KFUNCS);
}

SEC("xdp")
int xskx_rx_nokfunc(struct xdp_md *ctx)
{
	return xskx_deliver(ctx, XSKX_META_EMPTY);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
