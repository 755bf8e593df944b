// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_pkt_parse() on crafted frames: what it finds in well-formed ones, the
 * class it gives each malformed kind, and that it reads nothing past len —
 * every frame is also parsed cut short at each length, from a heap buffer of
 * exactly that size, so that AddressSanitizer catches any read beyond it.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "frames.h"
#include "helpers.h"

static uint8_t frame[FRAME_MAX];

static enum xskx_pkt_class parse_exact(const uint8_t *data, uint32_t len,
				       struct xskx_pkt_view *v)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum xskx_pkt_class cls;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, len);
	cls = xskx_pkt_parse(copy, len, v);
	/* The view points into the frame: rebase it before freeing. */
	if (v->src) {
		v->src = data + (v->src - copy);
		v->dst = data + (v->dst - copy);
	}
	free(copy);
	return cls;
}

/* Every cut of a frame that ends with its last header is TRUNCATED. */
static void assert_every_cut_truncated(uint32_t len)
{
	struct xskx_pkt_view v;

	for (uint32_t cut = 0; cut < len; cut++)
		ck_assert_msg(parse_exact(frame, cut, &v) == XSKX_PKT_TRUNCATED,
			      "cut at %u of %u: class %d", cut, len, v.cls);
}

static const uint8_t addr4_src[4] = { 192, 0, 2, 1 };
static const uint8_t addr4_dst[4] = { 198, 51, 100, 7 };

START_TEST(udp4)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 1234, 53));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_int_eq(v.cls, XSKX_PKT_L4);
	ck_assert_uint_eq(v.ethertype, ETHERTYPE_IPV4);
	ck_assert_uint_eq(v.vlans, 0);
	ck_assert_uint_eq(v.family, AF_INET);
	ck_assert_uint_eq(v.l3_off, 14);
	ck_assert_uint_eq(v.l4_off, 34);
	ck_assert_uint_eq(v.l4_proto, IPPROTO_UDP);
	ck_assert(!v.first_fragment);
	ck_assert_mem_eq(v.src, addr4_src, 4);
	ck_assert_mem_eq(v.dst, addr4_dst, 4);
	ck_assert_uint_eq(v.sport, 1234);
	ck_assert_uint_eq(v.dport, 53);
	assert_every_cut_truncated(off);
}
END_TEST

START_TEST(tcp4_with_options_both_layers)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_TCP, "192.0.2.1", "198.51.100.7",
			 7, 0);
	off = frame_ip_length(frame, l3, frame_tcp(frame, off, 40000, 443, 8));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.l4_off, 14 + 28);
	ck_assert_uint_eq(v.sport, 40000);
	ck_assert_uint_eq(v.dport, 443);
	assert_every_cut_truncated(off);
}
END_TEST

START_TEST(tcp_data_offset_below_5)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_TCP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, l3, frame_tcp(frame, off, 1, 2, 4));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_MALFORMED);
	/* The addresses are known: the IP header was whole. */
	ck_assert_uint_eq(v.family, AF_INET);
	ck_assert_mem_eq(v.src, addr4_src, 4);
	ck_assert_uint_eq(v.l4_off, 0);
	ck_assert_uint_eq(v.sport, 0);
}
END_TEST

START_TEST(truncated_l4_keeps_addresses)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_TCP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	frame_ip_length(frame, l3, frame_tcp(frame, off, 1, 2, 5));
	ck_assert_int_eq(parse_exact(frame, off + 10, &v), XSKX_PKT_TRUNCATED);
	ck_assert_uint_eq(v.family, AF_INET);
	ck_assert_mem_eq(v.dst, addr4_dst, 4);
	ck_assert_uint_eq(v.l4_proto, IPPROTO_TCP);
	ck_assert_uint_eq(v.l4_off, 0);
	/* Cut inside the IP header: nothing of L3 is known. */
	ck_assert_int_eq(parse_exact(frame, off - 1, &v), XSKX_PKT_TRUNCATED);
	ck_assert_uint_eq(v.family, 0);
	ck_assert_ptr_null(v.src);
}
END_TEST

