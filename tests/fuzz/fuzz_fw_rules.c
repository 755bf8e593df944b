// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw's rule file parser (examples/xskx-fw/rules_parse.c) on any text.
 * fw_rules_parse() returns 0 with a rule set and no error, or -EINVAL with
 * at least one error (each with its text ended) and no rule set; never half
 * of each. A rule set that parses:
 *   - holds well-formed rules (prefixes, one family, port only with tcp or
 *     udp, lo <= hi, lines in order);
 *   - formats back to a file (fw_rule_format, one line a rule, and its
 *     default) that parses to the same rules;
 *   - splits (fw_rules_split) into at most one entry per rule, each a
 *     stage-1 rule's own prefix and id, no field and prefix twice;
 *   - matches (fw_rules_match) packets built from each rule, inside and
 *     just outside its prefixes and ports: a packet made to fit rule i
 *     matches rule i or an earlier one, and a packet that the stage-1 deny
 *     list would drop (longest prefix per field, the lower rule id of the
 *     two) is one whose first matching rule is that very deny rule.
 */
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "rules.h"

static void check_prefix(const struct xskx_prefix *p, uint32_t line)
{
	char text[64];

	FUZZ_CHECK(xskx_prefix_format(p, text, sizeof(text)) > 0,
		   "line %u: a malformed prefix", line);
}

static void check_rules(const struct fw_ruleset *rs)
{
	uint32_t prev_line = 0;

	FUZZ_CHECK(rs->count <= FW_MAX_RULES, "%u rules", rs->count);
	FUZZ_CHECK(rs->default_action == FW_ALLOW ||
			   rs->default_action == FW_DENY,
		   "default %d", rs->default_action);
	for (uint32_t i = 0; i < rs->count; i++) {
		const struct fw_rule *r = &rs->rules[i];

		FUZZ_CHECK(r->line > prev_line, "rule %u on line %u after %u",
			   i, r->line, prev_line);
		prev_line = r->line;
		FUZZ_CHECK(r->action == FW_ALLOW || r->action == FW_DENY,
			   "line %u: action %d", r->line, r->action);
		FUZZ_CHECK(r->proto <= FW_PROTO_ICMP, "line %u: proto %d",
			   r->line, r->proto);
		if (r->has_src)
			check_prefix(&r->src, r->line);
		if (r->has_dst)
			check_prefix(&r->dst, r->line);
		FUZZ_CHECK(!r->has_src || !r->has_dst ||
				   r->src.family == r->dst.family,
			   "line %u: src and dst of two families", r->line);
		FUZZ_CHECK(!r->has_port || ((r->proto == FW_PROTO_TCP ||
					      r->proto == FW_PROTO_UDP) &&
					     r->port_lo <= r->port_hi),
			   "line %u: port %u-%u with proto %d", r->line,
			   r->port_lo, r->port_hi, r->proto);
	}
}

static bool same_rule(const struct fw_rule *a, const struct fw_rule *b)
{
	return a->action == b->action && a->has_src == b->has_src &&
	       a->has_dst == b->has_dst && a->has_port == b->has_port &&
	       (!a->has_src || !memcmp(&a->src, &b->src, sizeof(a->src))) &&
	       (!a->has_dst || !memcmp(&a->dst, &b->dst, sizeof(a->dst))) &&
	       a->proto == b->proto &&
	       (!a->has_port ||
		(a->port_lo == b->port_lo && a->port_hi == b->port_hi));
}

/* The rule set written out canonically parses to the same rules. */
static void check_format_round_trip(const struct fw_ruleset *rs)
{
	size_t size = (size_t)(rs->count + 1) * 200, used = 0;
	char *text = malloc(size);
	struct fw_ruleset *back;
	struct fw_errors errs;
	int err;

	if (!text)
		return;
	for (uint32_t i = 0; i < rs->count; i++) {
		fw_rule_format(&rs->rules[i], text + used, size - used);
		used += strlen(text + used);
		text[used++] = '\n';
	}
	used += (size_t)snprintf(text + used, size - used, "default %s\n",
				 rs->default_action == FW_ALLOW ? "allow" :
								   "deny");
	err = fw_rules_parse(text, used, &back, &errs);
	FUZZ_CHECK(!err, "the formatted rules do not parse (%d, %s):\n%.*s",
		   err, errs.count ? errs.list[0].text : "",
		   (int)used, text);
	FUZZ_CHECK(back->count == rs->count &&
			   back->default_action == rs->default_action,
		   "%u rules formatted, %u parsed back", rs->count,
		   back->count);
	for (uint32_t i = 0; i < rs->count; i++)
		FUZZ_CHECK(same_rule(&rs->rules[i], &back->rules[i]),
			   "rule %u (line %u) parses back otherwise", i,
			   rs->rules[i].line);
	fw_rules_free(back);
	fw_errors_free(&errs);
	free(text);
}

