/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The maps of an XDP program that xskx manages: xskx's own program, or one
 * of yours given in opts.xdp_obj (the library then attaches it, fills its
 * XSKMAP, reads its counters and detaches it, as it does its own). Include
 * this in exactly one .bpf.c, after <linux/bpf.h> and <bpf/bpf_helpers.h>,
 * and build your object again with each xskx version: the library refuses
 * an object whose owner map has another layout than its own.
 */
#ifndef XSKX_MAPS_BPF_H
#define XSKX_MAPS_BPF_H

#include "xskx_shared.h"

/* RX queue -> the AF_XDP socket bound to it; filled by the library. */
struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSKX_XSKMAP_DEFAULT_ENTRIES);
	__type(key, __u32);
	__type(value, __u32);
} xskx_xsks SEC(".maps");

/* Packets per enum xskx_verdict, per CPU: xskx_xdp_prog_stats() sums them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKX_VERDICT_COUNT);
	__type(key, __u32);
	__type(value, __u64);
} xskx_verdicts SEC(".maps");

/* Written by the library, never read by the program (see xskx_shared.h). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, XSKX_OWNER_MAP_ENTRIES);
	__type(key, struct xskx_prog_owner);
	__type(value, struct xskx_owner_entry);
} xskx_owner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XSKX_XSKMAP_DEFAULT_ENTRIES);
	__type(key, __u32);
	__type(value, struct xskx_prog_owner);
} xskx_qowner SEC(".maps");

/* Packets per RX queue that found no socket there (see xskx_shared.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKX_XSKMAP_DEFAULT_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} xskx_nosock SEC(".maps");

/* The deny list (see xskx_shared.h); filled by xskx_filter_set() & co. */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, XSKX_DENY_MAP_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct xskx_deny_key4);
	__type(value, __u32);
} xskx_deny4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, XSKX_DENY_MAP_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct xskx_deny_key6);
	__type(value, __u32);
} xskx_deny6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} xskx_deny_gen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XSKX_DENY_RULES);
	__type(key, __u32);
	__type(value, struct xskx_deny_counter);
} xskx_deny_stats SEC(".maps");

static __always_inline void xskx_count(__u32 verdict)
{
	__u64 *packets = bpf_map_lookup_elem(&xskx_verdicts, &verdict);

	if (packets)
		*packets += 1; /* this CPU's slot: no other writer */
}

/* A packet arrived on queue with no socket in the XSKMAP there. */
static __always_inline void xskx_count_no_socket(__u32 queue)
{
	__u64 *packets = bpf_map_lookup_elem(&xskx_nosock, &queue);

	if (packets)
		*packets += 1; /* this CPU's slot: no other writer */
}

/*
 * Hand the packet to the socket bound to its RX queue, counting the verdict:
 * XDP_REDIRECT, or XDP_DROP (counted as dropped, and for its queue as
 * finding no socket) when no socket is there.
 */
static __always_inline int xskx_redirect_to_queue(struct xdp_md *ctx)
{
	long action = bpf_redirect_map(&xskx_xsks, ctx->rx_queue_index,
				       XDP_DROP);

	if (action == XDP_REDIRECT) {
		xskx_count(XSKX_VERDICT_REDIRECTED);
	} else {
		xskx_count(XSKX_VERDICT_DROPPED);
		xskx_count_no_socket(ctx->rx_queue_index);
	}
	return (int)action;
}

static __always_inline __u16 xskx_be16(const __u8 *p)
{
	return (__u16)(p[0] << 8 | p[1]);
}

/*
 * Of a source and a destination entry that both deny a packet, the one with
 * the lower rule id counts it: rule ids are priorities (a rule file's line
 * order), and the first rule that matches is the one to credit.
 */
static __always_inline __u32 *xskx_deny_first(__u32 *src, __u32 *dst)
{
	if (!src)
		return dst;
	if (!dst)
		return src;
	return *dst < *src ? dst : src;
}

