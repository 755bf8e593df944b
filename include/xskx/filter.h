/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Deny-by-prefix filtering in the XDP program, before packets reach user
 * space.
 *
 * Each port (xskx/port.h) runs an XDP program: xskx's own on the kernel
 * backend (bpf/xskx_redirect.bpf.c), the simulated port's XDP hook on the
 * simulated NIC. Both consult the same deny list: a packet whose IPv4/IPv6 source or
 * destination address falls in a denied prefix is dropped there (longest
 * prefix match; the matching entry's rule id counts it), everything else goes
 * on as before. The list belongs to the port: every socket on it shares
 * it, and it is emptied when the port's last receiving socket closes.
 *
 * Which packets are judged: those whose IPv4 or IPv6 header is whole in the
 * frame, behind up to two VLAN tags, as xskx_pkt_parse() finds the
 * addresses: fragments too, and packets whose L4 header is cut short, but
 * not an IPv4 header with IHL < 5 or a total length below it. A packet
 * that both a source and a destination entry deny counts for the lower of
 * the two rule ids: give a lower id to the rule that should take
 * precedence (xskx-fw numbers its rules in file order). Dropped packets also count in the XDP program's
 * verdict counter "dropped" (xskx_xdp_prog_stats()) on the kernel backend,
 * in the port's xdp_drop on the simulated NIC.
 *
 * Kernel backend: the list lives in the BPF maps of the interface's XDP
 * program (bpf/xskx_maps.bpf.h) and dies with it (every process serving
 * the interface shares it, hence the list too); the calls need the
 * program, hence a socket with an RX ring open on the port (-ENOENT
 * otherwise), and fail with -ENOENT when the program does not use the deny
 * list's maps (a port's xdp_obj of yours that never calls
 * xskx_filter_denied()). Simulated
 * NIC: the list is the port's XDP hook while it is not empty, replacing one
 * set with xskx_sim_port_set_xdp().
 *
 * Changing the list never drops a packet in flight: xskx_filter_set()
 * replaces the whole list atomically (a packet sees the old list or the new
 * one, never a mix), and add/del change single entries.
 */
#ifndef XSKX_FILTER_H
#define XSKX_FILTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_port;

/* An address prefix: family AF_INET or AF_INET6, len bits of addr. */
struct xskx_prefix {
	uint8_t family;
	uint8_t len;
	uint8_t addr[16];	/* network order; bits past len are zero */
};

/*
 * Parse "192.0.2.0/24", "2001:db8::/32" or a bare address (a full-length
 * prefix). Returns 0 or -EINVAL (bad address, length out of range, or host
 * bits set past the length — "192.0.2.1/24" is refused, not silently
 * masked).
 */
int xskx_prefix_parse(const char *text, struct xskx_prefix *prefix);

/* Format as xskx_prefix_parse() reads it. Returns the length or -ENOSPC. */
int xskx_prefix_format(const struct xskx_prefix *prefix, char *buf,
		       size_t size);

enum xskx_filter_field {
	XSKX_FILTER_SRC = 0,	/* the packet's source address */
	XSKX_FILTER_DST = 1,	/* the packet's destination address */
};

/* Rule ids run from 0 to XSKX_FILTER_MAX_RULES - 1. */
#define XSKX_FILTER_MAX_RULES 1024
/* Entries per port and field. */
#define XSKX_FILTER_MAX_ENTRIES 4096

struct xskx_filter_entry {
	enum xskx_filter_field field;
	struct xskx_prefix prefix;
	uint32_t rule_id;	/* which counter a match adds to */
};

/*
 * Replace the deny list of the port with entries[0..n) atomically.
 * Returns 0, -EINVAL naming the bad entry (rule id out of range, prefix
 * malformed, the same field and prefix twice), -ENOSPC (more than
 * XSKX_FILTER_MAX_ENTRIES per field), or another negative errno from the
 * kernel (bpf() map updates; needs CAP_BPF or CAP_SYS_ADMIN).
 */
int xskx_filter_set(struct xskx_port *port,
		    const struct xskx_filter_entry *entries, uint32_t n);

/* Add one entry to (or replace the rule id of an equal entry in) the list. */
int xskx_filter_add(struct xskx_port *port,
		    const struct xskx_filter_entry *entry);

/* Delete the entry with this field and prefix; -ENOENT when there is none. */
int xskx_filter_del(struct xskx_port *port, enum xskx_filter_field field,
		    const struct xskx_prefix *prefix);

/*
 * Copy up to max entries of the list into entries; returns how many the list
 * holds (which may exceed max) or a negative errno.
 */
int xskx_filter_list(struct xskx_port *port,
		     struct xskx_filter_entry *entries, uint32_t max);

/* Packets and bytes dropped by entries carrying rule_id, since the port's program was attached. */
struct xskx_filter_counters {
	uint64_t packets;
	uint64_t bytes;
};

int xskx_filter_rule_stats(struct xskx_port *port, uint32_t rule_id,
			   struct xskx_filter_counters *counters);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_FILTER_H */
