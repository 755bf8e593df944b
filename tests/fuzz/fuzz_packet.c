// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_pkt_parse() on any bytes: never reads past len (ASan: the input is
 * a heap block of exactly len bytes), and the view it gives is consistent:
 * the class returned is the one stored, the addresses and headers it points
 * at lie inside the frame, fields it did not reach are zero, and parsing is
 * a function of the frame alone. Bytes past a complete IP datagram
 * (link-layer padding) change nothing: a classified frame parses the same
 * with 1 to 64 bytes of padding appended.
 */
#include <netinet/in.h>
#include <sys/socket.h>
#include <xskx/packet.h>

#include "fuzz.h"

static void check_view(const uint8_t *data, uint32_t len,
		       enum xskx_pkt_class cls, const struct xskx_pkt_view *v)
{
	FUZZ_CHECK(cls == v->cls, "returned %d, stored %d", cls, v->cls);
	FUZZ_CHECK(cls <= XSKX_PKT_MALFORMED, "class %d", cls);
	FUZZ_CHECK(v->vlans <= 2, "%u VLAN tags", v->vlans);
	if (v->family) {
		uint32_t alen = v->family == AF_INET ? 4 : 16;

		FUZZ_CHECK(v->family == AF_INET || v->family == AF_INET6,
			   "family %u", v->family);
		FUZZ_CHECK(v->l3_off >= 14 && v->l3_off < len,
			   "l3_off %u, len %u", v->l3_off, len);
		FUZZ_CHECK(v->src && v->src >= data && v->src + alen <= data + len,
			   "src outside the frame");
		FUZZ_CHECK(v->dst && v->dst >= data && v->dst + alen <= data + len,
			   "dst outside the frame");
	} else {
		FUZZ_CHECK(!v->src && !v->dst, "addresses without a family");
	}
	if (cls == XSKX_PKT_L4) {
		FUZZ_CHECK(v->family, "L4 without an IP header");
		FUZZ_CHECK(v->l4_off > v->l3_off && v->l4_off + 4u <= len,
			   "l4_off %u, l3_off %u, len %u", v->l4_off, v->l3_off,
			   len);
		FUZZ_CHECK(v->l4_proto == IPPROTO_TCP ||
				   v->l4_proto == IPPROTO_UDP ||
				   v->l4_proto == IPPROTO_ICMP ||
				   v->l4_proto == IPPROTO_ICMPV6,
			   "L4 with protocol %u", v->l4_proto);
	} else {
		FUZZ_CHECK(!v->l4_off && !v->sport && !v->dport &&
				   !v->icmp_type,
			   "L4 fields set in class %d", cls);
	}
	if (cls == XSKX_PKT_L3 || cls == XSKX_PKT_FRAGMENT)
		FUZZ_CHECK(v->family, "class %d without an IP header", cls);
}

/* Two views of equal frames at different places are equal. */
static void check_same(const struct xskx_pkt_view *a, const uint8_t *a_data,
		       const struct xskx_pkt_view *b, const uint8_t *b_data,
		       const char *what)
{
	FUZZ_CHECK(a->cls == b->cls && a->ethertype == b->ethertype &&
			   a->vlans == b->vlans && a->family == b->family &&
			   a->l3_off == b->l3_off && a->l4_off == b->l4_off &&
			   a->l4_proto == b->l4_proto &&
			   a->first_fragment == b->first_fragment &&
			   a->sport == b->sport && a->dport == b->dport &&
			   a->icmp_type == b->icmp_type,
		   "%s: class %d vs %d", what, a->cls, b->cls);
	FUZZ_CHECK((!a->src && !b->src) ||
			   (a->src - a_data == b->src - b_data &&
			    a->dst - a_data == b->dst - b_data),
		   "%s: addresses at other offsets", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xskx_pkt_view v, again;
	uint32_t len = size > 65535 ? 65535 : (uint32_t)size;
	enum xskx_pkt_class cls;

	memset(&v, 0xa5, sizeof(v));
	cls = xskx_pkt_parse(data, len, &v);
	check_view(data, len, cls, &v);

	memset(&again, 0x5a, sizeof(again));
	xskx_pkt_parse(data, len, &again);
	check_same(&v, data, &again, data, "parsed twice");

	if (cls != XSKX_PKT_TRUNCATED && len) {
		uint32_t pad = 1 + data[len - 1] % 64;
		uint8_t *padded = malloc(len + pad);
		struct xskx_pkt_view p;
		enum xskx_pkt_class pcls;

		if (!padded)
			return 0;
		memcpy(padded, data, len);
		memset(padded + len, data[0], pad);
		pcls = xskx_pkt_parse(padded, len + pad, &p);
		check_view(padded, len + pad, pcls, &p);
		check_same(&v, data, &p, padded, "with padding");
		free(padded);
	}
	return 0;
}
