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
#include "log_internal.h"
#include "packet_internal.h"

#define TCP_CSUM_OFF 16
#define UDP_CSUM_OFF 6
#define UDP_LEN_OFF 4
#define IPV6_HLEN 40
#define IPV6_FRAG_HLEN 8

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

/*
 * Parse the packet; when its checksum is partial return 1, with where and
 * the datagram's end (its offset in the packet).
 */
static int find_partial(const struct xskx_pkt *pkts, uint32_t frags,
			struct xskx_pkt_csum *where, uint32_t *end,
			bool *udp)
{
	struct xskx_pkt_view v;
	const uint8_t *data, *l3;
	uint32_t span = 0, l4_len, alen;
	uint16_t field_off;
	uint64_t pseudo;

	if (!pkts || !frags || !pkts[0].data)
		return xskx__fail(-EINVAL,
				  "xskx_pkt_csum: pkts must hold at least one fragment with data (pkts %p, frags %u)",
				  (const void *)pkts, frags);
	for (uint32_t i = 0; i < frags; i++)
		span += pkts[i].len;
	data = pkts[0].data;
	if (xskx__pkt_parse_span(data, pkts[0].len, span, &v) != XSKX_PKT_L4 ||
	    (v.l4_proto != IPPROTO_TCP && v.l4_proto != IPPROTO_UDP) ||
	    v.first_fragment)
		return 0;
	l3 = data + v.l3_off;
	if (v.family == AF_INET)
		*end = v.l3_off + be16_at(l3 + 2);
	else
		*end = v.l3_off + IPV6_HLEN + be16_at(l3 + 4);
	l4_len = *end - v.l4_off;
	*udp = v.l4_proto == IPPROTO_UDP;
	if (*udp && be16_at(data + v.l4_off + UDP_LEN_OFF) != l4_len)
		return 0;
	/* Source and destination are adjacent in both IP headers. */
	alen = v.family == AF_INET ? 8 : 32;
	pseudo = (uint64_t)sum_bytes(v.src, alen) + v.l4_proto + l4_len;
	field_off = *udp ? UDP_CSUM_OFF : TCP_CSUM_OFF;
	if (be16_at(data + v.l4_off + field_off) != fold(pseudo))
		return 0;
	if (v.family == AF_INET6 && v.l4_off != v.l3_off + IPV6_HLEN &&
	    ipv6_route_pending(data, &v))
		return 0;
	if (where)
		*where = (struct xskx_pkt_csum){ .start = v.l4_off,
						 .offset = field_off };
	return 1;
}

XSKX_API int xskx_pkt_csum_partial(const struct xskx_pkt *pkts,
				   uint32_t frags, struct xskx_pkt_csum *where)
{
	uint32_t end;
	bool udp;

	return find_partial(pkts, frags, where, &end, &udp);
}

XSKX_API int xskx_pkt_csum_complete(const struct xskx_pkt *pkts,
				    uint32_t frags)
{
	struct xskx_pkt_csum at;
	uint32_t end;
	bool udp;
	int partial = find_partial(pkts, frags, &at, &end, &udp);
	uint8_t *field;
	uint16_t csum;

	if (partial <= 0)
		return partial;
	csum = (uint16_t)~sum_segment(pkts, frags, at.start, end);
	if (udp && !csum)
		csum = 0xffff;
	field = pkts[0].data + at.start + at.offset;
	field[0] = (uint8_t)(csum >> 8);
	field[1] = (uint8_t)csum;
	return 1;
}
