/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-fw's rule set: the rule file's grammar, its parser, the matcher and
 * the split into the two stages.
 *
 * The file, one statement per line, '#' starts a comment:
 *
 *   default allow|deny                 exactly once: what matches no rule
 *   allow|deny [ether TYPE] [src PREFIX] [dst PREFIX]
 *              [proto tcp|udp|icmp|any] [port N|N-M]
 *
 * The conditions come in any order, each at most once; a rule with none
 * matches every classified (IP) packet. PREFIX is an IPv4 or IPv6 prefix
 * ("192.0.2.0/24", "2001:db8::/32") or a bare address; src and dst of one
 * rule are of one family. icmp is ICMP on IPv4 and ICMPv6 on IPv6 (whose
 * neighbour discovery it is). port is the destination port and needs proto
 * tcp or udp. ether is the EtherType inside the VLAN tags: arp, ipv4, ipv6
 * or a number 0x0600-0xffff; ipv4 and ipv6 are the IP packets of that
 * family and combine with the other conditions, any other type is the
 * packets that are not IP of that type (ARP, LLDP...) and stands alone.
 * The first rule that matches a packet decides; "default" applies when
 * none does, and to every packet that cannot be classified (truncated,
 * malformed, a fragment other than the first, or not IP and of no ether
 * rule's type).
 */
#ifndef XSKX_FW_RULES_H
#define XSKX_FW_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/filter.h>
#include <xskx/packet.h>

/*
 * Rule ids are the XDP program's counters, one per rule, in two banks: a
 * rule set uses the bank its predecessor does not (fw.c), so that the
 * counters of the two never mix while the deny list is swapped.
 */
#define FW_MAX_RULES (XSKX_FILTER_MAX_RULES / 2)

/* The IP family of an EtherType: AF_INET, AF_INET6, or 0 (not IP). */
uint8_t fw_ether_family(uint16_t ether_type);

enum fw_action { FW_DENY = 0, FW_ALLOW = 1 };

enum fw_proto { FW_PROTO_ANY = 0, FW_PROTO_TCP, FW_PROTO_UDP, FW_PROTO_ICMP };

struct fw_rule {
	enum fw_action action;
	bool has_src, has_dst, has_port, has_ether;
	uint16_t ether_type; /* has_ether: the EtherType, host order */
	struct xskx_prefix src, dst;
	enum fw_proto proto;
	uint16_t port_lo, port_hi; /* destination port range, inclusive */
	uint32_t line;		   /* in the rule file */
	bool in_xdp;		   /* stage 1: also dropped in the XDP program */
};

/* Packets and bytes, each written by one thread, read by any. */
struct fw_counter {
	uint64_t packets;
	uint64_t bytes;
};

struct fw_ruleset {
	struct fw_rule *rules;
	uint32_t count;
	enum fw_action default_action;
	/*
	 * Matches in user space (stage 2), per rule (count + 1 slots, the
	 * default last), a row of them per forwarding queue so that each row
	 * has one writer: row r at hits[r * (count + 1)].
	 */
	struct fw_counter *hits;
	uint32_t hit_rows; /* 1 from the parser; fw.c adds one per queue */
	/* The XDP rule id of rules[0]: 0 or FW_MAX_RULES (set by fw.c). */
	uint32_t id_base;
	/* The XDP program's per-rule counters when this set was installed. */
	struct xskx_filter_counters *xdp_base;
	/* Set when replaced: what stage 1 dropped for each rule, final. */
	bool replaced;
	struct fw_counter *xdp_final;
	/*
	 * With a drops capture (fw.c): rule i's comment for the frames it
	 * denies, "line N: RULE", at drop_notes + i * FW_DROP_NOTE_MAX.
	 */
	char *drop_notes;
};

#define FW_DROP_NOTE_MAX 192

/* What is wrong with a rule file: one entry per mistake. */
enum fw_error_kind {
	FW_ERR_STATEMENT,	/* not allow, deny or default */
	FW_ERR_KEYWORD,		/* not src, dst, proto, port or ether */
	FW_ERR_MISSING_VALUE,	/* a keyword at the end of the line */
	FW_ERR_PREFIX,
	FW_ERR_PROTO,
	FW_ERR_PORT,
	FW_ERR_REPEATED,	/* a keyword twice in one rule */
	FW_ERR_PORT_PROTO,	/* port without proto tcp or udp */
	FW_ERR_FAMILY,		/* src, dst and ether of different families */
	FW_ERR_ETHER,		/* not an EtherType, or IP conditions on non-IP */
	FW_ERR_DEFAULT,		/* a second default, or words after it */
	FW_ERR_NO_DEFAULT,
	FW_ERR_TOO_MANY_RULES,
	FW_ERR_LINE_TOO_LONG,
	FW_ERR_FILE,		/* cannot read the file (line 0) */
};

struct fw_error {
	uint32_t line; /* 0: the file as a whole */
	enum fw_error_kind kind;
	char text[320]; /* what was found and what was expected */
};

struct fw_errors {
	struct fw_error *list;
	uint32_t count;
};

/*
 * Parse a whole rule file held in text[0..len). Returns 0 with *out set, or
 * -EINVAL with every error in *errs and *out NULL: never half a rule set.
 * -ENOMEM when memory ran out.
 */
int fw_rules_parse(const char *text, size_t len, struct fw_ruleset **out,
		   struct fw_errors *errs);

/* Read and parse the file at path (errors: as fw_rules_parse, FW_ERR_FILE). */
int fw_rules_load(const char *path, struct fw_ruleset **out,
		  struct fw_errors *errs);

void fw_rules_free(struct fw_ruleset *rs);
void fw_errors_free(struct fw_errors *errs);

/* "line 3: ..." or the file-wide error's text, for printing. */
void fw_error_format(const struct fw_error *e, char *buf, size_t size);

/* The rule as it would be written in the file (canonical order). */
void fw_rule_format(const struct fw_rule *rule, char *buf, size_t size);

/*
 * The first rule that matches a packet, as its index, or -1 when none
 * does: the default applies. A classified packet (XSKX_PKT_L4 or
 * XSKX_PKT_L3) meets every rule; one that is not IP (XSKX_PKT_NOT_IP) the
 * ether rules of other types; any other, none.
 */
int fw_rules_match(const struct fw_ruleset *rs, const struct xskx_pkt_view *v);

/*
 * Decide which rules the XDP program can apply (sets rule.in_xdp) and fill
 * entries[0..) with them, rule id = rs->id_base + rule index. Returns the entry count
 * (at most rs->count).
 */
uint32_t fw_rules_split(struct fw_ruleset *rs,
			struct xskx_filter_entry *entries);

#endif /* XSKX_FW_RULES_H */
