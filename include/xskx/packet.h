/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A packet view: where the L2, L3 and L4 headers of a received frame are,
 * found defensively. The parser never reads past len, follows up to two
 * VLAN tags (802.1Q, 802.1ad), IPv4 options, and the IPv6 extension headers
 * that carry a next-header field (hop-by-hop, routing, fragment,
 * destination options), and says why it stopped when a packet cannot be
 * classified. No allocation, no syscall: for the data path.
 */
#ifndef XSKX_PACKET_H
#define XSKX_PACKET_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How far the parser got. */
enum xskx_pkt_class {
	XSKX_PKT_L4 = 0,	/* IPv4/IPv6 with its TCP, UDP or ICMP header */
	XSKX_PKT_L3,		/* IP, another L4 protocol: l4 fields unset */
	XSKX_PKT_NOT_IP,	/* not IPv4/IPv6 (ARP, LLDP...) */
	XSKX_PKT_FRAGMENT,	/* an IP fragment other than the first: no L4 */
	XSKX_PKT_TRUNCATED,	/* the frame ends before a header or the IP
				 * datagram (by its length field) does */
	XSKX_PKT_MALFORMED,	/* a header field is impossible: IHL < 5, an
				 * IPv4 total length below the header length,
				 * an L4 or extension header running past the
				 * datagram's own length... */
};

/*
 * What the parser found. The L3 fields are set as soon as the IP header is
 * complete, whatever the parser met after it (a truncated TCP header, a
 * malformed extension header): a packet's addresses are known even when its
 * L4 header is not, as the XDP program's deny list sees them.
 */
struct xskx_pkt_view {
	enum xskx_pkt_class cls;
	uint16_t ethertype;	/* after the VLAN tags, host order */
	uint8_t vlans;		/* VLAN tags skipped (0..2) */
	uint8_t family;		/* AF_INET, AF_INET6 (IP header complete), or 0 */
	uint16_t l3_off;	/* IP header offset (0: ethertype not IPv4/IPv6) */
	uint16_t l4_off;	/* TCP/UDP/ICMP header (XSKX_PKT_L4 only) */
	uint8_t l4_proto;	/* IPPROTO_* after the extension headers followed */
	bool first_fragment;	/* the first fragment of a fragmented packet */
	const uint8_t *src;	/* source address, 4 or 16 bytes (family set) */
	const uint8_t *dst;
	uint16_t sport;		/* TCP/UDP ports, host order (XSKX_PKT_L4) */
	uint16_t dport;
	uint8_t icmp_type;	/* ICMP/ICMPv6 type (XSKX_PKT_L4) */
};

/*
 * Parse the Ethernet frame data[0..len) into *view. Returns the class (also
 * stored in view->cls). Fields the parser did not reach are zero. Bytes
 * past the IP datagram's length field (link-layer padding) are not looked
 * at.
 */
enum xskx_pkt_class xskx_pkt_parse(const uint8_t *data, uint32_t len,
				   struct xskx_pkt_view *view);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_PACKET_H */
