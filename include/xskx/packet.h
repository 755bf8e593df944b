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

struct xskx_pkt; /* xskx/socket.h */

/*
 * xskx_pkt_parse() of a packet at pkts[0..frags): one descriptor, or a
 * multi-buffer chain (xskx_pkt_frags()). The IP length field is checked
 * against the whole chain's bytes; the headers are read from the first
 * fragment only, and one that does not end inside it makes the packet
 * MALFORMED (TRUNCATED when the chain is shorter than the datagram).
 * frags 0 or a NULL pkts: TRUNCATED, as a frame without bytes.
 */
enum xskx_pkt_class xskx_pkt_parse_chain(const struct xskx_pkt *pkts,
					 uint32_t frags,
					 struct xskx_pkt_view *view);

/*
 * Partial TCP and UDP checksums. A packet a local network stack sends into
 * a device that offloads TX checksums (veth does by default) carries
 * CHECKSUM_PARTIAL: its TCP or UDP checksum field holds only the sum of
 * the pseudo-header (addresses, protocol, L4 length), folded and not
 * complemented, for the device to finish. XDP hands it to AF_XDP as it is;
 * sent on unchanged (copy-mode TX has no checksum state) it arrives with a
 * bad checksum and the receiver drops it.
 *
 * Recognised: IPv4 (not fragmented) or IPv6 (behind hop-by-hop,
 * destination options, or a routing header with no segments left), behind
 * up to two VLAN tags, TCP or UDP (UDP with its length field equal to the
 * datagram's), whose checksum field equals the pseudo-header's sum. A
 * checksum already complete differs from that sum unless the rest of the
 * segment sums to minus twice it (about one packet in 65535): such a
 * packet is "completed" to the very same checksum, unchanged, at the cost
 * of one pass over its bytes. So no correct packet is ever spoiled.
 *
 * where->start is the L4 header's offset in the packet and where->offset
 * the checksum field's offset from it: the csum_start and csum_offset of
 * XSKX_TX_META_CHECKSUM (xskx_tx_meta()), for a socket that has it.
 */
struct xskx_pkt_csum {
	uint16_t start;
	uint16_t offset;
};

/*
 * Whether the packet at pkts[0..frags) (one descriptor, or a multi-buffer
 * chain whose headers are in the first fragment: xskx_pkt_frags()) has a
 * partial checksum. Returns 1 and fills *where (which may be NULL), 0 when
 * it has none (complete, not TCP/UDP, fragmented, truncated...), or
 * -EINVAL with a message (NULL pkts, frags 0, a first fragment without
 * data). Reads nothing past any fragment's len; no syscall. Cost: the
 * parse plus a sum of the addresses (cheap enough to call on every
 * packet: docs/PERFORMANCE.md).
 */
int xskx_pkt_csum_partial(const struct xskx_pkt *pkts, uint32_t frags,
			  struct xskx_pkt_csum *where);

/*
 * Complete a partial checksum in software: the checksum over the L4
 * segment (every fragment's bytes up to the IP datagram's end), stored in
 * its field; a UDP checksum that comes out 0 is sent as 0xffff (0 means
 * "none"). Returns 1 when it completed one, 0 when the packet had none to
 * complete (it is left untouched), -EINVAL as xskx_pkt_csum_partial().
 * Writes the two bytes of the field only; no syscall.
 */
int xskx_pkt_csum_complete(const struct xskx_pkt *pkts, uint32_t frags);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_PACKET_H */