static bool in_prefix(const struct xskx_prefix *p, uint8_t family,
		      const uint8_t *addr)
{
	if (p->family != family)
		return false;
	for (unsigned int bit = 0; bit < p->len; bit++)
		if ((p->addr[bit / 8] ^ addr[bit / 8]) & (0x80 >> (bit % 8)))
			return false;
	return true;
}

/*
 * What the XDP program's deny list does to v: -1 (passes) or the rule id
 * it counts the drop for: per field the longest matching prefix, and of a
 * source and a destination match the lower id (xskx/filter.h).
 */
static int64_t stage1_verdict(const struct xskx_filter_entry *entries,
			      uint32_t n, const struct xskx_pkt_view *v)
{
	int64_t id[2] = { -1, -1 };
	int len[2] = { -1, -1 };

	for (uint32_t i = 0; i < n; i++) {
		const struct xskx_filter_entry *e = &entries[i];
		const uint8_t *addr = e->field == XSKX_FILTER_SRC ? v->src :
								    v->dst;

		if (in_prefix(&e->prefix, v->family, addr) &&
		    (int)e->prefix.len > len[e->field]) {
			len[e->field] = e->prefix.len;
			id[e->field] = e->rule_id;
		}
	}
	if (id[0] < 0 || id[1] < 0)
		return id[0] < 0 ? id[1] : id[0];
	return id[0] < id[1] ? id[0] : id[1];
}

/* An address of p: its network bits, then the host bits all 0 or all 1;
 * outside: the last network bit flipped (the neighbouring prefix). */
