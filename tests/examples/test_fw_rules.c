// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw's rule set (examples/xskx-fw/rules*.c): the file parser (good
 * files; every kind of error, each reported with its line, all of them at
 * once, and no rule set from a bad file), the matcher (every kind of
 * condition, first match wins, unclassifiable packets get the default) and
 * the split into the XDP stage and the user-space stage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helpers.h"
#include "rules.h"

static struct fw_ruleset *parse_ok(const char *text)
{
	struct fw_ruleset *rs = NULL;
	struct fw_errors errs;
	int err = fw_rules_parse(text, strlen(text), &rs, &errs);

	ck_assert_msg(!err, "parse failed (%d): %u errors, first: %s", err,
		      errs.count, errs.count ? errs.list[0].text : "");
	ck_assert_uint_eq(errs.count, 0);
	fw_errors_free(&errs);
	return rs;
}

START_TEST(good_file)
{
	static const char text[] =
		"# a comment line\n"
		"\n"
		"deny src 198.51.100.0/24   # trailing comment\n"
		"allow dst 2001:db8::/32 proto tcp port 443\n"
		"\tdeny proto udp port 1000-2000\n"
		"allow port 53 proto udp src 192.0.2.1\n"
		"deny proto icmp\n"
		"allow\n"
		"default deny";
	struct fw_ruleset *rs = parse_ok(text);
	const struct fw_rule *r = rs->rules;
	char buf[160];

	ck_assert_uint_eq(rs->count, 6);
	ck_assert_int_eq(rs->default_action, FW_DENY);
	ck_assert_int_eq(r[0].action, FW_DENY);
	ck_assert(r[0].has_src && !r[0].has_dst && !r[0].has_port);
	ck_assert_uint_eq(r[0].src.family, AF_INET);
	ck_assert_uint_eq(r[0].src.len, 24);
	ck_assert_uint_eq(r[0].line, 3);
	ck_assert(r[1].has_dst && r[1].dst.family == AF_INET6);
	ck_assert_int_eq(r[1].proto, FW_PROTO_TCP);
	ck_assert(r[1].has_port && r[1].port_lo == 443 && r[1].port_hi == 443);
	ck_assert_uint_eq(r[2].port_lo, 1000);
	ck_assert_uint_eq(r[2].port_hi, 2000);
	ck_assert_uint_eq(r[2].line, 5);
	ck_assert_uint_eq(r[3].src.len, 32); /* a bare address */
	ck_assert_int_eq(r[4].proto, FW_PROTO_ICMP);
	ck_assert(!r[5].has_src && !r[5].has_dst && !r[5].has_port);
	ck_assert_int_eq(r[5].action, FW_ALLOW);
	fw_rule_format(&r[3], buf, sizeof(buf));
	ck_assert_str_eq(buf, "allow src 192.0.2.1/32 proto udp port 53");
	fw_rule_format(&r[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "allow dst 2001:db8::/32 proto tcp port 443");
	fw_rules_free(rs);

	rs = parse_ok("allow ether arp\n"
		      "allow ether 0x88CC\n"
		      "allow ether 034525 proto icmp\n"
		      "deny src 192.0.2.0/24 ether ipv4 proto tcp port 22\n"
		      "default deny\n");
	r = rs->rules;
	ck_assert(r[0].has_ether && r[0].ether_type == 0x0806);
	ck_assert(!r[0].has_src && !r[0].has_dst && !r[0].has_port);
	ck_assert_uint_eq(r[1].ether_type, 0x88cc);
	ck_assert_uint_eq(r[2].ether_type, 0x86dd);
	ck_assert_uint_eq(r[3].ether_type, 0x0800);
	/* Written back in the file's words, ether first. */
	fw_rule_format(&r[0], buf, sizeof(buf));
	ck_assert_str_eq(buf, "allow ether arp");
	fw_rule_format(&r[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "allow ether 0x88cc");
	fw_rule_format(&r[2], buf, sizeof(buf));
	ck_assert_str_eq(buf, "allow ether ipv6 proto icmp");
	fw_rule_format(&r[3], buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "deny ether ipv4 src 192.0.2.0/24 proto tcp port 22");
	fw_rules_free(rs);

	rs = parse_ok("default allow\n");
	ck_assert_uint_eq(rs->count, 0);
	ck_assert_int_eq(rs->default_action, FW_ALLOW);
	fw_rules_free(rs);
}
END_TEST

/* One mistake per line; every one is reported with its line and kind. */
START_TEST(every_error_reported_with_its_line)
{
	static const struct {
		const char *line;
		enum fw_error_kind kind;
	} cases[] = {
		{ "permit src 198.51.100.0/24", FW_ERR_STATEMENT },
		{ "deny from 198.51.100.0/24", FW_ERR_KEYWORD },
		{ "deny src", FW_ERR_MISSING_VALUE },
		{ "deny src 198.51.100.7/24", FW_ERR_PREFIX },
		{ "deny src 198.51.100.0/33", FW_ERR_PREFIX },
		{ "deny dst 300.0.0.1", FW_ERR_PREFIX },
		{ "deny dst 2001:db8::/129", FW_ERR_PREFIX },
		{ "deny proto sctp", FW_ERR_PROTO },
		{ "deny proto tcp port 70000", FW_ERR_PORT },
		{ "deny proto tcp port 2000-1000", FW_ERR_PORT },
		{ "deny proto tcp port http", FW_ERR_PORT },
		{ "deny proto udp port -5", FW_ERR_PORT },
		{ "deny src 198.51.100.0/24 src 203.0.113.0/24",
		  FW_ERR_REPEATED },
		{ "deny port 80", FW_ERR_PORT_PROTO },
		{ "deny proto icmp port 80", FW_ERR_PORT_PROTO },
		{ "deny src 198.51.100.0/24 dst 2001:db8::/32", FW_ERR_FAMILY },
		{ "allow ether", FW_ERR_MISSING_VALUE },
		{ "allow ether ipx", FW_ERR_ETHER },
		{ "allow ether 0x05dc", FW_ERR_ETHER },	/* a length */
		{ "allow ether 0x8100", FW_ERR_ETHER },	/* a VLAN tag */
		{ "allow ether 0x88a8", FW_ERR_ETHER },
		{ "allow ether 0x10000", FW_ERR_ETHER },
		{ "allow ether arp ether arp", FW_ERR_REPEATED },
		{ "allow ether arp src 192.0.2.0/24", FW_ERR_ETHER },
		{ "allow ether arp proto udp", FW_ERR_ETHER },
		{ "allow ether 0x88cc port 53", FW_ERR_ETHER },
		{ "allow ether ipv6 src 192.0.2.0/24", FW_ERR_FAMILY },
		{ "allow ether ipv4 dst 2001:db8::/32", FW_ERR_FAMILY },
		{ "allow ether ipv4 port 22", FW_ERR_PORT_PROTO },
		{ "default allow", (enum fw_error_kind)-1 }, /* the one good default */
		{ "default allow", FW_ERR_DEFAULT },
		{ "default drop", FW_ERR_DEFAULT },
		{ "default deny now", FW_ERR_DEFAULT },
	};
	const uint32_t ncases = sizeof(cases) / sizeof(cases[0]);
	char text[4096] = "";
	struct fw_ruleset *rs = (struct fw_ruleset *)1;
	struct fw_errors errs;
	uint32_t e = 0;

	for (uint32_t i = 0; i < ncases; i++) {
		strcat(text, cases[i].line);
		strcat(text, "\n");
	}
	ck_assert_int_eq(fw_rules_parse(text, strlen(text), &rs, &errs),
			 -EINVAL);
	ck_assert_ptr_null(rs);
	for (uint32_t i = 0; i < ncases; i++) {
		char msg[256];

		if ((int)cases[i].kind == -1)
			continue;
		ck_assert_msg(e < errs.count, "no error for line %u (%s)", i + 1,
			      cases[i].line);
		fw_error_format(&errs.list[e], msg, sizeof(msg));
		ck_assert_msg(errs.list[e].line == i + 1 &&
				      errs.list[e].kind == cases[i].kind,
			      "line %u (%s): got %s (kind %d)", i + 1,
			      cases[i].line, msg, errs.list[e].kind);
		ck_assert_msg(strstr(msg, "expected"), "%s says nothing of what was expected",
			      msg);
		e++;
	}
	ck_assert_uint_eq(errs.count, e);
	fw_errors_free(&errs);
}
END_TEST

/* The last port is 65535; 65536, alone or ending a range, is refused. */
START_TEST(port_bounds)
{
	static const char *const bad[] = { "deny proto tcp port 65536",
					   "deny proto udp port 1-65536",
					   "deny proto tcp port 65536-65536" };
	struct fw_ruleset *rs = parse_ok("deny proto tcp port 65535\n"
					 "allow proto udp port 0-65535\n"
					 "default allow\n");

	ck_assert_uint_eq(rs->count, 2);
	ck_assert_uint_eq(rs->rules[0].port_lo, 65535);
	ck_assert_uint_eq(rs->rules[0].port_hi, 65535);
	ck_assert_uint_eq(rs->rules[1].port_lo, 0);
	ck_assert_uint_eq(rs->rules[1].port_hi, 65535);
	fw_rules_free(rs);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[128], msg[256], want[64];
		struct fw_errors errs;

		/* The bad rule on line 2, after a good one. */
		snprintf(text, sizeof(text), "allow proto tcp port 65535\n%s\ndefault allow\n",
			 bad[i]);
		rs = (struct fw_ruleset *)1;
		ck_assert_int_eq(fw_rules_parse(text, strlen(text), &rs, &errs),
				 -EINVAL);
		ck_assert_ptr_null(rs);
		ck_assert_uint_eq(errs.count, 1);
		ck_assert_uint_eq(errs.list[0].line, 2);
		ck_assert_int_eq(errs.list[0].kind, FW_ERR_PORT);
		fw_error_format(&errs.list[0], msg, sizeof(msg));
		snprintf(want, sizeof(want), "line 2: port %s:",
			 strstr(bad[i], "port ") + 5);
		ck_assert_msg(!strncmp(msg, want, strlen(want)),
			      "%s: got \"%s\"", bad[i], msg);
		fw_errors_free(&errs);
	}
}
END_TEST

START_TEST(file_wide_errors)
{
	static const char no_default[] = "deny src 198.51.100.0/24\n";
	struct fw_ruleset *rs;
	struct fw_errors errs;
	char long_line[700];

	/* No default: the file as a whole (line 0); good rules load nothing. */
	ck_assert_int_eq(fw_rules_parse(no_default, strlen(no_default), &rs,
					&errs),
			 -EINVAL);
	ck_assert_ptr_null(rs);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_int_eq(errs.list[0].kind, FW_ERR_NO_DEFAULT);
	ck_assert_uint_eq(errs.list[0].line, 0);
	fw_errors_free(&errs);

	memset(long_line, 'x', sizeof(long_line));
	memcpy(long_line + sizeof(long_line) - 16, "\ndefault deny\n", 14);
	ck_assert_int_eq(fw_rules_parse(long_line, sizeof(long_line) - 2, &rs,
					&errs),
			 -EINVAL);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_int_eq(errs.list[0].kind, FW_ERR_LINE_TOO_LONG);
	ck_assert_uint_eq(errs.list[0].line, 1);
	fw_errors_free(&errs);

	ck_assert_int_eq(fw_rules_load("/nonexistent/xskx-fw.rules", &rs, &errs),
			 -EINVAL);
	ck_assert_ptr_null(rs);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_int_eq(errs.list[0].kind, FW_ERR_FILE);
	fw_errors_free(&errs);
}
END_TEST

START_TEST(too_many_rules)
{
	static char text[(FW_MAX_RULES + 2) * 8];
	struct fw_ruleset *rs;
	struct fw_errors errs;

	text[0] = '\0';
	for (uint32_t i = 0; i < FW_MAX_RULES + 1; i++)
		strcat(text, "allow\n");
	strcat(text, "default deny\n");
	ck_assert_int_eq(fw_rules_parse(text, strlen(text), &rs, &errs),
			 -EINVAL);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_int_eq(errs.list[0].kind, FW_ERR_TOO_MANY_RULES);
	ck_assert_uint_eq(errs.list[0].line, FW_MAX_RULES + 1);
	fw_errors_free(&errs);
}
END_TEST

START_TEST(load_from_file)
{
	char path[] = "/tmp/xskx-fw-rules-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "deny dst 198.51.100.0/24\ndefault allow\n";
	struct fw_ruleset *rs;
	struct fw_errors errs;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	ck_assert_int_eq(fw_rules_load(path, &rs, &errs), 0);
	unlink(path);
	ck_assert_uint_eq(rs->count, 1);
	ck_assert_uint_eq(rs->rules[0].dst.len, 24);
	fw_rules_free(rs);
}
END_TEST

/* Packet views made by hand: the matcher reads nothing else. */
static uint8_t v4_a[4] = { 198, 51, 100, 3 }, v4_b[4] = { 192, 0, 2, 7 };
static uint8_t v6_a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static uint8_t v6_b[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x80, [15] = 2 };

static struct xskx_pkt_view view(uint8_t family, uint8_t proto,
				 uint16_t dport, enum xskx_pkt_class cls)
{
	struct xskx_pkt_view v = { .cls = cls, .family = family,
				   .l4_proto = proto, .dport = dport };

	v.src = family == AF_INET ? v4_a : v6_a;
	v.dst = family == AF_INET ? v4_b : v6_b;
	return v;
}

START_TEST(matcher_every_condition)
{
	struct fw_ruleset *rs = parse_ok(
		"deny src 198.51.100.0/24 proto udp\n"		  /* 0 */
		"allow dst 192.0.2.0/24 proto tcp port 80-90\n"	  /* 1 */
		"deny dst 192.0.2.7 proto tcp\n"		  /* 2 */
		"allow src 2001:db8::/32 proto icmp\n"		  /* 3 */
		"deny dst 2001:db8:8000::/33 proto udp port 53\n" /* 4 */
		"allow proto any dst 2001:db8:8000::2\n"	  /* 5 */
		"deny proto icmp\n"				  /* 6 */
		"default allow\n");
	struct xskx_pkt_view v;

	v = view(AF_INET, IPPROTO_UDP, 9, XSKX_PKT_L4);
	ck_assert_int_eq(fw_rules_match(rs, &v), 0);
	v = view(AF_INET, IPPROTO_TCP, 85, XSKX_PKT_L4);
	ck_assert_int_eq(fw_rules_match(rs, &v), 1);
	v.dport = 91; /* past the range: the next rule */
	ck_assert_int_eq(fw_rules_match(rs, &v), 2);
	v.dport = 80;
	ck_assert_int_eq(fw_rules_match(rs, &v), 1);
	v = view(AF_INET, IPPROTO_ICMP, 0, XSKX_PKT_L4);
	ck_assert_int_eq(fw_rules_match(rs, &v), 6); /* rule 3 is IPv6 */
	v = view(AF_INET6, IPPROTO_ICMPV6, 0, XSKX_PKT_L4);
	ck_assert_int_eq(fw_rules_match(rs, &v), 3);
	v = view(AF_INET6, IPPROTO_UDP, 53, XSKX_PKT_L4);
	ck_assert_int_eq(fw_rules_match(rs, &v), 4);
	v.dport = 54;
	ck_assert_int_eq(fw_rules_match(rs, &v), 5);
	/* another IP protocol: only rules without proto or port match */
	v = view(AF_INET6, 47, 0, XSKX_PKT_L3);
	ck_assert_int_eq(fw_rules_match(rs, &v), 5);
	v = view(AF_INET, 47, 0, XSKX_PKT_L3);
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	/* ICMP over IPv6 is not "icmp" when it says protocol 1 */
	v = view(AF_INET6, IPPROTO_ICMP, 0, XSKX_PKT_L4);
	v.dst = v6_a;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	/* unclassifiable packets meet no rule: the default decides */
	v = view(AF_INET, IPPROTO_UDP, 9, XSKX_PKT_FRAGMENT);
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	v.cls = XSKX_PKT_TRUNCATED;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	v.cls = XSKX_PKT_MALFORMED;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	v = (struct xskx_pkt_view){ .cls = XSKX_PKT_NOT_IP };
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	fw_rules_free(rs);
}
END_TEST

/*
 * ether: a type that is not IP matches the packets that are not IP of that
 * type, and only those; ipv4 and ipv6 match the classified packets of
 * their family, with the other conditions.
 */
START_TEST(matcher_ether)
{
	struct fw_ruleset *rs = parse_ok(
		"deny ether 0x88cc\n"				/* 0 */
		"allow ether arp\n"				/* 1 */
		"allow ether ipv6 proto icmp\n"			/* 2 */
		"deny ether ipv4 proto udp port 9\n"		/* 3 */
		"allow ether ipv4\n"				/* 4 */
		"default deny\n");
	struct xskx_pkt_view v = { .cls = XSKX_PKT_NOT_IP,
				   .ethertype = 0x0806 };

	ck_assert_int_eq(fw_rules_match(rs, &v), 1);
	v.ethertype = 0x88cc;
	ck_assert_int_eq(fw_rules_match(rs, &v), 0);
	v.ethertype = 0x8906; /* no rule's type: the default */
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	/* Neighbour discovery is ICMPv6. */
	v = view(AF_INET6, IPPROTO_ICMPV6, 0, XSKX_PKT_L4);
	v.ethertype = 0x86dd;
	ck_assert_int_eq(fw_rules_match(rs, &v), 2);
	v = view(AF_INET6, IPPROTO_UDP, 9, XSKX_PKT_L4);
	v.ethertype = 0x86dd;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	v = view(AF_INET, IPPROTO_UDP, 9, XSKX_PKT_L4);
	v.ethertype = 0x0800;
	ck_assert_int_eq(fw_rules_match(rs, &v), 3);
	v = view(AF_INET, IPPROTO_ICMP, 0, XSKX_PKT_L4);
	v.ethertype = 0x0800;
	ck_assert_int_eq(fw_rules_match(rs, &v), 4);
	/* A malformed IPv4 packet is not judged by its EtherType. */
	v.cls = XSKX_PKT_MALFORMED;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	fw_rules_free(rs);

	/* A rule without ether meets IP packets only. */
	rs = parse_ok("allow\ndefault deny\n");
	v = (struct xskx_pkt_view){ .cls = XSKX_PKT_NOT_IP,
				    .ethertype = 0x0806 };
	ck_assert_int_eq(fw_rules_match(rs, &v), -1);
	fw_rules_free(rs);
}
END_TEST

START_TEST(matcher_prefix_bits)
{
	struct fw_ruleset *rs = parse_ok("deny src 198.51.100.64/27\n"
					 "deny src 2001:db8:8000::/33\n"
					 "allow src 0.0.0.0/0\n"
					 "default deny\n");
	struct xskx_pkt_view v = view(AF_INET, IPPROTO_TCP, 1, XSKX_PKT_L4);
	/* a, c: the first bit past the prefix set; b, d: its last flipped */
	uint8_t a[4] = { 198, 51, 100, 95 }, b[4] = { 198, 51, 100, 96 };
	uint8_t c[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xc0 };
	uint8_t d[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x40 };

	v.src = a;
	ck_assert_int_eq(fw_rules_match(rs, &v), 0);
	v.src = b;
	ck_assert_int_eq(fw_rules_match(rs, &v), 2);
	v = view(AF_INET6, IPPROTO_TCP, 1, XSKX_PKT_L4);
	v.src = c;
	ck_assert_int_eq(fw_rules_match(rs, &v), 1);
	v.src = d;
	ck_assert_int_eq(fw_rules_match(rs, &v), -1); /* 0.0.0.0/0 is IPv4 */
	fw_rules_free(rs);
}
END_TEST

static uint32_t split(const char *text, struct fw_ruleset **rs,
		      struct xskx_filter_entry *entries)
{
	*rs = parse_ok(text);
	return fw_rules_split(*rs, entries);
}

START_TEST(split_keeps_first_match_semantics)
{
	struct xskx_filter_entry e[16];
	struct fw_ruleset *rs;
	uint32_t n;

	n = split("deny src 198.51.100.0/25\n"		/* 0: yes */
		  "allow src 192.0.2.0/25 proto tcp port 22\n" /* allow */
		  "deny src 192.0.2.64/26\n"	/* 2: shadowed by 1 */
		  "deny src 198.51.100.128/25\n" /* 3: yes, disjoint */
		  "deny dst 192.0.2.0/24\n"	/* 4: rule 1 has no dst: no */
		  "deny src 192.0.2.0/24\n"	/* 5: contains rule 1's: no */
		  "deny src 2001:db8::/32\n"	/* 6: rule 1 is IPv4: yes */
		  "deny src 198.51.100.0/25\n"	/* 7: as rule 0: dead, no */
		  "deny src 203.0.113.0/25 proto udp\n" /* 8: a proto: no */
		  /* 9: two prefixes: no */
		  "deny src 203.0.113.128/25 dst 198.51.100.0/24\n"
		  "allow dst 2001:db8::/32\n"
		  "deny dst 2001:db8:1::/48\n"	/* 11: under 10: no */
		  "deny src 2001:db8:1::/48\n"	/* 12: 10 is dst only: no */
		  "allow proto tcp\n"
		  "deny src 203.0.113.0/24\n"	/* 14: under 13: no */
		  "default allow\n",
		  &rs, e);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(e[0].rule_id, 0);
	ck_assert_int_eq(e[0].field, XSKX_FILTER_SRC);
	ck_assert_uint_eq(e[1].rule_id, 3);
	ck_assert_uint_eq(e[2].rule_id, 6);
	ck_assert_uint_eq(e[2].prefix.family, AF_INET6);
	for (uint32_t i = 0; i < rs->count; i++)
		ck_assert_msg(rs->rules[i].in_xdp == (i == 0 || i == 3 || i == 6),
			      "rule %u in_xdp %d", i, rs->rules[i].in_xdp);
	fw_rules_free(rs);

	/* After a catch-all allow nothing can go down; dst rules can. */
	n = split("deny dst 198.51.100.0/24\nallow\ndeny src 198.51.100.0/24\n"
		  "default deny\n",
		  &rs, e);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(e[0].field, XSKX_FILTER_DST);
	fw_rules_free(rs);
}
END_TEST

static bool in_xdp_are(const struct fw_ruleset *rs, const char *expected)
{
	for (uint32_t i = 0; i < rs->count; i++)
		if (rs->rules[i].in_xdp != (expected[i] == 'x'))
			return false;
	return strlen(expected) == rs->count;
}

/* Overlapping stage-1 candidates of every kind: which go down. */
START_TEST(split_overlaps_keep_first_match_credit)
{
	static const struct {
		const char *text;
		const char *in_xdp; /* per rule: x stage 1, - user space */
	} cases[] = {
		/* The file: a proto rule first decides some packets
		 * of every prefix rule after it, which stage 1 cannot see. */
		{ "deny proto tcp\ndeny src 192.0.2.0/24\n"
		  "deny src 192.0.2.128/25\ndeny dst 198.51.100.0/24\n"
		  "deny src 203.0.113.0/24\ndefault allow\n", "-----" },
		/* Without it: /25 under /24 can never match; src vs dst go
		 * down (the program credits the lower line). */
		{ "deny src 192.0.2.0/24\ndeny src 192.0.2.128/25\n"
		  "deny dst 198.51.100.0/24\ndeny src 203.0.113.0/24\n"
		  "default allow\n", "x-xx" },
		/* Nested the other way: the longer first, both go down. */
		{ "deny src 192.0.2.128/25\ndeny src 192.0.2.0/24\n"
		  "default allow\n", "xx" },
		{ "deny dst 2001:db8:1::/48\ndeny dst 2001:db8::/32\n"
		  "deny dst 2001:db8:1:2::/64\ndeny src 2001:db8::/32\n"
		  "default allow\n", "xx-x" },
		/* A port rule overlapping: user space; of the other family:
		 * no conflict; a disjoint prefix of the same field neither,
		 * but the src rule kept in user space before it is one. */
		{ "deny dst 198.51.100.0/24 proto udp port 53\n"
		  "deny src 192.0.2.0/24\ndeny dst 2001:db8::/32\n"
		  "deny dst 203.0.113.0/24\ndeny dst 198.51.100.0/25\n"
		  "default allow\n", "--x--" },
		{ "deny dst 198.51.100.0/24 proto udp port 53\n"
		  "deny dst 203.0.113.0/24\ndefault allow\n", "-x" },
		/* A prefix rule kept in user space by an allow blocks those
		 * it overlaps: nested, or of the other field (a dst rule
		 * overlaps every src rule of its family). */
		{ "allow src 198.51.100.0/24 proto tcp\n"
		  "deny src 198.51.100.0/24\ndeny src 198.51.100.128/25\n"
		  "deny src 203.0.113.0/24\ndefault allow\n", "---x" },
		{ "allow src 198.51.100.0/24 proto tcp\n"
		  "deny dst 192.0.2.0/24\ndeny src 203.0.113.0/24\n"
		  "deny src 2001:db8::/32\ndefault allow\n", "---x" },
		/* The same prefix twice (a bare address is its /32 or
		 * /128): the first goes down, the later one can never match
		 * and is left out, as the deny list takes each prefix once. */
		{ "deny src 192.0.2.0/24\ndeny src 192.0.2.0/24\n"
		  "deny dst 198.51.100.7\ndeny dst 198.51.100.7/32\n"
		  "deny src 2001:db8::/32\ndeny src 2001:db8::/32\n"
		  "default allow\n", "x-x-x-" },
		/* An allow of ARP meets no IP packet: the prefixes after it
		 * go down; one of IPv4 keeps the IPv4 ones up, not IPv6's. */
		{ "allow ether arp\ndeny src 192.0.2.0/24\n"
		  "deny dst 2001:db8::/32\ndefault deny\n", "-xx" },
		{ "allow ether ipv4\ndeny src 192.0.2.0/24\n"
		  "deny dst 2001:db8::/32\ndefault deny\n", "--x" },
		{ "allow ether ipv6\ndeny src 192.0.2.0/24\n"
		  "deny dst 2001:db8::/32\ndefault deny\n", "-x-" },
		/* ether ipv4 beside a prefix is the prefix's family again. */
		{ "deny ether ipv4 src 192.0.2.0/24\ndefault allow\n", "x" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct xskx_filter_entry e[16];
		struct fw_ruleset *rs;

		split(cases[c].text, &rs, e);
		ck_assert_msg(in_xdp_are(rs, cases[c].in_xdp), "case %zu", c);
		fw_rules_free(rs);
	}
}
END_TEST

/*
 * Random rule files of overlapping rules, random packets: whenever a
 * simple model of the XDP program (the longest entry per field, the lower
 * rule id of the two) drops a packet, that rule is the first match.
 */
#define MODEL_FILES 3000u
#define MODEL_RULES 7u

/*
 * Prefixes nested three deep in 198.51.100.0/24 and in 203.0.113.0/24,
 * 192.0.2.0/24 beside them, a /48 inside 2001:db8::/33. The addresses fall
 * in: 198.51.100.3 and 203.0.113.7 their /24, /25 and /26; .100 the /24
 * and /25; .200 the /24 alone; 192.0.2.9 its /24; 2001:db8:1::1 the /33
 * and the /48; 2001:db8:2::1 the /33; 2001:db8:8000::1 none.
 */
static const char *const pool_rules[] = {
	"deny src 198.51.100.0/24", "deny src 198.51.100.0/25",
	"deny src 198.51.100.0/26", "deny dst 203.0.113.0/25",
	"deny dst 203.0.113.0/24", "deny src 192.0.2.0/24",
	"deny dst 198.51.100.0/25", "deny src 2001:db8::/33",
	"deny dst 2001:db8:1::/48", "deny dst 2001:db8::/33",
	"deny src 2001:db8:1::/48", "deny proto tcp",
	"deny src 198.51.100.0/24 proto udp port 53",
	"deny dst 2001:db8::/33 proto icmp",
	"allow src 198.51.100.0/25 proto udp", "allow dst 203.0.113.0/26",
	"deny src 198.51.100.0/24 dst 203.0.113.0/24",
};
static const char *const pool_v4[] = { "198.51.100.3", "198.51.100.100",
				       "198.51.100.200", "203.0.113.7",
				       "203.0.113.100", "203.0.113.200",
				       "192.0.2.9" };
static const char *const pool_v6[] = { "2001:db8:1::1", "2001:db8:2::1",
				       "2001:db8:8000::1" };

#define POOL(a) (sizeof(a) / sizeof((a)[0]))

/* The entry the longest-prefix lookup finds for addr in field, or NULL. */
static const struct xskx_filter_entry *
model_lpm(const struct xskx_filter_entry *e, uint32_t n,
	  enum xskx_filter_field field, uint8_t family, const uint8_t *addr)
{
	const struct xskx_filter_entry *best = NULL;

	for (uint32_t i = 0; i < n; i++) {
		const struct xskx_prefix *p = &e[i].prefix;
		uint32_t bits = p->len, k;

		if (e[i].field != field || p->family != family)
			continue;
		for (k = 0; k < bits; k++)
			if (((p->addr[k / 8] ^ addr[k / 8]) >> (7 - k % 8)) & 1)
				break;
		if (k == bits && (!best || p->len > best->prefix.len))
			best = &e[i];
	}
	return best;
}

START_TEST(split_model_drops_only_for_the_first_match)
{
	static const uint8_t protos[] = { IPPROTO_TCP, IPPROTO_UDP,
					  IPPROTO_ICMP };
	unsigned int seed = 8;
	uint32_t drops = 0;

	for (uint32_t f = 0; f < MODEL_FILES; f++) {
		struct xskx_filter_entry e[MODEL_RULES];
		char text[MODEL_RULES * 64 + 32] = "";
		uint32_t nrules = 1 + (uint32_t)rand_r(&seed) % MODEL_RULES, n;
		struct fw_ruleset *rs;

		for (uint32_t i = 0; i < nrules; i++) {
			strcat(text, pool_rules[rand_r(&seed) % POOL(pool_rules)]);
			strcat(text, "\n");
		}
		strcat(text, "default allow\n");
		n = split(text, &rs, e);
		for (uint32_t p = 0; p < 64; p++) {
			bool v6 = p % 4 == 3;
			uint8_t src[16], dst[16];
			struct xskx_pkt_view v = {
				.cls = XSKX_PKT_L4,
				.family = v6 ? AF_INET6 : AF_INET,
				.l4_proto = protos[rand_r(&seed) % 3],
				.dport = rand_r(&seed) % 2 ? 53 : 80,
				.src = src, .dst = dst,
			};
			const struct xskx_filter_entry *hs, *hd, *hit;

			if (v6 && v.l4_proto == IPPROTO_ICMP)
				v.l4_proto = IPPROTO_ICMPV6;
			inet_pton(v.family, v6 ? pool_v6[rand_r(&seed) % POOL(pool_v6)] :
						 pool_v4[rand_r(&seed) % POOL(pool_v4)], src);
			inet_pton(v.family, v6 ? pool_v6[rand_r(&seed) % POOL(pool_v6)] :
						 pool_v4[rand_r(&seed) % POOL(pool_v4)], dst);
			hs = model_lpm(e, n, XSKX_FILTER_SRC, v.family, src);
			hd = model_lpm(e, n, XSKX_FILTER_DST, v.family, dst);
			hit = !hs || (hd && hd->rule_id < hs->rule_id) ? hd : hs;
			if (!hit)
				continue;
			drops++;
			ck_assert_msg(fw_rules_match(rs, &v) == (int)hit->rule_id,
				      "file:\n%sstage 1 credits rule %u, first match is %d",
				      text, hit->rule_id, fw_rules_match(rs, &v));
		}
		fw_rules_free(rs);
	}
	/* The files did put packets through stage 1. */
	ck_assert_uint_gt(drops, MODEL_FILES);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("fw_rules");

	test_add_case(s, "good_file", good_file);
	test_add_case(s, "every_error_reported_with_its_line",
		 every_error_reported_with_its_line);
	test_add_case(s, "port_bounds", port_bounds);
	test_add_case(s, "file_wide_errors", file_wide_errors);
	test_add_case(s, "too_many_rules", too_many_rules);
	test_add_case(s, "load_from_file", load_from_file);
	test_add_case(s, "matcher_every_condition", matcher_every_condition);
	test_add_case(s, "matcher_prefix_bits", matcher_prefix_bits);
	test_add_case(s, "matcher_ether", matcher_ether);
	test_add_case(s, "split_keeps_first_match_semantics",
		 split_keeps_first_match_semantics);
	test_add_case(s, "split_overlaps_keep_first_match_credit",
		 split_overlaps_keep_first_match_credit);
	test_add_case(s, "split_model_drops_only_for_the_first_match",
		 split_model_drops_only_for_the_first_match);
	return test_main(s, argc, argv);
}