START_TEST(icmp4_type)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_ICMP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, l3, frame_icmp(frame, off, 8, 8));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.icmp_type, 8);
	ck_assert_uint_eq(v.l4_off, 34);
	ck_assert_uint_eq(v.sport, 0);
	assert_every_cut_truncated(off);
}
END_TEST

START_TEST(ipv4_ihl_below_5_and_bad_version)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4);
	uint32_t off;

	for (uint8_t ihl = 0; ihl < 5; ihl++) {
		off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1",
				 "198.51.100.7", ihl, 0);
		off = frame_ip_length(frame, l3, frame_udp(frame, off, 1, 2));
		ck_assert_int_eq(parse_exact(frame, off, &v),
				 XSKX_PKT_MALFORMED);
		ck_assert_uint_eq(v.family, 0);
		ck_assert_uint_eq(v.l3_off, 14);
	}
	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7", 5,
			 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 1, 2));
	frame[l3] = 0x65; /* version 6 in an IPv4 ethertype */
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_MALFORMED);
}
END_TEST

START_TEST(ipv4_options_past_the_end)
{
	struct xskx_pkt_view v;
	uint32_t off = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4);

	/* IHL 15 (60 bytes) in a frame that ends 30 bytes into it. */
	frame_ipv4(frame, off, IPPROTO_UDP, "192.0.2.1", "198.51.100.7", 15, 0);
	ck_assert_int_eq(parse_exact(frame, off + 30, &v), XSKX_PKT_TRUNCATED);
	ck_assert_uint_eq(v.family, 0);
}
END_TEST

START_TEST(ipv4_fragments)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4);
	uint32_t off;

	/* First fragment: MF, offset 0: the L4 header is there. */
	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7", 5,
			 0x2000);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 7, 8));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert(v.first_fragment);
	ck_assert_uint_eq(v.dport, 8);

	/* Later fragments, with MF or without: no L4 header. */
	for (int mf = 0; mf < 2; mf++) {
		off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1",
				 "198.51.100.7", 5,
				 (uint16_t)((mf ? 0x2000 : 0) | 185));
		off = frame_ip_length(frame, l3, frame_udp(frame, off, 7, 8));
		ck_assert_int_eq(parse_exact(frame, off, &v),
				 XSKX_PKT_FRAGMENT);
		ck_assert(!v.first_fragment);
		ck_assert_uint_eq(v.l4_off, 0);
		ck_assert_uint_eq(v.dport, 0);
		ck_assert_uint_eq(v.l4_proto, IPPROTO_UDP);
		ck_assert_mem_eq(v.src, addr4_src, 4);
	}
	/* DF alone is no fragment. */
	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7", 5,
			 0x4000);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 7, 8));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert(!v.first_fragment);
}
END_TEST

START_TEST(vlan_single_and_double)
{
	const uint16_t one[] = { TPID_8021Q };
	const uint16_t two[] = { TPID_8021AD, TPID_8021Q };
	const uint16_t three[] = { TPID_8021AD, TPID_8021Q, TPID_8021Q };
	struct xskx_pkt_view v;
	uint32_t off;

	off = frame_eth(frame, one, 1, ETHERTYPE_IPV4);
	off = frame_ipv4(frame, off, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, 18, frame_udp(frame, off, 1, 2));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.vlans, 1);
	ck_assert_uint_eq(v.l3_off, 18);
	ck_assert_uint_eq(v.l4_off, 38);
	assert_every_cut_truncated(off);

	off = frame_eth(frame, two, 2, ETHERTYPE_IPV6);
	off = frame_ipv6(frame, off, IPPROTO_UDP, "2001:db8::1", "2001:db8::2");
	off = frame_ip_length(frame, 22, frame_udp(frame, off, 1, 2));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.vlans, 2);
	ck_assert_uint_eq(v.ethertype, ETHERTYPE_IPV6);
	ck_assert_uint_eq(v.l3_off, 22);
	ck_assert_uint_eq(v.l4_off, 62);
	assert_every_cut_truncated(off);

	/* A third tag is more than the parser follows. */
	off = frame_eth(frame, three, 3, ETHERTYPE_IPV4);
	off = frame_ipv4(frame, off, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_NOT_IP);
	ck_assert_uint_eq(v.vlans, 2);
	ck_assert_uint_eq(v.l3_off, 0);
	ck_assert_uint_eq(v.family, 0);
}
END_TEST

