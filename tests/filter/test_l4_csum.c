// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_pkt_csum_partial() and xskx_pkt_csum_complete() on crafted frames:
 * a partial checksum (the pseudo-header's sum, as a local stack leaves it
 * for the device) is completed to what a byte-by-byte reference computes,
 * for TCP and UDP over IPv4 and IPv6, behind VLAN tags and IPv6 extension
 * headers, at every payload length from 0 to 64; a complete checksum is
 * left alone; fragments, a routing header with segments left, a UDP length
 * that disagrees and every truncation are refused. Every call reads from
 * heap copies of exactly the packet's bytes (AddressSanitizer), and a
 * chain split at every offset completes as the whole packet does.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "frames.h"
#include "helpers.h"
#include "inet_csum.h"

static uint8_t frame[FRAME_MAX];

/* The packet's shape, enough for the reference sum. */
struct shape {
	uint32_t l3, l4, end; /* offsets: IP header, L4 header, datagram end */
	uint8_t proto;
	int family;
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t csum_field(const struct shape *s)
{
	return s->l4 + (s->proto == IPPROTO_TCP ? 16 : 6);
}

static uint16_t pseudo_sum(const uint8_t *b, const struct shape *s)
{
	uint32_t alen = s->family == AF_INET ? 4 : 16;
	uint32_t src = s->l3 + (s->family == AF_INET ? 12 : 8);
	uint32_t acc = inet_csum_add(0, b + src, 2 * alen);

	return inet_csum_fold(acc + s->proto + (s->end - s->l4));
}

/* The complete checksum the receiver expects, field taken as zero. */
static uint16_t reference_csum(const uint8_t *b, const struct shape *s)
{
	uint8_t seg[FRAME_MAX];
	uint32_t n = s->end - s->l4;
	uint16_t c;

	memcpy(seg, b + s->l4, n);
	put16(seg + csum_field(s) - s->l4, 0);
	c = (uint16_t)~inet_csum_fold(inet_csum_add(pseudo_sum(b, s), seg, n));
	return s->proto == IPPROTO_UDP && !c ? 0xffff : c;
}

/* What the receiver checks: the whole segment plus pseudo-header. */
static bool verifies(const uint8_t *b, const struct shape *s)
{
	return inet_csum_fold(inet_csum_add(pseudo_sum(b, s), b + s->l4,
				s->end - s->l4)) == 0xffff;
}

static const uint16_t qinq[2] = { TPID_8021AD, TPID_8021Q };

/*
 * A TCP or UDP packet with payload bytes i * 7 + seed, behind ntags tags,
 * over IPv4 or IPv6 (with a hop-by-hop and a destination options header
 * when ext6). Its checksum field left zero; lengths set.
 */
static struct shape build(int family, uint8_t proto, int ntags, bool ext6,
			  uint32_t payload, uint8_t seed)
{
	struct shape s = { .proto = proto, .family = family };
	uint32_t off;

	s.l3 = frame_eth(frame, qinq, ntags,
			 family == AF_INET ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
	if (family == AF_INET) {
		off = frame_ipv4(frame, s.l3, proto, "192.0.2.1",
				 "203.0.113.9", 5, 0x4000 /* DF */);
	} else if (ext6) {
		off = frame_ipv6(frame, s.l3, IPPROTO_HOPOPTS, "2001:db8::1",
				 "2001:db8:ff::2");
		off = frame_ipv6_ext(frame, off, IPPROTO_DSTOPTS, 0);
		off = frame_ipv6_ext(frame, off, proto, 1);
	} else {
		off = frame_ipv6(frame, s.l3, proto, "2001:db8::1",
				 "2001:db8:ff::2");
	}
	s.l4 = off;
	off = proto == IPPROTO_TCP ? frame_tcp(frame, off, 40000, 5201, 5) :
				     frame_udp(frame, off, 40000, 5201);
	for (uint32_t i = 0; i < payload; i++)
		frame[off + i] = (uint8_t)(i * 7 + seed);
	s.end = frame_ip_length(frame, s.l3, off + payload);
	if (proto == IPPROTO_UDP)
		put16(frame + s.l4 + 4, (uint16_t)(s.end - s.l4));
	return s;
}

static void make_partial(const struct shape *s)
{
	put16(frame + csum_field(s), pseudo_sum(frame, s));
}

/* The packet's len bytes as fragments of the given sizes, each on the heap. */
struct chain {
	struct xskx_pkt pkts[4];
	uint32_t frags;
};

static void chain_make(struct chain *c, const uint8_t *b, uint32_t len,
		       const uint32_t *cuts, uint32_t ncuts)
{
	uint32_t from = 0;

	c->frags = ncuts + 1;
	for (uint32_t i = 0; i < c->frags; i++) {
		uint32_t to = i < ncuts ? cuts[i] : len;

		c->pkts[i] = (struct xskx_pkt){
			.len = to - from,
			.options = i < ncuts ? XDP_PKT_CONTD : 0,
			.data = malloc(to - from ? to - from : 1),
		};
		ck_assert_ptr_nonnull(c->pkts[i].data);
		memcpy(c->pkts[i].data, b + from, to - from);
		from = to;
	}
}

/* Copy the chain's bytes back into b and free it. */
static void chain_take(struct chain *c, uint8_t *b)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < c->frags; i++) {
		memcpy(b + off, c->pkts[i].data, c->pkts[i].len);
		off += c->pkts[i].len;
		free(c->pkts[i].data);
	}
}