static __always_inline __u32 *xskx_deny_lookup4(__u32 gen, const __u8 *ip)
{
	struct xskx_deny_key4 key = {
		.prefixlen = XSKX_DENY_KEY_BITS + 32,
		.gen = (__u8)gen,
		.field = XSKX_DENY_SRC,
	};
	__u32 *rule;

	__builtin_memcpy(key.addr, ip + 12, 4);
	rule = bpf_map_lookup_elem(&xskx_deny4, &key);
	key.field = XSKX_DENY_DST;
	__builtin_memcpy(key.addr, ip + 16, 4);
	return xskx_deny_first(rule, bpf_map_lookup_elem(&xskx_deny4, &key));
}

static __always_inline __u32 *xskx_deny_lookup6(__u32 gen, const __u8 *ip)
{
	struct xskx_deny_key6 key = {
		.prefixlen = XSKX_DENY_KEY_BITS + 128,
		.gen = (__u8)gen,
		.field = XSKX_DENY_SRC,
	};
	__u32 *rule;

	__builtin_memcpy(key.addr, ip + 8, 16);
	rule = bpf_map_lookup_elem(&xskx_deny6, &key);
	key.field = XSKX_DENY_DST;
	__builtin_memcpy(key.addr, ip + 24, 16);
	return xskx_deny_first(rule, bpf_map_lookup_elem(&xskx_deny6, &key));
}

/*
 * Whether the deny list drops this packet; a denied packet is counted for
 * its rule (and should be for XSKX_VERDICT_DROPPED by the caller). Judges
 * what xskx_pkt_parse() gives addresses to: an IPv4 header (IHL >= 5, total
 * length at least the header's) or an IPv6 header whole in the frame,
 * behind at most two VLAN tags. A datagram longer than the frame is judged
 * by its addresses, as the parser gives them for a truncated one. The
 * addresses are in the fixed header, so IPv6 extension headers and IPv4
 * options need no walking. While the list is empty (XSKX_DENY_GEN_LISTED
 * clear) a packet costs one array lookup. A program of yours given as
 * opts.xdp_obj calls this first, or the library refuses to manage its deny
 * list (-ENOENT).
 */
static __always_inline int xskx_filter_denied(struct xdp_md *ctx)
{
	const __u8 *data = (const __u8 *)(long)ctx->data;
	const __u8 *end = (const __u8 *)(long)ctx->data_end;
	const __u8 *l3 = data + 14;
	struct xskx_deny_counter *counter;
	__u32 zero = 0, *gen, *rule = 0;
	__u16 proto;

	/* An empty list: one array lookup, nothing parsed. */
	gen = bpf_map_lookup_elem(&xskx_deny_gen, &zero);
	if (!gen || !(*gen & XSKX_DENY_GEN_LISTED))
		return 0;
	if (l3 > end)
		return 0;
	proto = xskx_be16(data + 12);
#pragma unroll
	for (int i = 0; i < 2; i++) {
		if (proto != 0x8100 && proto != 0x88a8)
			break;
		if (l3 + 4 > end)
			return 0;
		proto = xskx_be16(l3 + 2);
		l3 += 4;
	}
	if (proto == 0x0800) {
		if (l3 + 20 > end || (l3[0] >> 4) != 4 || (l3[0] & 0x0f) < 5 ||
		    l3 + (l3[0] & 0x0f) * 4 > end ||
		    xskx_be16(l3 + 2) < (l3[0] & 0x0f) * 4)
			return 0;
		rule = xskx_deny_lookup4(*gen, l3);
	} else if (proto == 0x86dd) {
		if (l3 + 40 > end || (l3[0] >> 4) != 6)
			return 0;
		rule = xskx_deny_lookup6(*gen, l3);
	}
	if (!rule)
		return 0;
	zero = *rule;
	counter = bpf_map_lookup_elem(&xskx_deny_stats, &zero);
	if (counter) {
		counter->packets += 1; /* this CPU's slot: no other writer */
		counter->bytes += (__u64)(end - data);
	}
	return 1;
}

#endif /* XSKX_MAPS_BPF_H */