START_TEST(not_ip)
{
	struct xskx_pkt_view v;
	uint32_t off = frame_eth(frame, NULL, 0, ETHERTYPE_ARP);

	ck_assert_int_eq(parse_exact(frame, off + 28, &v), XSKX_PKT_NOT_IP);
	ck_assert_uint_eq(v.ethertype, ETHERTYPE_ARP);
	ck_assert_uint_eq(v.l3_off, 0);
	ck_assert_ptr_null(v.src);
	ck_assert_int_eq(parse_exact(frame, 13, &v), XSKX_PKT_TRUNCATED);
	ck_assert_int_eq(xskx_pkt_parse(NULL, 0, &v), XSKX_PKT_TRUNCATED);
}
END_TEST

START_TEST(ipv6_ext_headers)
{
	static const uint8_t dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	struct xskx_pkt_view v;
	uint32_t off = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);

	off = frame_ipv6(frame, off, IPPROTO_HOPOPTS, "2001:db8::1",
			 "2001:db8::2");
	off = frame_ipv6_ext(frame, off, IPPROTO_ROUTING, 0);
	off = frame_ipv6_ext(frame, off, IPPROTO_DSTOPTS, 2);
	off = frame_ipv6_ext(frame, off, IPPROTO_TCP, 1);
	off = frame_ip_length(frame, 14, frame_tcp(frame, off, 5, 6, 5));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.family, AF_INET6);
	ck_assert_uint_eq(v.l4_proto, IPPROTO_TCP);
	ck_assert_uint_eq(v.l4_off, 14 + 40 + 8 + 24 + 16);
	ck_assert_uint_eq(v.dport, 6);
	ck_assert_mem_eq(v.dst, dst6, 16);
	assert_every_cut_truncated(off);
}
END_TEST

START_TEST(ipv6_fragments)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);
	uint32_t off;

	off = frame_ipv6(frame, l3, IPPROTO_FRAGMENT, "2001:db8::1",
			 "2001:db8::2");
	off = frame_ipv6_frag(frame, off, IPPROTO_UDP, 0, 1);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 11, 12));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert(v.first_fragment);
	ck_assert_uint_eq(v.l4_off, 14 + 40 + 8);
	ck_assert_uint_eq(v.sport, 11);
	assert_every_cut_truncated(off);

	off = frame_ipv6(frame, l3, IPPROTO_HOPOPTS, "2001:db8::1",
			 "2001:db8::2");
	off = frame_ipv6_ext(frame, off, IPPROTO_FRAGMENT, 0);
	off = frame_ipv6_frag(frame, off, IPPROTO_UDP, 100, 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 11, 12));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_FRAGMENT);
	ck_assert(!v.first_fragment);
	ck_assert_uint_eq(v.l4_proto, IPPROTO_UDP);
	ck_assert_uint_eq(v.l4_off, 0);
	ck_assert_uint_eq(v.sport, 0);
	ck_assert_ptr_nonnull(v.src);
}
END_TEST

START_TEST(ipv6_too_many_ext_headers)
{
	struct xskx_pkt_view v;
	uint32_t off = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);

	off = frame_ipv6(frame, off, IPPROTO_DSTOPTS, "2001:db8::1",
			 "2001:db8::2");
	for (int i = 0; i < 8; i++)
		off = frame_ipv6_ext(frame, off, IPPROTO_DSTOPTS, 0);
	off = frame_ipv6_ext(frame, off, IPPROTO_UDP, 0);
	off = frame_ip_length(frame, 14, frame_udp(frame, off, 1, 2));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_MALFORMED);
	ck_assert_uint_eq(v.family, AF_INET6);

	/* Eight are followed. */
	off = frame_ipv6(frame, 14, IPPROTO_DSTOPTS, "2001:db8::1",
			 "2001:db8::2");
	for (int i = 0; i < 7; i++)
		off = frame_ipv6_ext(frame, off, IPPROTO_DSTOPTS, 0);
	off = frame_ipv6_ext(frame, off, IPPROTO_UDP, 0);
	off = frame_ip_length(frame, 14, frame_udp(frame, off, 1, 2));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
}
END_TEST

