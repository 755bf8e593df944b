// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: read a rule file (grammar in rules.h). The whole file is parsed
 * before anything is kept, every error is collected with its line number
 * and what was expected there, and a file with any error yields no rule
 * set at all.
 */
#include <errno.h>
#include <linux/if_ether.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xskx/log.h>

#include "rules.h"

#define MAX_LINE 512
#define MAX_WORDS 16
#define MAX_FILE_BYTES (16u << 20)

struct parser {
	struct fw_rule *rules;
	uint32_t count, cap;
	bool has_default, out_of_memory;
	enum fw_action default_action;
	struct fw_errors *errs;
	uint32_t line;
};

static void error(struct parser *p, enum fw_error_kind kind, const char *fmt,
		  ...)
{
	struct fw_error *list, *e;
	va_list ap;

	list = realloc(p->errs->list, (p->errs->count + 1) * sizeof(*list));
	if (!list) {
		p->out_of_memory = true;
		return;
	}
	p->errs->list = list;
	e = &list[p->errs->count++];
	e->line = p->line;
	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

static bool parse_action(const char *word, enum fw_action *action)
{
	if (!strcmp(word, "allow"))
		*action = FW_ALLOW;
	else if (!strcmp(word, "deny"))
		*action = FW_DENY;
	else
		return false;
	return true;
}

static void parse_prefix(struct parser *p, const char *key, const char *text,
			 struct xskx_prefix *prefix)
{
	if (!xskx_prefix_parse(text, prefix))
		return;
	/* The library's message says what is wrong with it. */
	error(p, FW_ERR_PREFIX,
	      "%s: %s; expected an IPv4 or IPv6 address or prefix (192.0.2.0/24, 2001:db8::/32) with no bits set past its length",
	      key, xskx_last_error());
}

static bool parse_proto(const char *text, enum fw_proto *proto)
{
	static const char *const names[] = { "any", "tcp", "udp", "icmp" };

	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(text, names[i])) {
			*proto = (enum fw_proto)i;
			return true;
		}
	}
	return false;
}

static bool parse_port_number(const char *s, const char *end, uint16_t *port)
{
	unsigned long v = 0;

	if (s == end || end - s > 5)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > 65535)
		return false;
	*port = (uint16_t)v;
	return true;
}

/* The EtherTypes a rule may name in words; their numbers work too. */
static const struct {
	const char *name;
	uint16_t type;
} ether_names[] = {
	{ "arp", 0x0806 },
	{ "ipv4", 0x0800 },
	{ "ipv6", 0x86dd },
};

#define ETHER_NAMES (sizeof(ether_names) / sizeof(ether_names[0]))
#define ETHER_TYPE_MIN 0x0600 /* below: an 802.3 length, not a type */

/*
 * arp, ipv4, ipv6, or a number 0x0600-0xffff (hex with 0x, or decimal)
 * other than a VLAN tag's, which the parser looks through.
 */
static void parse_ether(struct parser *p, const char *text, uint16_t *type)
{
	unsigned long v;
	char *end;

	for (uint32_t i = 0; i < ETHER_NAMES; i++) {
		if (!strcmp(text, ether_names[i].name)) {
			*type = ether_names[i].type;
			return;
		}
	}
	/* Hex only with 0x: a leading 0 is decimal, not C's octal. */
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		v = strtoul(text + 2, &end, 16);
	else
		v = strtoul(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || v < ETHER_TYPE_MIN ||
	    v > 0xffff) {
		error(p, FW_ERR_ETHER,
		      "ether %s: expected arp, ipv4, ipv6 or an EtherType 0x0600-0xffff (0x88cc)",
		      text);
		return;
	}
	if (v == ETH_P_8021Q || v == ETH_P_8021AD) {
		error(p, FW_ERR_ETHER,
		      "ether %s: a VLAN tag, which the rules look through: expected the EtherType inside it",
		      text);
		return;
	}
	*type = (uint16_t)v;
}

/* "N" or "N-M", 0 <= N <= M <= 65535. */
static bool parse_ports(const char *text, uint16_t *lo, uint16_t *hi)
{
	const char *dash = strchr(text, '-');
	const char *end = text + strlen(text);

	if (!dash)
		return parse_port_number(text, end, lo) &&
		       parse_port_number(text, end, hi);
	return parse_port_number(text, dash, lo) &&
	       parse_port_number(dash + 1, end, hi) && *lo <= *hi;
}

/*
 * ether with the others: an IP type agrees with the prefixes' family; any
 * other type has no IP header for src, dst, proto or port to look at.
 * Returns whether the rule is one of IP packets, which the IP conditions'
 * own checks then apply to.
 */
static bool check_ether(struct parser *p, const struct fw_rule *r,
			bool has_proto)
{
	uint8_t family = fw_ether_family(r->ether_type);
	const struct xskx_prefix *prefix = r->has_src ? &r->src :
					   r->has_dst ? &r->dst : NULL;

	if (!r->ether_type)
		return false; /* not an EtherType: reported already */
	if (!family) {
		if (prefix || has_proto || r->has_port)
			error(p, FW_ERR_ETHER,
			      "ether 0x%04x: src, dst, proto and port look into IP packets: expected ether ipv4 or ipv6 with them, or ether alone",
			      r->ether_type);
		return false;
	}
	if (prefix && prefix->family && prefix->family != family)
		error(p, FW_ERR_FAMILY,
		      "ether and %s: expected a prefix of the ether type's family",
		      r->has_src ? "src" : "dst");
	return true;
}