static void address_of(const struct xskx_prefix *p, int variant, uint8_t *addr)
{
	memcpy(addr, p->addr, 16);
	if (variant == 1)
		for (unsigned int bit = p->len; bit < 128; bit++)
			addr[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	if (variant == 2 && p->len)
		addr[(p->len - 1) / 8] ^= (uint8_t)(0x80 >> ((p->len - 1) % 8));
}

static uint8_t l4_proto_of(enum fw_proto proto, uint8_t family)
{
	switch (proto) {
	case FW_PROTO_UDP:
		return IPPROTO_UDP;
	case FW_PROTO_ICMP:
		return family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6;
	case FW_PROTO_ANY:
	case FW_PROTO_TCP:
		break;
	}
	return IPPROTO_TCP;
}

/* A packet of a non-IP ether rule's type matches it or an earlier rule. */
static void check_not_ip(const struct fw_ruleset *rs, uint32_t i)
{
	const struct fw_rule *r = &rs->rules[i];
	struct xskx_pkt_view v = { .cls = XSKX_PKT_NOT_IP,
				   .ethertype = r->ether_type };
	int m = fw_rules_match(rs, &v);

	FUZZ_CHECK(m >= 0 && (uint32_t)m <= i,
		   "an EtherType 0x%04x packet of rule %u (line %u) matches %d",
		   r->ether_type, i, r->line, m);
}

static void check_matches(const struct fw_ruleset *rs,
			  const struct xskx_filter_entry *entries, uint32_t n)
{
	static const struct xskx_prefix none4 = { .family = AF_INET, .len = 24,
						  .addr = { 192, 0, 2 } };
	static const struct xskx_prefix none6 = {
		.family = AF_INET6, .len = 32, .addr = { 0x20, 0x01, 0x0d, 0xb8 }
	};

	for (uint32_t i = 0; i < rs->count; i++) {
		const struct fw_rule *r = &rs->rules[i];
		uint8_t family = r->has_src	? r->src.family :
				 r->has_dst	? r->dst.family :
				 r->has_ether	? fw_ether_family(r->ether_type) :
				 i % 2		? AF_INET6 :
						  AF_INET;
		const struct xskx_prefix *none = family == AF_INET ? &none4 :
								     &none6;

		/* Its packets are not IP: the loop below builds IP ones. */
		if (r->has_ether && !family) {
			check_not_ip(rs, i);
			continue;
		}

		for (int variant = 0; variant < 3; variant++) {
			for (int l3 = 0; l3 < 2; l3++) {
				uint8_t src[16], dst[16];
				struct xskx_pkt_view v = {
					.cls = l3 ? XSKX_PKT_L3 : XSKX_PKT_L4,
					.family = family,
					.src = src,
					.dst = dst,
					.l4_proto = l3 ? 47 : l4_proto_of(r->proto, family),
				};
				bool fits = variant < 2 && !l3;
				int m;
				int64_t id;

				address_of(r->has_src ? &r->src : none, variant, src);
				address_of(r->has_dst ? &r->dst : none, variant, dst);
				if (!l3) {
					v.sport = 40000;
					v.dport = !r->has_port ? 80 :
						  variant == 0	 ? r->port_lo :
						  variant == 1	 ? r->port_hi :
						  (uint16_t)(r->port_hi + 1);
				}
				m = fw_rules_match(rs, &v);
				FUZZ_CHECK(m >= -1 && m < (int)rs->count,
					   "match returned %d", m);
				FUZZ_CHECK(!fits || (m >= 0 && (uint32_t)m <= i),
					   "a packet of rule %u (line %u) matches %d",
					   i, r->line, m);
				id = stage1_verdict(entries, n, &v);
				if (id < 0)
					continue;
				FUZZ_CHECK(m >= 0 && id - rs->id_base == (uint32_t)m &&
						   rs->rules[m].action == FW_DENY,
					   "rule %u's packet (variant %d%s): stage 1 drops it for rule %lld, stage 2's first match is %d",
					   i, variant, l3 ? ", L3" : "",
					   (long long)(id - rs->id_base), m);
			}
		}
	}
}

static void check_split(struct fw_ruleset *rs)
{
	/* Exactly the entries the API promises, so ASan sees one more. */
	struct xskx_filter_entry *entries =
		calloc(rs->count ? rs->count : 1, sizeof(*entries));
	uint32_t n;

	if (!entries)
		return;
	n = fw_rules_split(rs, entries);
	FUZZ_CHECK(n <= rs->count, "%u entries for %u rules", n, rs->count);
	for (uint32_t k = 0; k < n; k++) {
		const struct xskx_filter_entry *e = &entries[k];
		uint32_t i = e->rule_id - rs->id_base;
		const struct fw_rule *r;

		FUZZ_CHECK(i < rs->count, "entry %u: rule id %u", k, e->rule_id);
		r = &rs->rules[i];
		FUZZ_CHECK(r->in_xdp && r->action == FW_DENY,
			   "entry %u for rule %u, not a stage-1 deny", k, i);
		FUZZ_CHECK(!memcmp(&e->prefix,
				   e->field == XSKX_FILTER_SRC ? &r->src : &r->dst,
				   sizeof(e->prefix)) &&
				   (e->field == XSKX_FILTER_SRC ? r->has_src :
								  r->has_dst),
			   "entry %u: not rule %u's prefix", k, i);
		for (uint32_t j = 0; j < k; j++)
			FUZZ_CHECK(entries[j].field != e->field ||
					   memcmp(&entries[j].prefix, &e->prefix,
						  sizeof(e->prefix)),
				   "entries %u and %u: one field and prefix", j,
				   k);
	}
	check_matches(rs, entries, n);
	free(entries);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_ruleset *rs = (void *)1;
	struct fw_errors errs;
	int err;

	err = fw_rules_parse((const char *)data, size, &rs, &errs);
	FUZZ_CHECK(err == 0 || err == -EINVAL || err == -ENOMEM,
		   "returned %d", err);
	if (err) {
		FUZZ_CHECK(!rs, "a rule set with %d", err);
		FUZZ_CHECK(err != -EINVAL || errs.count, "-EINVAL, no error");
		for (uint32_t i = 0; i < errs.count; i++) {
			char text[400];

			FUZZ_CHECK(memchr(errs.list[i].text, '\0',
					  sizeof(errs.list[i].text)),
				   "error %u's text not ended", i);
			fw_error_format(&errs.list[i], text, sizeof(text));
		}
		fw_errors_free(&errs);
		return 0;
	}
	FUZZ_CHECK(rs && !errs.count, "a rule set with %u errors", errs.count);
	check_rules(rs);
	check_format_round_trip(rs);
	rs->id_base = rs->count % 2 ? FW_MAX_RULES : 0;
	check_split(rs);
	fw_rules_free(rs);
	fw_errors_free(&errs);
	return 0;
}