START_TEST(ipv6_icmp_other_protocols_bad_version)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);
	uint32_t off;

	off = frame_ipv6(frame, l3, IPPROTO_ICMPV6, "2001:db8::1",
			 "2001:db8::2");
	off = frame_ip_length(frame, l3, frame_icmp(frame, off, 128, 4));
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.icmp_type, 128);
	assert_every_cut_truncated(off);

	off = frame_ipv6(frame, l3, IPPROTO_GRE, "2001:db8::1", "2001:db8::2");
	frame_ip_length(frame, l3, off + 8);
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_L3);
	ck_assert_uint_eq(v.l4_proto, IPPROTO_GRE);
	ck_assert_uint_eq(v.l4_off, 0);

	frame[l3] = 0x45;
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_MALFORMED);
	ck_assert_uint_eq(v.family, 0);
}
END_TEST

/* The IPv4 total length against the header length and the frame. */
START_TEST(ipv4_total_length)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off, udp;

	udp = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 6, 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, udp, 1, 53));
	/* Below the 24-byte header: malformed, addresses not given. */
	for (uint16_t total = 0; total < 24; total++) {
		frame[l3 + 2] = 0;
		frame[l3 + 3] = (uint8_t)total;
		ck_assert_int_eq(parse_exact(frame, off, &v),
				 XSKX_PKT_MALFORMED);
		ck_assert_uint_eq(v.family, 0);
		ck_assert_uint_eq(v.dport, 0);
	}
	/* Exactly the header, or into the UDP header: no UDP header in the
	 * datagram, though the frame's bytes would make one. */
	for (uint16_t total = 24; total < 32; total++) {
		frame[l3 + 3] = (uint8_t)total;
		ck_assert_int_eq(parse_exact(frame, off, &v),
				 XSKX_PKT_MALFORMED);
		ck_assert_uint_eq(v.family, AF_INET);
		ck_assert_mem_eq(v.src, addr4_src, 4);
		ck_assert_uint_eq(v.dport, 0);
	}
	/* One byte more than the frame holds: truncated, addresses known. */
	frame[l3 + 3] = (uint8_t)(off - l3 + 1);
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_TRUNCATED);
	ck_assert_uint_eq(v.family, AF_INET);
	ck_assert_mem_eq(v.dst, addr4_dst, 4);
	ck_assert_uint_eq(v.l4_off, 0);
	/* The largest total length, in a short frame. */
	frame[l3 + 2] = 0xff;
	frame[l3 + 3] = 0xff;
	ck_assert_int_eq(parse_exact(frame, off, &v), XSKX_PKT_TRUNCATED);
}
END_TEST

/* Bytes after the datagram (Ethernet padding) are not the packet's. */
START_TEST(padding_after_the_datagram)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off;

	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 1, 53));
	memset(frame + off, 0xee, 64 - off);
	ck_assert_int_eq(parse_exact(frame, 64, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.dport, 53);

	/* A TCP header whose options run into the padding: malformed. */
	off = frame_ipv4(frame, l3, IPPROTO_TCP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_tcp(frame, off, 1, 22, 8);
	frame_ip_length(frame, l3, off - 4);
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_MALFORMED);
	ck_assert_uint_eq(v.family, AF_INET);
	ck_assert_uint_eq(v.dport, 0);
}
END_TEST

/* The IPv6 payload length against the frame and the headers it holds. */
START_TEST(ipv6_payload_length)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6), off, ext;

	off = frame_ipv6(frame, l3, IPPROTO_HOPOPTS, "2001:db8::1",
			 "2001:db8::2");
	ext = frame_ipv6_ext(frame, off, IPPROTO_UDP, 1);
	off = frame_ip_length(frame, l3, frame_udp(frame, ext, 1, 53));
	memset(frame + off, 0xee, 8);
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.dport, 53);
	/* Longer than the frame: truncated, addresses known. */
	frame_ip_length(frame, l3, off + 9);
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_TRUNCATED);
	ck_assert_uint_eq(v.family, AF_INET6);
	ck_assert_uint_eq(v.dport, 0);
	/* Ending inside the extension header or the UDP header; 0 (no
	 * jumbogram fits a frame): malformed. */
	for (uint32_t end = ext - 8; end < off; end += 4) {
		frame_ip_length(frame, l3, end);
		ck_assert_int_eq(parse_exact(frame, off + 8, &v),
				 XSKX_PKT_MALFORMED);
		ck_assert_uint_eq(v.family, AF_INET6);
		ck_assert_uint_eq(v.dport, 0);
	}
	frame_ip_length(frame, l3, l3 + 40);
	ck_assert_int_eq(parse_exact(frame, off + 8, &v), XSKX_PKT_MALFORMED);
}
END_TEST

