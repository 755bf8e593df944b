// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The packet view. Every read is preceded by a check that the bytes lie
 * within the frame; the offsets grow only by header lengths that were
 * themselves read from inside the frame, and at most IPV6_MAX_EXT_HEADERS
 * extension headers are followed, so a crafted packet can neither make the
 * parser read past len nor loop.
 *
 * The IP header's length field (IPv4 total length, IPv6 payload length) is
 * checked as the kernel's ip_rcv/ipv6_rcv check it, and then bounds what
 * follows:
 *   - shorter than the IPv4 header itself: MALFORMED, no addresses (the
 *     header contradicts itself, as with IHL < 5; the kernel counts it in
 *     InHdrErrors);
 *   - longer than the frame holds: TRUNCATED, with the addresses (the frame
 *     lost the datagram's tail; the kernel counts InTruncatedPkts);
 *   - shorter than the frame: the rest is link-layer padding (a 60-byte
 *     minimum Ethernet frame) and is not the packet's; an L4 or extension
 *     header that runs past the datagram's end, into padding or not, is
 *     MALFORMED: the frame holds the whole datagram and the datagram says
 *     that header is not in it. A port rule must never match bytes the
 *     datagram disowns.
 * An IPv6 payload length of 0 is taken literally: a jumbogram (RFC 2675)
 * needs a payload over 65535 bytes, more than a frame the parser reads.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <xskx/packet.h>
#include <xskx/socket.h>

#include "api.h"
#include "kernel_rules.h"
#include "packet_internal.h"

/* More than any sane packet carries; a longer chain is refused as malformed. */
#define IPV6_MAX_EXT_HEADERS 8
#define ICMP_HLEN 8
#define ICMPV6_HLEN 4

struct cursor {
	const uint8_t *data;
	uint32_t len; /* the frame's, then the IP datagram's end */
	uint32_t span; /* the packet's bytes: len, or more for a chain */
	uint32_t off;
	/* What a header running past len is: TRUNCATED, MALFORMED past the datagram. */
	enum xskx_pkt_class short_cls;
};

static bool have(const struct cursor *c, uint32_t bytes)
{
	return c->off <= c->len && bytes <= c->len - c->off;
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static enum xskx_pkt_class done(struct xskx_pkt_view *v,
				enum xskx_pkt_class cls)
{
	v->cls = cls;
	return cls;
}

static enum xskx_pkt_class parse_l4(struct cursor *c, struct xskx_pkt_view *v)
{
	const uint8_t *h = c->data + c->off;

	switch (v->l4_proto) {
	case IPPROTO_TCP:
		if (!have(c, TCP_MIN_HLEN))
			return done(v, c->short_cls);
		if ((h[12] >> 4) < 5)
			return done(v, XSKX_PKT_MALFORMED);
		if (!have(c, (uint32_t)(h[12] >> 4) * 4))
			return done(v, c->short_cls);
		break;
	case IPPROTO_UDP:
		if (!have(c, UDP_HLEN))
			return done(v, c->short_cls);
		break;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		if (!have(c, v->l4_proto == IPPROTO_ICMP ? ICMP_HLEN :
							   ICMPV6_HLEN))
			return done(v, c->short_cls);
		v->l4_off = (uint16_t)c->off;
		v->icmp_type = h[0];
		return done(v, XSKX_PKT_L4);
	default:
		return done(v, XSKX_PKT_L3);
	}
	v->l4_off = (uint16_t)c->off;
	v->sport = be16_at(h);
	v->dport = be16_at(h + 2);
	return done(v, XSKX_PKT_L4);
}

/*
 * The IP datagram starting at c->off is bytes long by its header: false
 * when the packet holds less; otherwise it bounds the rest of the parse
 * (which, in a chain, reads only the first fragment).
 */
static bool datagram_bound(struct cursor *c, uint32_t bytes)
{
	if (c->off > c->span || bytes > c->span - c->off)
		return false;
	if (c->off + bytes < c->len)
		c->len = c->off + bytes;
	c->short_cls = XSKX_PKT_MALFORMED;
	return true;
}

static enum xskx_pkt_class parse_ipv4(struct cursor *c, struct xskx_pkt_view *v)
{
	const uint8_t *h = c->data + c->off;
	uint32_t hlen;
	uint16_t frag;

	if (!have(c, IPV4_MIN_HLEN))
		return done(v, XSKX_PKT_TRUNCATED);
	hlen = (uint32_t)(h[0] & 0x0f) * 4;
	if ((h[0] >> 4) != 4 || hlen < IPV4_MIN_HLEN)
		return done(v, XSKX_PKT_MALFORMED);
	if (!have(c, hlen))
		return done(v, XSKX_PKT_TRUNCATED);
	if (be16_at(h + 2) < hlen)
		return done(v, XSKX_PKT_MALFORMED);
	v->family = AF_INET;
	v->src = h + 12;
	v->dst = h + 16;
	v->l4_proto = h[9];
	if (!datagram_bound(c, be16_at(h + 2)))
		return done(v, XSKX_PKT_TRUNCATED);
	c->off += hlen;
	frag = be16_at(h + 6);
	if (frag & 0x1fff)
		return done(v, XSKX_PKT_FRAGMENT);
	v->first_fragment = frag & 0x2000;
	return parse_l4(c, v);
}

/* Hop-by-hop, routing, destination options: next header, then length. */
static bool is_plain_ext_header(uint8_t proto)
{
	return proto == IPPROTO_HOPOPTS || proto == IPPROTO_ROUTING ||
	       proto == IPPROTO_DSTOPTS;
}

static enum xskx_pkt_class parse_ipv6(struct cursor *c, struct xskx_pkt_view *v)
{
	const uint8_t *h = c->data + c->off;

	if (!have(c, IPV6_HLEN))
		return done(v, XSKX_PKT_TRUNCATED);
	if ((h[0] >> 4) != 6)
		return done(v, XSKX_PKT_MALFORMED);
	v->family = AF_INET6;
	v->src = h + 8;
	v->dst = h + 24;
	v->l4_proto = h[6];
	if (!datagram_bound(c, IPV6_HLEN + (uint32_t)be16_at(h + 4)))
		return done(v, XSKX_PKT_TRUNCATED);
	c->off += IPV6_HLEN;

	for (int n = 0;; n++) {
		bool plain = is_plain_ext_header(v->l4_proto);

		if (!plain && v->l4_proto != IPPROTO_FRAGMENT)
			return parse_l4(c, v);
		if (n == IPV6_MAX_EXT_HEADERS)
			return done(v, XSKX_PKT_MALFORMED);
		/* Both kinds start with the next header and are >= 8 bytes. */
		if (!have(c, 8))
			return done(v, c->short_cls);
		h = c->data + c->off;
		if (plain) {
			uint32_t hlen = ((uint32_t)h[1] + 1) * 8;

			if (!have(c, hlen))
				return done(v, c->short_cls);
			c->off += hlen;
		} else {
			uint16_t frag = be16_at(h + 2);

			c->off += IPV6_FRAG_HLEN;
			if (frag & 0xfff8) {
				v->l4_proto = h[0];
				return done(v, XSKX_PKT_FRAGMENT);
			}
			v->first_fragment = frag & 1;
		}
		v->l4_proto = h[0];
	}
}

enum xskx_pkt_class xskx__pkt_parse_span(const uint8_t *data, uint32_t len,
					 uint32_t span,
					 struct xskx_pkt_view *view)
{
	struct cursor c = { .data = data, .len = len, .span = span,
			    .off = XSKX_ETH_HLEN,
			    .short_cls = XSKX_PKT_TRUNCATED };

	memset(view, 0, sizeof(*view));
	if (!data || len < XSKX_ETH_HLEN || span < len)
		return done(view, XSKX_PKT_TRUNCATED);
	/* Offsets are 16-bit; nothing the parser looks at lies further. */
	if (c.len > UINT16_MAX)
		c.len = UINT16_MAX;
	if (c.span > UINT16_MAX)
		c.span = UINT16_MAX;
	view->ethertype = be16_at(data + 12);
	while (view->ethertype == ETH_P_8021Q ||
	       view->ethertype == ETH_P_8021AD) {
		if (view->vlans == XSKX_MAX_VLANS)
			return done(view, XSKX_PKT_NOT_IP);
		if (!have(&c, XSKX_VLAN_HLEN))
			return done(view, XSKX_PKT_TRUNCATED);
		view->ethertype = be16_at(data + c.off + 2);
		view->vlans++;
		c.off += XSKX_VLAN_HLEN;
	}
	view->l3_off = (uint16_t)c.off;
	switch (view->ethertype) {
	case ETH_P_IPV4:
		return parse_ipv4(&c, view);
	case ETH_P_IPV6:
		return parse_ipv6(&c, view);
	default:
		view->l3_off = 0;
		return done(view, XSKX_PKT_NOT_IP);
	}
}

XSKX_API enum xskx_pkt_class xskx_pkt_parse(const uint8_t *data, uint32_t len,
					    struct xskx_pkt_view *view)
{
	return xskx__pkt_parse_span(data, len, len, view);
}

XSKX_API enum xskx_pkt_class xskx_pkt_parse_chain(const struct xskx_pkt *pkts,
						  uint32_t frags,
						  struct xskx_pkt_view *view)
{
	uint32_t span = 0;

	if (!pkts || !frags)
		return xskx__pkt_parse_span(NULL, 0, 0, view);
	for (uint32_t i = 0; i < frags; i++)
		span += pkts[i].len;
	return xskx__pkt_parse_span(pkts[0].data, pkts[0].len, span, view);
}
