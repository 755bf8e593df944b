// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: match a packet against the rule set (first match wins), and pick
 * the rules the XDP program can apply before packets reach user space.
 */
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "rules.h"

/* The first bits bits of a and b agree. */
static bool same_bits(const uint8_t *a, const uint8_t *b, uint32_t bits)
{
	uint32_t bytes = bits / 8, rest = bits % 8;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));

	if (memcmp(a, b, bytes))
		return false;
	return !rest || !((a[bytes] ^ b[bytes]) & mask);
}

static bool prefix_contains(const struct xskx_prefix *p, uint8_t family,
			    const uint8_t *addr)
{
	return p->family == family && same_bits(p->addr, addr, p->len);
}

static bool proto_matches(enum fw_proto proto, const struct xskx_pkt_view *v)
{
	switch (proto) {
	case FW_PROTO_ANY:
		return true;
	case FW_PROTO_TCP:
		return v->l4_proto == IPPROTO_TCP;
	case FW_PROTO_UDP:
		return v->l4_proto == IPPROTO_UDP;
	case FW_PROTO_ICMP:
		return v->l4_proto == (v->family == AF_INET ? IPPROTO_ICMP :
							      IPPROTO_ICMPV6);
	}
	return false;
}

uint8_t fw_ether_family(uint16_t ether_type)
{
	return ether_type == ETH_P_IP ? AF_INET :
	       ether_type == ETH_P_IPV6 ? AF_INET6 : 0;
}

/* A packet that is not IP: only an ether rule of its type matches it. */
static bool rule_matches_not_ip(const struct fw_rule *r,
				const struct xskx_pkt_view *v)
{
	return r->has_ether && r->ether_type == v->ethertype &&
	       !fw_ether_family(r->ether_type);
}

static bool rule_matches(const struct fw_rule *r, const struct xskx_pkt_view *v)
{
	if (r->has_ether && fw_ether_family(r->ether_type) != v->family)
		return false;
	if (r->has_src && !prefix_contains(&r->src, v->family, v->src))
		return false;
	if (r->has_dst && !prefix_contains(&r->dst, v->family, v->dst))
		return false;
	if (r->proto != FW_PROTO_ANY &&
	    (v->cls != XSKX_PKT_L4 || !proto_matches(r->proto, v)))
		return false;
	return !r->has_port ||
	       (v->cls == XSKX_PKT_L4 && v->dport >= r->port_lo &&
		v->dport <= r->port_hi);
}

int fw_rules_match(const struct fw_ruleset *rs, const struct xskx_pkt_view *v)
{
	bool (*matches)(const struct fw_rule *, const struct xskx_pkt_view *);

	if (v->cls == XSKX_PKT_L4 || v->cls == XSKX_PKT_L3)
		matches = rule_matches;
	else if (v->cls == XSKX_PKT_NOT_IP)
		matches = rule_matches_not_ip;
	else
		return -1;
	for (uint32_t i = 0; i < rs->count; i++)
		if (matches(&rs->rules[i], v))
			return (int)i;
	return -1;
}

/* Some address lies in both prefixes: the shorter contains the longer. */
static bool prefixes_overlap(const struct xskx_prefix *a,
			     const struct xskx_prefix *b)
{
	return a->family == b->family &&
	       same_bits(a->addr, b->addr, a->len < b->len ? a->len : b->len);
}

/* The one family a rule's packets can be of, or 0 for either. */
static uint8_t rule_family(const struct fw_rule *r)
{
	return r->has_src ? r->src.family :
	       r->has_dst ? r->dst.family :
	       r->has_ether ? fw_ether_family(r->ether_type) : 0;
}

/* Some packet matches both earlier and the deny-by-prefix rule r. */
static bool could_match_same_packet(const struct fw_rule *earlier,
				    const struct fw_rule *r)
{
	const struct xskx_prefix *mine = r->has_src ? &r->src : &r->dst;
	const struct xskx_prefix *theirs =
		r->has_src ? (earlier->has_src ? &earlier->src : NULL) :
			     (earlier->has_dst ? &earlier->dst : NULL);
	uint8_t family = rule_family(earlier);

	/* An ether rule of a type that is not IP never meets an IP packet. */
	if (earlier->has_ether && !fw_ether_family(earlier->ether_type))
		return false;
	if (family && family != mine->family)
		return false;
	return !theirs || prefixes_overlap(theirs, mine);
}