/* A chain: the IP length checked against every fragment's bytes. */
START_TEST(chain_parsed_across_fragments)
{
	struct xskx_pkt_view v;
	uint32_t l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV4), off, cut;
	struct xskx_pkt chain[3];

	off = frame_ipv4(frame, l3, IPPROTO_UDP, "192.0.2.1", "198.51.100.7",
			 5, 0);
	off = frame_ip_length(frame, l3, frame_udp(frame, off, 1234, 53) + 300);
	cut = 14 + 20 + 8 + 1;
	chain[0] = (struct xskx_pkt){ .data = frame, .len = cut,
				      .options = XDP_PKT_CONTD };
	chain[1] = (struct xskx_pkt){ .data = frame + cut, .len = 100,
				      .options = XDP_PKT_CONTD };
	chain[2] = (struct xskx_pkt){ .data = frame + cut + 100,
				      .len = off - cut - 100 };
	ck_assert_int_eq(xskx_pkt_parse_chain(chain, 3, &v), XSKX_PKT_L4);
	ck_assert_uint_eq(v.dport, 53);
	ck_assert_int_eq(xskx_pkt_parse_chain(chain, 2, &v),
			 XSKX_PKT_TRUNCATED);
	ck_assert_mem_eq(v.src, addr4_src, 4);
	ck_assert_int_eq(xskx_pkt_parse(frame, cut, &v), XSKX_PKT_TRUNCATED);
	ck_assert_int_eq(xskx_pkt_parse_chain(chain, 1, &v),
			 XSKX_PKT_TRUNCATED);
	/* The UDP header not in the first fragment. */
	chain[0].len = 14 + 20 + 4;
	chain[1].data = frame + chain[0].len;
	chain[1].len = off - chain[0].len;
	chain[1].options = 0;
	ck_assert_int_eq(xskx_pkt_parse_chain(chain, 2, &v),
			 XSKX_PKT_MALFORMED);
	ck_assert_int_eq(xskx_pkt_parse_chain(NULL, 2, &v), XSKX_PKT_TRUNCATED);
	ck_assert_int_eq(xskx_pkt_parse_chain(chain, 0, &v),
			 XSKX_PKT_TRUNCATED);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("packet");
	const struct {
		const char *name;
		const TTest *test;
	} cases[] = {
		{ "udp4", udp4 },
		{ "tcp4_with_options_both_layers",
		  tcp4_with_options_both_layers },
		{ "tcp_data_offset_below_5", tcp_data_offset_below_5 },
		{ "truncated_l4_keeps_addresses",
		  truncated_l4_keeps_addresses },
		{ "icmp4_type", icmp4_type },
		{ "ipv4_ihl_below_5_and_bad_version",
		  ipv4_ihl_below_5_and_bad_version },
		{ "ipv4_options_past_the_end", ipv4_options_past_the_end },
		{ "ipv4_fragments", ipv4_fragments },
		{ "vlan_single_and_double", vlan_single_and_double },
		{ "not_ip", not_ip },
		{ "ipv6_ext_headers", ipv6_ext_headers },
		{ "ipv6_fragments", ipv6_fragments },
		{ "ipv6_too_many_ext_headers", ipv6_too_many_ext_headers },
		{ "ipv6_icmp_other_protocols_bad_version",
		  ipv6_icmp_other_protocols_bad_version },
		{ "ipv4_total_length", ipv4_total_length },
		{ "padding_after_the_datagram", padding_after_the_datagram },
		{ "ipv6_payload_length", ipv6_payload_length },
		{ "chain_parsed_across_fragments",
		  chain_parsed_across_fragments },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return test_main(s, argc, argv);
}
