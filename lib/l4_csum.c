// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Partial TCP/UDP checksums (xskx/packet.h): recognised by comparing the
 * checksum field with the pseudo-header's sum, completed as a device
 * would: the ones' complement sum of the L4 segment from its first byte
 * to the datagram's end, the field (which holds the pseudo-header's sum)
 * included, complemented into the field.
 *
 * The sums use the property of RFC 1071 that a ones' complement sum does
 * not depend on byte order: bytes are added as native 32-bit words and the
 * folded result swapped into network order once. A fragment of a chain
 * that starts at an odd offset of the segment contributes its sum with
 * its bytes swapped.
 */
#include <byteswap.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <xskx/packet.h>
#include <xskx/socket.h>

#include "api.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "packet_internal.h"

#define TCP_CSUM_OFF 16
#define UDP_CSUM_OFF 6
#define UDP_LEN_OFF 4

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* A ones' complement sum, folded to 16 bits (never 0 for a non-zero sum). */
static uint16_t fold(uint64_t sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/*
 * The ones' complement sum of len bytes as network-order 16-bit words (an
 * odd last byte padded with a zero), folded, in host order.
 */
static uint16_t sum_bytes(const uint8_t *p, uint32_t len)
{
	uint64_t acc = 0;
	uint32_t w32, i = 0;
	uint16_t w16;

	for (; len - i >= 4; i += 4) {
		memcpy(&w32, p + i, 4);
		acc += w32;
	}
	if (len - i >= 2) {
		memcpy(&w16, p + i, 2);
		acc += w16;
		i += 2;
	}
	if (i < len) {
		const uint8_t last[2] = { p[i], 0 };

		memcpy(&w16, last, 2);
		acc += w16;
	}
	return ntohs(fold(acc));
}

/* Where a TCP or UDP segment lies in a packet. */
struct segment {
	uint32_t l3, l4, end; /* offsets: IP header, L4 header, datagram end */
	uint8_t proto;
	bool v6;
};

/*
 * The pseudo-header's sum, folded, in network order as the field holds it:
 * its words added as they lie in memory (source and destination are
 * adjacent in both IP headers), the rest converted to network order
 * first, one fold. This runs on every packet: no loop, no byte swap of
 * the sum.
 */
static uint16_t pseudo_sum_net(const uint8_t *data, const struct segment *g)
{
	uint64_t w[4], acc = htonl(g->proto + (g->end - g->l4));

	if (!g->v6) {
		memcpy(w, data + g->l3 + 12, 8);
		acc += (w[0] & 0xffffffff) + (w[0] >> 32);
	} else {
		memcpy(w, data + g->l3 + 8, 32);
		for (int i = 0; i < 4; i++)
			acc += (w[i] & 0xffffffff) + (w[i] >> 32);
	}
	return fold(acc);
}

/* The sum of the packet's bytes [from, to), fragment by fragment. */
static uint16_t sum_segment(const struct xskx_pkt *pkts, uint32_t frags,
			    uint32_t from, uint32_t to)
{
	uint64_t acc = 0;
	uint32_t base = 0, summed = 0;

	for (uint32_t i = 0; i < frags && base < to; base += pkts[i++].len) {
		uint32_t a = from > base ? from - base : 0;
		uint32_t b = to - base < pkts[i].len ? to - base : pkts[i].len;
		uint16_t s;

		if (a >= b)
			continue;
		s = sum_bytes(pkts[i].data + a, b - a);
		/* Bytes that start at an odd offset sit in the low halves. */
		acc += summed & 1 ? bswap_16(s) : s;
		summed += b - a;
	}
	return fold(acc);
}

/*
 * An IPv6 routing header with segments left makes the pseudo-header's
 * destination the route's last address, not the header's: not handled.
 * The extension headers before l4_off were checked by the parse.
 */
static bool ipv6_route_pending(const uint8_t *data,
			       const struct xskx_pkt_view *v)
{
	uint32_t off = v->l3_off + IPV6_HLEN;
	uint8_t next = data[v->l3_off + 6];

	while (off < v->l4_off) {
		const uint8_t *h = data + off;

		if (next == IPPROTO_ROUTING && h[3])
			return true;
		off += next == IPPROTO_FRAGMENT ? IPV6_FRAG_HLEN :
						  ((uint32_t)h[1] + 1) * 8;
		next = h[0];
	}
	return false;
}

/* IPv6 with extension headers: the packet view's parser walks them. */
static bool locate_by_parse(const uint8_t *data, uint32_t len, uint32_t span,
			    struct segment *g)
{
	struct xskx_pkt_view v;

	if (xskx__pkt_parse_span(data, len, span, &v) != XSKX_PKT_L4 ||
	    (v.l4_proto != IPPROTO_TCP && v.l4_proto != IPPROTO_UDP) ||
	    v.first_fragment || ipv6_route_pending(data, &v))
		return false;
	g->l4 = v.l4_off;
	g->proto = v.l4_proto;
	return true;
}

static bool is_ipv6_ext_header(uint8_t proto)
{
	return proto == IPPROTO_HOPOPTS || proto == IPPROTO_ROUTING ||
	       proto == IPPROTO_DSTOPTS || proto == IPPROTO_FRAGMENT;
}

/*
 * Find the TCP or UDP segment of a packet of span bytes whose first len
 * are at data, under the packet view's rules (xskx_pkt_parse(): the IP
 * header sane and within len, its length within span, the whole L4 header
 * within len and the datagram, no IPv4 fragment, a TCP data offset of at
 * least 5) but only as far as the checksum needs: this runs on every
 * packet, and most carry no extension headers. IPv6 extension headers go
 * to the parser itself.
 */
static bool locate(const uint8_t *data, uint32_t len, uint32_t span,
		   struct segment *g)
{
	uint32_t off = XSKX_ETH_HLEN - 2, hdr_end;
	uint16_t type;

	if (len < XSKX_ETH_HLEN)
		return false;
	type = be16_at(data + off);
	for (int tags = 0; type == ETH_P_8021Q || type == ETH_P_8021AD;
	     tags++) {
		if (tags == XSKX_MAX_VLANS || len - off < 2 + XSKX_VLAN_HLEN)
			return false;
		off += XSKX_VLAN_HLEN;
		type = be16_at(data + off);
	}
	g->l3 = off + 2;
	if (type == ETH_P_IPV4) {
		const uint8_t *ip = data + g->l3;
		uint32_t ihl;

		if (len - g->l3 < IPV4_MIN_HLEN)
			return false;
		ihl = (uint32_t)(ip[0] & 0x0f) * 4;
		if ((ip[0] >> 4) != 4 || ihl < IPV4_MIN_HLEN ||
		    be16_at(ip + 2) < ihl || (be16_at(ip + 6) & 0x3fff))
			return false;
		g->v6 = false;
		g->proto = ip[9];
		g->l4 = g->l3 + ihl;
		g->end = g->l3 + be16_at(ip + 2);
	} else if (type == ETH_P_IPV6) {
		const uint8_t *ip = data + g->l3;

		if (len - g->l3 < IPV6_HLEN || (ip[0] >> 4) != 6)
			return false;
		g->v6 = true;
		g->proto = ip[6];
		g->l4 = g->l3 + IPV6_HLEN;
		g->end = g->l4 + be16_at(ip + 4);
		if (is_ipv6_ext_header(g->proto))
			return g->end <= span &&
			       locate_by_parse(data, len, span, g);
	} else {
		return false;
	}
	if (g->end > span || g->l4 > g->end)
		return false;
	if (g->proto == IPPROTO_TCP) {
		if (g->l4 + TCP_MIN_HLEN > len || g->l4 + TCP_MIN_HLEN > g->end)
			return false;
		hdr_end = g->l4 + (uint32_t)(data[g->l4 + 12] >> 4) * 4;
		return hdr_end >= g->l4 + TCP_MIN_HLEN && hdr_end <= len &&
		       hdr_end <= g->end;
	}
	return g->proto == IPPROTO_UDP && g->l4 + UDP_HLEN <= len &&
	       g->l4 + UDP_HLEN <= g->end;
}

/*
 * When the packet's checksum is partial return 1, with where and the
 * segment.
 */
static int find_partial(const struct xskx_pkt *pkts, uint32_t frags,
			struct xskx_pkt_csum *where, struct segment *g)
{
	uint32_t span = pkts ? pkts[0].len : 0;
	uint16_t field_off, field;
	const uint8_t *data;

	if (!pkts || !frags || !pkts[0].data)
		return xskx__fail(-EINVAL,
				  "xskx_pkt_csum: pkts must hold at least one fragment with data (pkts %p, frags %u)",
				  (const void *)pkts, frags);
	for (uint32_t i = 1; i < frags; i++)
		span += pkts[i].len;
	data = pkts[0].data;
	if (!locate(data, pkts[0].len, span, g))
		return 0;
	if (g->proto == IPPROTO_UDP &&
	    be16_at(data + g->l4 + UDP_LEN_OFF) != g->end - g->l4)
		return 0;
	field_off = g->proto == IPPROTO_UDP ? UDP_CSUM_OFF : TCP_CSUM_OFF;
	memcpy(&field, data + g->l4 + field_off, 2);
	if (field != pseudo_sum_net(data, g))
		return 0;
	if (where)
		*where = (struct xskx_pkt_csum){ .start = (uint16_t)g->l4,
						 .offset = field_off };
	return 1;
}

XSKX_API int xskx_pkt_csum_partial(const struct xskx_pkt *pkts,
				   uint32_t frags, struct xskx_pkt_csum *where)
{
	struct segment g;

	return find_partial(pkts, frags, where, &g);
}

XSKX_API int xskx_pkt_csum_complete(const struct xskx_pkt *pkts,
				    uint32_t frags)
{
	struct xskx_pkt_csum at = { 0 };
	struct segment g = { 0 };
	int partial = find_partial(pkts, frags, &at, &g);
	uint8_t *field;
	uint16_t csum;

	if (partial <= 0)
		return partial;
	csum = (uint16_t)~sum_segment(pkts, frags, at.start, g.end);
	if (g.proto == IPPROTO_UDP && !csum)
		csum = 0xffff;
	field = pkts[0].data + at.start + at.offset;
	field[0] = (uint8_t)(csum >> 8);
	field[1] = (uint8_t)csum;
	return 1;
}