/* xskx_pkt_csum_complete() on an exact heap copy of b[0..len). */
static int complete_exact(uint8_t *b, uint32_t len)
{
	struct chain c;
	int r;

	chain_make(&c, b, len, NULL, 0);
	r = xskx_pkt_csum_complete(c.pkts, 1);
	chain_take(&c, b);
	return r;
}

static int partial_exact(const uint8_t *b, uint32_t len,
			 struct xskx_pkt_csum *where)
{
	uint8_t copy[FRAME_MAX];
	struct chain c;
	int r;

	chain_make(&c, b, len, NULL, 0);
	r = xskx_pkt_csum_partial(c.pkts, 1, where);
	chain_take(&c, copy);
	return r;
}

/* Partial -> completed to the reference; complete -> left alone. */
static void check_both_ways(const struct shape *s, uint32_t len)
{
	uint8_t before[FRAME_MAX];
	struct xskx_pkt_csum where;
	uint16_t want;

	make_partial(s);
	want = reference_csum(frame, s);
	ck_assert_int_eq(partial_exact(frame, len, &where), 1);
	ck_assert_uint_eq(where.start, s->l4);
	ck_assert_uint_eq(where.offset, csum_field(s) - s->l4);
	memcpy(before, frame, len);
	ck_assert_int_eq(complete_exact(frame, len), 1);
	ck_assert_msg(get16(frame + csum_field(s)) == want,
		      "proto %u family %d len %u: 0x%04x, want 0x%04x",
		      s->proto, s->family, len, get16(frame + csum_field(s)),
		      want);
	ck_assert(verifies(frame, s));
	/* Only the two bytes of the field changed. */
	put16(before + csum_field(s), want);
	ck_assert_mem_eq(before, frame, len);
	/* Now complete: nothing to do, nothing touched. */
	ck_assert_int_eq(partial_exact(frame, len, NULL), 0);
	ck_assert_int_eq(complete_exact(frame, len), 0);
	ck_assert_mem_eq(before, frame, len);
}

START_TEST(every_kind_every_length)
{
	static const uint8_t protos[2] = { IPPROTO_TCP, IPPROTO_UDP };
	static const int families[2] = { AF_INET, AF_INET6 };

	for (int f = 0; f < 2; f++)
		for (int p = 0; p < 2; p++)
			for (int tags = 0; tags <= 2; tags++)
				for (uint32_t pay = 0; pay <= 64; pay++) {
					struct shape s = build(
						families[f], protos[p], tags,
						families[f] == AF_INET6 &&
							tags == 1,
						pay, (uint8_t)(pay + tags));

					check_both_ways(&s, s.end);
				}
}
END_TEST