/* src/dst/proto/port/ether and their values, each at most once. */
static void parse_conditions(struct parser *p, char **words, uint32_t n,
			     struct fw_rule *r)
{
	static const char *const keys[] = { "src", "dst", "proto", "port",
					    "ether" };
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	bool seen[NKEYS] = { false };
	bool has_proto = false;

	for (uint32_t i = 1; i < n; i += 2) {
		uint32_t k;

		for (k = 0; k < NKEYS && strcmp(words[i], keys[k]); k++)
			;
		if (k == NKEYS) {
			error(p, FW_ERR_KEYWORD,
			      "%s: expected src, dst, proto, port or ether",
			      words[i]);
			continue; /* skip its value, as every keyword has one */
		}
		if (i + 1 >= n) {
			error(p, FW_ERR_MISSING_VALUE, "%s: expected %s after it",
			      words[i],
			      k < 2 ? "a prefix" :
			      k == 2 ? "tcp, udp, icmp or any" :
			      k == 3 ? "a port or N-M" :
				       "arp, ipv4, ipv6 or an EtherType");
			return;
		}
		if (seen[k])
			error(p, FW_ERR_REPEATED, "%s given twice: expected it once per rule",
			      words[i]);
		seen[k] = true;
		switch (k) {
		case 0:
			r->has_src = true;
			parse_prefix(p, "src", words[i + 1], &r->src);
			break;
		case 1:
			r->has_dst = true;
			parse_prefix(p, "dst", words[i + 1], &r->dst);
			break;
		case 2:
			has_proto = true;
			if (!parse_proto(words[i + 1], &r->proto))
				error(p, FW_ERR_PROTO,
				      "proto %s: expected tcp, udp, icmp or any",
				      words[i + 1]);
			break;
		case 3:
			r->has_port = true;
			if (!parse_ports(words[i + 1], &r->port_lo, &r->port_hi))
				error(p, FW_ERR_PORT,
				      "port %s: expected a port 0-65535 or a range N-M with N <= M",
				      words[i + 1]);
			break;
		default:
			r->has_ether = true;
			parse_ether(p, words[i + 1], &r->ether_type);
			break;
		}
	}
	if (r->has_ether && !check_ether(p, r, has_proto))
		return;
	if (r->has_port && has_proto && r->proto != FW_PROTO_TCP &&
	    r->proto != FW_PROTO_UDP)
		error(p, FW_ERR_PORT_PROTO, "port: expected proto tcp or udp, not proto %s",
		      r->proto == FW_PROTO_ICMP ? "icmp" : "any");
	else if (r->has_port && !has_proto)
		error(p, FW_ERR_PORT_PROTO,
		      "port: expected proto tcp or udp in the same rule");
	if (r->has_src && r->has_dst && r->src.family && r->dst.family &&
	    r->src.family != r->dst.family)
		error(p, FW_ERR_FAMILY,
		      "src and dst: expected both IPv4 or both IPv6");
}

static void parse_default(struct parser *p, char **words, uint32_t n)
{
	enum fw_action action;

	if (n != 2 || !parse_action(words[1], &action)) {
		error(p, FW_ERR_DEFAULT, "default: expected \"default allow\" or \"default deny\"");
		return;
	}
	if (p->has_default) {
		error(p, FW_ERR_DEFAULT,
		      "default given again: expected one default per file");
		return;
	}
	p->has_default = true;
	p->default_action = action;
}

static void add_rule(struct parser *p, const struct fw_rule *r)
{
	if (p->count == FW_MAX_RULES) {
		error(p, FW_ERR_TOO_MANY_RULES, "expected at most %u rules",
		      FW_MAX_RULES);
		return;
	}
	if (p->count == p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 16;
		struct fw_rule *rules = realloc(p->rules, cap * sizeof(*rules));

		if (!rules) {
			p->out_of_memory = true;
			return;
		}
		p->rules = rules;
		p->cap = cap;
	}
	p->rules[p->count++] = *r;
}