static bool pure_deny_by_prefix(const struct fw_rule *r)
{
	/* ether ipv4/ipv6 beside a prefix says its family again (parser). */
	return r->action == FW_DENY && r->has_src != r->has_dst &&
	       r->proto == FW_PROTO_ANY && !r->has_port;
}

/* Every packet of r's prefix is one of earlier's (same field, shorter or equal). */
static bool prefix_covers(const struct fw_rule *earlier, const struct fw_rule *r)
{
	const struct xskx_prefix *pe = earlier->has_src ? &earlier->src :
							  &earlier->dst;
	const struct xskx_prefix *pr = r->has_src ? &r->src : &r->dst;

	return earlier->has_src == r->has_src && pe->len <= pr->len &&
	       prefixes_overlap(pe, pr);
}

/* Rule j denies by a prefix that an earlier stage-1 rule covers. */
static bool never_matches(const struct fw_ruleset *rs, uint32_t j)
{
	if (!pure_deny_by_prefix(&rs->rules[j]) || rs->rules[j].in_xdp)
		return false;
	for (uint32_t k = 0; k < j; k++)
		if (rs->rules[k].in_xdp &&
		    prefix_covers(&rs->rules[k], &rs->rules[j]))
			return true;
	return false;
}

/*
 * Whether the deny-by-prefix rule r can go to stage 1 with its own line
 * counting what it drops there. The XDP program drops a packet on the
 * longest source and the longest destination entry it falls in, and counts
 * it for the lower rule id of the two (ids follow the file's order).
 * That is the first match exactly when every earlier rule that could match
 * one of r's packets is itself a stage-1 entry that does not cover r:
 *   - an earlier allow would let the packet through: r stays in user space;
 *   - an earlier stage-1 entry of the same field with a longer prefix is
 *     found by the longest-prefix lookup first; one of the other field
 *     has the lower id; either is credited, as first match says;
 *   - an earlier stage-1 entry of the same field covering r's prefix
 *     matches all of r's packets first: r can never match, and the
 *     program already drops them; r is left out (each prefix once, too),
 *     and is no conflict for the rules after it;
 *   - any other earlier deny (a proto, a port, two prefixes, a prefix
 *     rule kept in user space) decides some of r's packets by itself, and
 *     the program cannot tell which: r stays in user space, so that the
 *     packets reach the rule that matches them first.
 */
static bool stage1_keeps_first_match(const struct fw_ruleset *rs, uint32_t r)
{
	const struct fw_rule *rule = &rs->rules[r];

	for (uint32_t j = 0; j < r; j++) {
		const struct fw_rule *e = &rs->rules[j];

		if (!could_match_same_packet(e, rule) || never_matches(rs, j))
			continue;
		if (e->action == FW_ALLOW || !e->in_xdp ||
		    prefix_covers(e, rule))
			return false;
	}
	return true;
}

/*
 * Stage 1 drops a packet before any rule before it is consulted: a rule
 * goes there when it denies by one prefix alone (src or dst, any protocol,
 * no port) and stage1_keeps_first_match() says its packets are the ones
 * first match gives it.
 *
 * Every rule stays in the user-space list too: a packet the XDP program
 * does not inspect (a VLAN tag it does not follow, say) still meets it
 * there, in order, with the same verdict.
 *
 * The XDP program reads addresses of packets user space calls
 * unclassifiable (fragments after the first, a cut-short TCP header): it
 * drops those of a denied prefix rather than apply the default. Their
 * datagram's classifiable part meets the same rule and is denied anyway.
 */
uint32_t fw_rules_split(struct fw_ruleset *rs,
			struct xskx_filter_entry *entries)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rs->count; i++) {
		struct fw_rule *r = &rs->rules[i];

		r->in_xdp = false;
		if (!pure_deny_by_prefix(r) || !stage1_keeps_first_match(rs, i))
			continue;
		r->in_xdp = true;
		entries[n++] = (struct xskx_filter_entry){
			.field = r->has_src ? XSKX_FILTER_SRC : XSKX_FILTER_DST,
			.prefix = r->has_src ? r->src : r->dst,
			.rule_id = rs->id_base + i,
		};
	}
	return n;
}