/* A UDP checksum computing to 0 goes out as 0xffff (0 means "none"). */
START_TEST(udp_zero_becomes_ffff)
{
	for (int f = 0; f < 2; f++) {
		struct shape s = build(f ? AF_INET6 : AF_INET, IPPROTO_UDP, 0,
				       false, 10, 3);
		uint8_t *last = frame + s.end - 2;
		uint32_t acc;

		/* Choose the last payload word so that the sum is all ones. */
		put16(last, 0);
		put16(frame + csum_field(&s), 0);
		acc = inet_csum_add(pseudo_sum(frame, &s), frame + s.l4,
				s.end - s.l4);
		put16(last, (uint16_t)~inet_csum_fold(acc));
		make_partial(&s);
		ck_assert_int_eq(complete_exact(frame, s.end), 1);
		ck_assert_uint_eq(get16(frame + csum_field(&s)), 0xffff);
		ck_assert(verifies(frame, &s));
	}
}
END_TEST

/*
 * A complete checksum that equals the pseudo-header's sum looks partial:
 * "completing" it writes the same value, the packet stays correct.
 */
START_TEST(complete_equal_to_pseudo_sum_stays)
{
	struct shape s = build(AF_INET, IPPROTO_TCP, 0, false, 20, 9);
	uint8_t *last = frame + s.end - 2;
	uint8_t before[FRAME_MAX];
	uint16_t p = pseudo_sum(frame, &s);
	uint32_t acc;

	put16(last, 0);
	put16(frame + csum_field(&s), p);
	/* Make the segment with the field = p sum to all ones with p: correct. */
	acc = inet_csum_add(p, frame + s.l4, s.end - s.l4);
	put16(last, (uint16_t)~inet_csum_fold(acc));
	ck_assert(verifies(frame, &s));
	memcpy(before, frame, s.end);
	ck_assert_int_eq(complete_exact(frame, s.end), 1);
	ck_assert(verifies(frame, &s));
	ck_assert_mem_eq(before, frame, s.end);
}
END_TEST

START_TEST(padding_is_not_summed)
{
	struct shape s = build(AF_INET, IPPROTO_UDP, 0, false, 5, 1);
	uint32_t len = 60 + 8; /* past the 47-byte datagram */

	memset(frame + s.end, 0xee, len - s.end);
	make_partial(&s);
	ck_assert_int_eq(complete_exact(frame, len), 1);
	ck_assert(verifies(frame, &s));
}
END_TEST