static void parse_line(struct parser *p, char *line)
{
	char *words[MAX_WORDS + 1], *save = NULL, *w;
	uint32_t n = 0;
	struct fw_rule r = { .line = p->line };
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	for (w = strtok_r(line, " \t\r", &save); w && n <= MAX_WORDS;
	     w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	if (!n)
		return;
	if (!strcmp(words[0], "default")) {
		parse_default(p, words, n);
		return;
	}
	if (!parse_action(words[0], &r.action)) {
		error(p, FW_ERR_STATEMENT, "%s: expected allow, deny or default",
		      words[0]);
		return;
	}
	if (n > MAX_WORDS) {
		error(p, FW_ERR_REPEATED,
		      "too many words: expected at most src, dst, proto, port and ether once each");
		return;
	}
	parse_conditions(p, words, n, &r);
	add_rule(p, &r);
}

static int finish(struct parser *p, struct fw_ruleset **out)
{
	struct fw_ruleset *rs;

	p->line = 0;
	if (!p->has_default)
		error(p, FW_ERR_NO_DEFAULT,
		      "no default policy: expected a line \"default allow\" or \"default deny\"");
	if (p->out_of_memory)
		return -ENOMEM;
	if (p->errs->count)
		return -EINVAL;
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	rs->rules = p->rules;
	rs->count = p->count;
	rs->default_action = p->default_action;
	rs->hits = calloc(p->count + 1, sizeof(*rs->hits));
	rs->hit_rows = 1;
	rs->xdp_base = calloc(p->count + 1, sizeof(*rs->xdp_base));
	rs->xdp_final = calloc(p->count + 1, sizeof(*rs->xdp_final));
	p->rules = NULL;
	if (!rs->hits || !rs->xdp_base || !rs->xdp_final) {
		fw_rules_free(rs);
		return -ENOMEM;
	}
	*out = rs;
	return 0;
}

int fw_rules_parse(const char *text, size_t len, struct fw_ruleset **out,
		   struct fw_errors *errs)
{
	struct parser p = { .errs = errs };
	size_t pos = 0;
	int err;

	*out = NULL;
	*errs = (struct fw_errors){ 0 };
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		char line[MAX_LINE + 1];

		p.line++;
		if (end - pos > MAX_LINE) {
			error(&p, FW_ERR_LINE_TOO_LONG,
			      "expected at most %u characters on a line", MAX_LINE);
		} else if (memchr(text + pos, '\0', end - pos)) {
			error(&p, FW_ERR_STATEMENT,
			      "a NUL byte: expected a text file");
		} else {
			memcpy(line, text + pos, end - pos);
			line[end - pos] = '\0';
			parse_line(&p, line);
		}
		pos = end + 1;
	}
	err = finish(&p, out);
	free(p.rules);
	return err;
}

int fw_rules_load(const char *path, struct fw_ruleset **out,
		  struct fw_errors *errs)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	int err = 0;

	*out = NULL;
	*errs = (struct fw_errors){ 0 };
	if (f) {
		text = malloc(MAX_FILE_BYTES + 1);
		if (!text)
			err = -ENOMEM;
		else
			len = fread(text, 1, MAX_FILE_BYTES + 1, f);
		if (!err && ferror(f))
			err = -errno;
		fclose(f);
	} else {
		err = -errno;
	}
	if (!err && len > MAX_FILE_BYTES)
		err = -EFBIG;
	if (!err) {
		err = fw_rules_parse(text, len, out, errs);
	} else {
		struct parser p = { .errs = errs };

		error(&p, FW_ERR_FILE, "%s: %s: expected a readable rule file of at most %u MiB",
		      path, strerror(-err), MAX_FILE_BYTES >> 20);
		err = p.out_of_memory ? -ENOMEM : -EINVAL;
	}
	free(text);
	return err;
}

void fw_rules_free(struct fw_ruleset *rs)
{
	if (!rs)
		return;
	free(rs->rules);
	free(rs->hits);
	free(rs->xdp_base);
	free(rs->xdp_final);
	free(rs->drop_notes);
	free(rs);
}

void fw_errors_free(struct fw_errors *errs)
{
	free(errs->list);
	*errs = (struct fw_errors){ 0 };
}

void fw_error_format(const struct fw_error *e, char *buf, size_t size)
{
	if (e->line)
		snprintf(buf, size, "line %u: %s", e->line, e->text);
	else
		snprintf(buf, size, "%s", e->text);
}

static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

static void append_ether(char *buf, size_t size, size_t *used, uint16_t type)
{
	for (uint32_t i = 0; i < ETHER_NAMES; i++) {
		if (ether_names[i].type == type) {
			append(buf, size, used, " ether %s", ether_names[i].name);
			return;
		}
	}
	append(buf, size, used, " ether 0x%04x", type);
}

void fw_rule_format(const struct fw_rule *r, char *buf, size_t size)
{
	static const char *const protos[] = { "any", "tcp", "udp", "icmp" };
	char prefix[64];
	size_t used = 0;

	buf[0] = '\0';
	append(buf, size, &used, "%s", r->action == FW_ALLOW ? "allow" : "deny");
	if (r->has_ether)
		append_ether(buf, size, &used, r->ether_type);
	if (r->has_src && xskx_prefix_format(&r->src, prefix, sizeof(prefix)) > 0)
		append(buf, size, &used, " src %s", prefix);
	if (r->has_dst && xskx_prefix_format(&r->dst, prefix, sizeof(prefix)) > 0)
		append(buf, size, &used, " dst %s", prefix);
	if (r->proto != FW_PROTO_ANY)
		append(buf, size, &used, " proto %s", protos[r->proto]);
	if (r->has_port && r->port_lo == r->port_hi)
		append(buf, size, &used, " port %u", r->port_lo);
	else if (r->has_port)
		append(buf, size, &used, " port %u-%u", r->port_lo, r->port_hi);
}
