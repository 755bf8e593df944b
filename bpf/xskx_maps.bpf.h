/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The maps of an XDP program that xskx manages: xskx's own program, or one
 * of yours given in opts.xdp_obj (the library then attaches it, fills its
 * XSKMAP, reads its counters and detaches it, as it does its own). Include
 * this in exactly one .bpf.c, after <linux/bpf.h> and <bpf/bpf_helpers.h>.
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
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xskx_prog_owner);
} xskx_owner SEC(".maps");

static __always_inline void xskx_count(__u32 verdict)
{
	__u64 *packets = bpf_map_lookup_elem(&xskx_verdicts, &verdict);

	if (packets)
		*packets += 1; /* this CPU's slot: no other writer */
}

#endif /* XSKX_MAPS_BPF_H */