START_TEST(refused_kinds)
{
	struct shape s;

	/* IPv4 first fragment (MF) and a later one. */
	s = build(AF_INET, IPPROTO_UDP, 0, false, 16, 2);
	put16(frame + s.l3 + 6, 0x2000);
	make_partial(&s);
	ck_assert_int_eq(complete_exact(frame, s.end), 0);
	put16(frame + s.l3 + 6, 0x0004);
	ck_assert_int_eq(complete_exact(frame, s.end), 0);
	/* UDP whose length field is not the datagram's. */
	s = build(AF_INET, IPPROTO_UDP, 0, false, 16, 2);
	put16(frame + s.l4 + 4, (uint16_t)(s.end - s.l4 - 2));
	make_partial(&s);
	ck_assert_int_eq(complete_exact(frame, s.end), 0);
	/*
	 * ICMP with a pseudo-header sum where UDP and where TCP would have
	 * their checksum.
	 */
	s = build(AF_INET, IPPROTO_UDP, 0, false, 16, 2);
	frame[s.l3 + 9] = IPPROTO_ICMP;
	s.proto = IPPROTO_ICMP;
	make_partial(&s);
	put16(frame + s.l4 + 16, pseudo_sum(frame, &s));
	ck_assert_int_eq(complete_exact(frame, s.end), 0);
	/*
	 * IHL 4: read as IHL 5 the packet would be partial UDP, and read
	 * with a 16-byte header too (its "UDP header" then starts at the
	 * destination address: the real one's ports made to fit).
	 */
	s = build(AF_INET, IPPROTO_UDP, 0, false, 16, 2);
	make_partial(&s);
	{
		struct shape as4 = s;

		as4.l4 = s.l3 + 16;
		frame[s.l4] = (uint8_t)((s.end - as4.l4) >> 8);
		frame[s.l4 + 1] = (uint8_t)(s.end - as4.l4);
		frame[s.l3] = 0x44;
		put16(frame + s.l4 + 2, pseudo_sum(frame, &as4));
	}
	ck_assert_int_eq(complete_exact(frame, s.end), 0);
	frame[s.l3] = 0x45; /* the ports are not in the sum: partial again */
	ck_assert_int_eq(complete_exact(frame, s.end), 1);
	/* IPv6 first fragment (offset 0, more fragments) behind hop-by-hop. */
	{
		uint32_t off;

		s = (struct shape){ .proto = IPPROTO_UDP, .family = AF_INET6 };
		s.l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);
		off = frame_ipv6(frame, s.l3, IPPROTO_HOPOPTS, "2001:db8::1",
				 "2001:db8::2");
		off = frame_ipv6_ext(frame, off, IPPROTO_FRAGMENT, 0);
		off = frame_ipv6_frag(frame, off, IPPROTO_UDP, 0, 1);
		s.l4 = off;
		s.end = frame_ip_length(frame, s.l3,
					frame_udp(frame, off, 1, 2) + 6);
		put16(frame + s.l4 + 4, (uint16_t)(s.end - s.l4));
		make_partial(&s);
		ck_assert_int_eq(complete_exact(frame, s.end), 0);
		/* Offset 0 and no more fragments: whole, completed. */
		frame[s.l4 - 8 + 3] = 0;
		ck_assert_int_eq(complete_exact(frame, s.end), 1);
		ck_assert(verifies(frame, &s));
	}
	/* Three VLAN tags: more than the packet view follows. */
	{
		static const uint16_t three[3] = { TPID_8021AD, TPID_8021Q,
						   TPID_8021Q };

		s = build(AF_INET, IPPROTO_UDP, 0, false, 16, 2);
		s.l3 = frame_eth(frame, three, 3, ETHERTYPE_IPV4);
		frame_ipv4(frame, s.l3, IPPROTO_UDP, "192.0.2.1",
			   "203.0.113.9", 5, 0x4000);
		s.l4 = s.l3 + 20;
		frame_udp(frame, s.l4, 40000, 5201);
		s.end = frame_ip_length(frame, s.l3, s.l4 + 8 + 16);
		put16(frame + s.l4 + 4, (uint16_t)(s.end - s.l4));
		make_partial(&s);
		ck_assert_int_eq(complete_exact(frame, s.end), 0);
	}
	/* Not IP at all. */
	frame_eth(frame, NULL, 0, ETHERTYPE_ARP);
	ck_assert_int_eq(complete_exact(frame, 60), 0);
}
END_TEST

/*
 * IPv6 routing header: with no segments left the destination is final and
 * the checksum is completed; with segments left it is not recognised.
 */
START_TEST(ipv6_routing_header)
{
	for (uint8_t left = 0; left <= 1; left++) {
		struct shape s = { .proto = IPPROTO_UDP, .family = AF_INET6 };
		uint32_t off;

		s.l3 = frame_eth(frame, NULL, 0, ETHERTYPE_IPV6);
		off = frame_ipv6(frame, s.l3, IPPROTO_ROUTING, "2001:db8::1",
				 "2001:db8::2");
		off = frame_ipv6_ext(frame, off, IPPROTO_UDP, 0);
		frame[off - 8 + 3] = left;
		s.l4 = off;
		off = frame_udp(frame, off, 1, 2);
		s.end = frame_ip_length(frame, s.l3, off + 9);
		put16(frame + s.l4 + 4, (uint16_t)(s.end - s.l4));
		make_partial(&s);
		ck_assert_int_eq(complete_exact(frame, s.end), left ? 0 : 1);
		if (!left)
			ck_assert(verifies(frame, &s));
	}
}
END_TEST

/*
 * Cut short anywhere, a partial packet of either family is refused;
 * nothing read past len (ASan sees every byte past the exact copy).
 */
