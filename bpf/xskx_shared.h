/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the library and the XDP programs it manages agree on: map names,
 * their layout and the verdict counters. Included by lib/kernel/ and, via
 * xskx_maps.bpf.h, by xskx_redirect.bpf.c and any program of yours that
 * xskx should manage (tests/veth's drop-half program is one).
 */
#ifndef XSKX_SHARED_H
#define XSKX_SHARED_H

#include <linux/types.h>

/* xskx's own program (and the name of the object it is loaded from). */
#define XSKX_PROG_NAME "xskx_redirect"
/*
 * The same object's other programs, for ports opened with
 * XSKX_PORT_RX_METADATA: xskx_redirect plus a struct xskx_rx_meta
 * (xskx/rx_meta.h) in front of every packet it redirects, filled from the
 * device's kfuncs (loaded device-bound), or with valid 0 where a
 * device-bound program cannot run (generic mode, a device without the
 * kfuncs). A port without the flag loads xskx_redirect alone, unchanged.
 */
#define XSKX_RX_META_PROG_NAME "xskx_rx_meta"
#define XSKX_RX_NOKFUNC_PROG_NAME "xskx_rx_nokfunc"

/*
 * XSKMAP: key = RX queue index, value = AF_XDP socket. The object declares
 * XSKX_XSKMAP_DEFAULT_ENTRIES; the library resizes it to the device's queue
 * count before loading.
 */
#define XSKX_XSKMAP_NAME "xskx_xsks"
#define XSKX_XSKMAP_DEFAULT_ENTRIES 64

/* PERCPU_ARRAY: key = enum xskx_verdict, value = __u64 packets per CPU. */
#define XSKX_VERDICT_MAP_NAME "xskx_verdicts"

enum xskx_verdict {
	/* bpf_redirect_map() accepted the packet for the queue's socket. */
	XSKX_VERDICT_REDIRECTED = 0,
	/* No socket on the packet's queue: handed to the kernel stack. */
	XSKX_VERDICT_PASSED,
	/* Dropped by the program (xskx's own: denied by the deny list). */
	XSKX_VERDICT_DROPPED,
	/*
	 * A socket was on the queue when looked up but the redirect fell back
	 * to XDP_PASS: the socket left in between. The packet was passed.
	 */
	XSKX_VERDICT_REDIRECT_FAILED,
	XSKX_VERDICT_COUNT,
};

/*
 * The processes using the program. A HASH that the program never reads,
 * bound to it with BPF_PROG_BIND_MAP so that it shows up in the program's
 * map ids: it marks the program as managed by xskx, and lets a later
 * process join it, leave it, or tell a program in use from one whose users
 * all died. Keys:
 *   - all zero: the program itself, written once by the process that
 *     attached it, before the map is bound (role XSKX_OWNER_PROGRAM, with
 *     the object's digest and flags);
 *   - struct xskx_prog_owner: one process using it, serving or closing.
 */
#define XSKX_OWNER_MAP_NAME "xskx_owner"
#define XSKX_OWNER_MAP_ENTRIES 256

struct xskx_prog_owner {
	__u32 pid; /* in the owner's pid namespace */
	__u32 reserved;
	__u64 pid_ns;	  /* inode of that pid namespace */
	__u64 start_time; /* the owner's start time (clock ticks since boot) */
};

enum xskx_owner_role {
	XSKX_OWNER_PROGRAM = 0,
	/* Using the program: it stays attached. */
	XSKX_OWNER_SERVING,
	/* About to detach it (its last user), or to replace it (stale). */
	XSKX_OWNER_CLOSING,
};

/* struct xskx_owner_entry.flags: loaded with xdp.frags (multi-buffer). */
#define XSKX_OWNER_FRAGS 1u
/*
 * The RX metadata program (XSKX_RX_META_PROG_NAME), for ports opened with
 * XSKX_PORT_RX_METADATA: a process must ask for it to join it, and a
 * process that does not ask must not join it.
 */
#define XSKX_OWNER_RX_META 2u
/*
 * With XSKX_OWNER_RX_META: loaded device-bound, its kfuncs answering (not
 * in generic mode, nor for a device without them). Reported, not matched.
 */
#define XSKX_OWNER_RX_META_BOUND 4u

struct xskx_owner_entry {
	__u32 role;	  /* enum xskx_owner_role */
	__u32 flags;	  /* the program's (role XSKX_OWNER_PROGRAM only) */
	__u64 obj_digest; /* FNV-1a of the ELF object it was loaded from */
};

/*
 * ARRAY with one entry per XSKMAP slot (resized with it), bound like the
 * owner map: the process whose socket is on each queue, so that a process
 * refused a queue learns whose it is. Zero: nobody's.
 */
#define XSKX_QUEUE_OWNER_MAP_NAME "xskx_qowner"

/*
 * PERCPU_ARRAY with one entry per XSKMAP slot (resized with it): packets
 * that arrived on each RX queue while no socket was in the XSKMAP there.
 * RSS spreading traffic over queues nobody listens on is the commonest
 * reason for "nothing arrives", and the kernel says nothing of it; the
 * library reads these (xskx_port_rx_no_socket()) and names the queues.
 * Optional in a program of yours: without it, no per-queue counts.
 */
#define XSKX_NO_SOCKET_MAP_NAME "xskx_nosock"

/*
 * The deny list (xskx/filter.h). One LPM_TRIE per address family, whose
 * key data is [generation][field][address]: an entry for a prefix of len
 * bits has prefixlen XSKX_DENY_KEY_BITS + len, so it matches only keys of
 * its generation and field, and a lookup with the packet's full address
 * finds the longest prefix. The value is the entry's rule id.
 *
 * The active generation (0 or 1) is bit 0 of the one value of
 * XSKX_DENY_GEN_MAP: the library writes a new list under the other
 * generation, then flips it, and a packet, which reads the generation once,
 * sees one list whole. XSKX_DENY_GEN_LISTED in the same value says the list
 * in force has entries: without it the program looks no further, so an
 * empty list costs a packet one array lookup. The flag sits above the low
 * byte, which is what goes into a key's gen byte.
 */
#define XSKX_DENY_GEN_LISTED (1u << 8)
#define XSKX_DENY4_MAP_NAME "xskx_deny4"
#define XSKX_DENY6_MAP_NAME "xskx_deny6"
#define XSKX_DENY_GEN_MAP_NAME "xskx_deny_gen"
/* PERCPU_ARRAY: key = rule id, value = struct xskx_deny_counter. */
#define XSKX_DENY_STATS_MAP_NAME "xskx_deny_stats"

/* XSKX_FILTER_MAX_RULES and XSKX_FILTER_MAX_ENTRIES of xskx/filter.h. */
#define XSKX_DENY_RULES 1024
#define XSKX_DENY_FIELD_ENTRIES 4096
/* Both generations of both fields of one family fit. */
#define XSKX_DENY_MAP_ENTRIES (2 * 2 * XSKX_DENY_FIELD_ENTRIES)
/* The generation and field bytes before the address. */
#define XSKX_DENY_KEY_BITS 16

/* The field byte: enum xskx_filter_field. */
#define XSKX_DENY_SRC 0
#define XSKX_DENY_DST 1

/* struct bpf_lpm_trie_key with its data spelled out; pad is always zero. */
struct xskx_deny_key4 {
	__u32 prefixlen;
	__u8 gen;
	__u8 field;
	__u8 addr[4];
	__u8 pad[2];
};

struct xskx_deny_key6 {
	__u32 prefixlen;
	__u8 gen;
	__u8 field;
	__u8 addr[16];
	__u8 pad[2];
};

struct xskx_deny_counter {
	__u64 packets;
	__u64 bytes;
};

#endif /* XSKX_SHARED_H */