START_TEST(every_cut_refused)
{
	const int families[] = { AF_INET, AF_INET6 };

	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		struct shape s = build(families[f], IPPROTO_TCP, 2, true, 13, 5);

		make_partial(&s);
		for (uint32_t cut = 0; cut < s.end; cut++)
			ck_assert_msg(partial_exact(frame, cut, NULL) == 0,
				      "family %d: cut at %u of %u",
				      families[f], cut, s.end);
		ck_assert_int_eq(partial_exact(frame, s.end, NULL), 1);
	}
}
END_TEST

/* A chain cut anywhere (odd cuts included) completes as the whole does. */
START_TEST(chains_complete_like_the_whole)
{
	struct shape s = build(AF_INET, IPPROTO_TCP, 1, false, 300, 11);
	uint8_t whole[FRAME_MAX];
	uint16_t want;

	make_partial(&s);
	want = reference_csum(frame, &s);
	memcpy(whole, frame, s.end);
	/* The headers are in the first fragment: cut after them. */
	for (uint32_t a = s.l4 + 20; a < s.end; a++) {
		uint32_t cuts[2] = { a, a + (s.end - a) / 2 };
		uint32_t ncuts = cuts[1] > a ? 2 : 1;
		struct chain c;

		memcpy(frame, whole, s.end);
		chain_make(&c, frame, s.end, cuts, ncuts);
		ck_assert_int_eq(xskx_pkt_csum_complete(c.pkts, c.frags), 1);
		chain_take(&c, frame);
		ck_assert_msg(get16(frame + csum_field(&s)) == want,
			      "cut at %u: 0x%04x, want 0x%04x", a,
			      get16(frame + csum_field(&s)), want);
	}
	/* A chain missing its tail is truncated: refused. */
	memcpy(frame, whole, s.end);
	{
		uint32_t cut = s.l4 + 40;
		struct chain c;

		chain_make(&c, frame, s.end, &cut, 1);
		ck_assert_int_eq(xskx_pkt_csum_complete(c.pkts, 1), 0);
		chain_take(&c, frame);
	}
	/* TCP options past the first fragment: not recognised. */
	{
		uint32_t cut = s.l4 + 24;
		struct chain c;

		frame[s.l4 + 12] = 8 << 4;
		make_partial(&s);
		chain_make(&c, frame, s.end, &cut, 1);
		ck_assert_int_eq(xskx_pkt_csum_complete(c.pkts, 2), 0);
		chain_take(&c, frame);
		cut = s.l4 + 32;
		chain_make(&c, frame, s.end, &cut, 1);
		ck_assert_int_eq(xskx_pkt_csum_complete(c.pkts, 2), 1);
		chain_take(&c, frame);
		ck_assert(verifies(frame, &s));
		memcpy(frame, whole, s.end);
	}
	/* Headers split over two fragments: not recognised. */
	{
		uint32_t cut = s.l4 + 10;
		struct chain c;

		chain_make(&c, frame, s.end, &cut, 1);
		ck_assert_int_eq(xskx_pkt_csum_complete(c.pkts, 2), 0);
		chain_take(&c, frame);
	}
}
END_TEST

START_TEST(bad_arguments)
{
	struct xskx_pkt none = { .len = 10 };

	ck_assert_int_eq(xskx_pkt_csum_complete(NULL, 1), -EINVAL);
	ck_assert_int_eq(xskx_pkt_csum_partial(&none, 0, NULL), -EINVAL);
	ck_assert_int_eq(xskx_pkt_csum_partial(&none, 1, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "xskx_pkt_csum"));
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("l4_csum");
	const struct {
		const char *name;
		const TTest *test;
	} cases[] = {
		{ "every_kind_every_length", every_kind_every_length },
		{ "udp_zero_becomes_ffff", udp_zero_becomes_ffff },
		{ "complete_equal_to_pseudo_sum_stays",
		  complete_equal_to_pseudo_sum_stays },
		{ "padding_is_not_summed", padding_is_not_summed },
		{ "refused_kinds", refused_kinds },
		{ "ipv6_routing_header", ipv6_routing_header },
		{ "every_cut_refused", every_cut_refused },
		{ "chains_complete_like_the_whole",
		  chains_complete_like_the_whole },
		{ "bad_arguments", bad_arguments },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return test_main(s, argc, argv);
}
