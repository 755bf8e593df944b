// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw's firewall core (examples/xskx-fw/fw.c) on the simulated NIC in
 * deterministic mode, driven in this thread. Crafted packets, one or more
 * per rule kind and per malformed case, go in on port "in"; what comes out
 * of port "out" must be exactly the allowed ones, byte for byte, once each,
 * with every rule's and stage's counters as the rules say. Then a rule set
 * is swapped while traffic flows: nothing allowed by both sets is lost.
 * On ports of several queues, every queue switches to the new set at once.
 * With multi-buffer sockets at MTU 9000, jumbo packets arrive as chains and
 * are judged by their headers and forwarded or dropped whole, interleaved
 * with single-frame ones; a jumbo UDP datagram whose checksum a local stack
 * left partial leaves with it completed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "fw.h"
#include "fw_frames.h"
#include "fw_overlap.h"
#include "helpers.h"
#include "inet_csum.h"

#define MAX_PKTS 1280u
#define MAX_ROUNDS 10000u
#define QUIET_ROUNDS_TO_END 4u

struct pkt {
	uint8_t b[256];
	uint32_t len;
	uint32_t seen;	 /* times it left port "out" */
	bool expect_out;
};

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *ports[2];
	struct fw fw;
	struct pkt pkts[MAX_PKTS];
	uint32_t npkts;
	uint64_t out_unknown, out_stack;
};

/* --- packet building ---------------------------------------------------- */

static struct pkt *add(struct rig *r, bool expect_out)
{
	struct pkt *k = &r->pkts[r->npkts++];

	ck_assert_uint_le(r->npkts, MAX_PKTS);
	memset(k, 0, sizeof(*k));
	k->expect_out = expect_out;
	return k;
}

static void add_ip(struct rig *r, const struct ip_spec *s, bool expect_out)
{
	struct pkt *k = add(r, expect_out);

	k->len = fw_frame_build(k->b, s);
}

static void add_raw(struct rig *r, const uint8_t *bytes, uint32_t len,
		    bool expect_out)
{
	struct pkt *k = add(r, expect_out);

	memcpy(k->b, bytes, len);
	k->len = len;
}

/* --- the rig ------------------------------------------------------------ */

static void record(enum xskx_sim_sink_kind kind, const uint8_t *data,
		   uint32_t len, uint32_t queue, void *ctx)
{
	struct rig *r = ctx;

	(void)queue;
	if (kind != XSKX_SIM_SINK_TX) {
		r->out_stack++;
		return;
	}
	for (uint32_t i = 0; i < r->npkts; i++) {
		if (r->pkts[i].len == len && !memcmp(r->pkts[i].b, data, len)) {
			r->pkts[i].seen++;
			return;
		}
	}
	r->out_unknown++;
}

static struct fw_ruleset *rules(const char *text)
{
	struct fw_ruleset *rs;
	struct fw_errors errs;

	ck_assert_msg(!fw_rules_parse(text, strlen(text), &rs, &errs),
		      "rules: %s", errs.count ? errs.list[0].text : "");
	return rs;
}

/*
 * Two ports of nqueues queues each, a firewall queue on each queue id; the
 * NIC runs in this thread (deterministic) or in its own (threaded).
 */
static void rig_setup_nic(struct rig *r, const char *rule_text,
			  uint32_t nqueues, enum xskx_sim_mode mode)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = mode);
	static const char *const names[2] = { "in", "out" };
	struct fwd_config cfg = { .nports = 2, .frames = 4096 };

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(xskx_sim_create(&r->sim, &sim_opts), 0);
	for (uint32_t i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[i],
			  .queues = nqueues);

		ck_assert_int_eq(xskx_sim_port_create(r->sim, &port_opts,
						      &r->ports[i]),
				 0);
		cfg.ports[i] = test_port(r->ports[i]);
	}
	ck_assert_int_eq(xskx_sim_port_set_sink(r->ports[1], record, r), 0);
	ck_assert_msg(!fw_open(&r->fw, &cfg, nqueues, rules(rule_text)),
		      "fw_open: %s", xskx_last_error());
}

static void rig_setup_queues(struct rig *r, const char *rule_text,
			     uint32_t nqueues)
{
	rig_setup_nic(r, rule_text, nqueues, XSKX_SIM_DETERMINISTIC);
}

static void rig_setup(struct rig *r, const char *rule_text)
{
	rig_setup_queues(r, rule_text, 1);
}

/* One fw_step() on every queue, in order; what they moved, summed. */
static int step_all(struct rig *r)
{
	int sum = 0;

	for (uint32_t k = 0; k < r->fw.nqueues; k++) {
		int moved = fw_step(&r->fw.queues[k]);

		ck_assert_msg(moved >= 0, "fw_step: %s", xskx_strerror(moved));
		sum += moved;
	}
	return sum;
}

static void rig_teardown(struct rig *r)
{
	ck_assert_int_eq(fw_close(&r->fw), 0);
	ck_assert_int_eq(test_sim_destroy(r->sim), 0);
}

/* Run NIC and firewall until quiet; bounded in rounds. */
static void settle(struct rig *r)
{
	uint32_t quiet = 0;

	for (uint32_t round = 0; quiet < QUIET_ROUNDS_TO_END; round++) {
		int polled, moved;

		ck_assert_uint_lt(round, MAX_ROUNDS);
		polled = xskx_sim_poll(r->sim);
		ck_assert_int_ge(polled, 0);
		moved = step_all(r);
		quiet = polled || moved ? 0 : quiet + 1;
	}
}

static void inject_all(struct rig *r)
{
	for (uint32_t i = 0; i < r->npkts; i++)
		ck_assert_int_eq(xskx_sim_port_inject(r->ports[0], r->pkts[i].b,
						      r->pkts[i].len),
				 0);
}

static void assert_out_exactly_expected(const struct rig *r)
{
	for (uint32_t i = 0; i < r->npkts; i++)
		ck_assert_msg(r->pkts[i].seen == (r->pkts[i].expect_out ? 1u : 0u),
			      "packet %u came out %u times, expected %s", i,
			      r->pkts[i].seen,
			      r->pkts[i].expect_out ? "once" : "never");
	ck_assert_uint_eq(r->out_unknown, 0);
	ck_assert_uint_eq(r->out_stack, 0);
}

static uint64_t rule_packets(struct rig *r, uint32_t rule, bool stage1)
{
	struct fw_counter s1, s2;

	fw_rule_counts(&r->fw, r->fw.rules, rule, &s1, &s2);
	return stage1 ? s1.packets : s2.packets;
}

/* --- the cases ---------------------------------------------------------- */

static const char every_rule_kind[] =
	"deny src 203.0.113.128/25\n"			/* 0: stage 1 */
	"deny dst 2001:db8:dead::/48\n"			/* 1: stage 1 */
	"allow src 192.0.2.0/24 proto tcp port 22\n"	/* 2 */
	"deny src 192.0.2.0/24\n"	/* 3: shadowed by 2: stage 2 */
	"deny proto udp port 1000-2000\n"		/* 4 */
	"allow proto icmp\n"				/* 5 */
	"deny dst 198.51.100.0/24 proto tcp\n"		/* 6 */
	"deny dst 2001:db8:1::/48 proto udp port 53\n"	/* 7 */
	"default %s\n";

/* Addresses no prefix rule names (V4 sits beside rule 0's /25). */
#define V4 "203.0.113.7"
#define V4D "203.0.113.1"
#define V6 "2001:db8:2::1"
#define V6D "2001:db8:3::1"

/* Classified packets: which rule each meets, whatever the default. */
static void add_classified(struct rig *r)
{
	/* 0, 1: dropped in the XDP hook */
	add_ip(r, &(struct ip_spec){ .src = "203.0.113.129", .dst = V4D, .proto = IPPROTO_UDP, .dport = 9 }, false);
	add_ip(r, &(struct ip_spec){ .src = "203.0.113.250", .dst = V4D, .proto = IPPROTO_TCP, .dport = 22 }, false);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = "2001:db8:dead::1", .proto = IPPROTO_TCP, .dport = 80 },
	       false);
	/* 2: allowed; with IPv4 options too */
	add_ip(r, &(struct ip_spec){ .src = "192.0.2.5", .dst = V4D, .proto = IPPROTO_TCP, .dport = 22 }, true);
	add_ip(r, &(struct ip_spec){ .src = "192.0.2.6", .dst = V4D, .proto = IPPROTO_TCP, .dport = 22, .ipv4_options = 12 },
	       true);
	/* 3 */
	add_ip(r, &(struct ip_spec){ .src = "192.0.2.5", .dst = V4D, .proto = IPPROTO_TCP, .dport = 23 }, false);
	/* 4: the range's ends; behind VLAN tags; behind IPv6 extension
	 * headers; a first fragment (it has the UDP header) */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1000 }, false);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = V6D, .proto = IPPROTO_UDP, .dport = 2000 }, false);
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1500, .vlans = 1 },
	       false);
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1500, .vlans = 2 },
	       false);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = V6D, .proto = IPPROTO_UDP, .dport = 1500, .ipv6_ext = true },
	       false);
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1500, .more_fragments = true },
	       false);
	/* 5 */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_ICMP }, true);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = V6D, .proto = IPPROTO_ICMPV6 }, true);
	/* 6 */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = "198.51.100.9", .proto = IPPROTO_TCP, .dport = 443 },
	       false);
	/* 7 */
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = "2001:db8:1::5", .proto = IPPROTO_UDP, .dport = 53 },
	       false);
}

/* Classified packets no rule matches, and unclassifiable ones: the default. */
static uint32_t add_default_ones(struct rig *r, bool allow)
{
	static const uint8_t arp[42] = { [12] = 0x08, [13] = 0x06 };
	uint8_t bad_ihl[60];
	uint32_t first = r->npkts;

	/* no rule matches */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 999 }, allow);
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = "198.51.100.9", .proto = IPPROTO_UDP, .dport = 2001 },
	       allow);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = "2001:db8:1::5", .proto = IPPROTO_TCP, .dport = 53 },
	       allow);
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = 47 /* GRE */ }, allow);
	/* not IP */
	add_raw(r, arp, sizeof(arp), allow);
	/* fragments after the first, on IPv4 and IPv6: no UDP header */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1500, .frag_offset = 185 },
	       allow);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = V6D, .proto = IPPROTO_UDP, .dport = 1500, .frag_offset = 185 },
	       allow);
	/* truncated: the TCP header, the IPv6 header, inside a VLAN tag */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_TCP, .dport = 1500, .cut = 22 },
	       allow);
	add_ip(r, &(struct ip_spec){ .src = V6, .dst = V6D, .proto = IPPROTO_UDP, .dport = 1500, .cut = 40 },
	       allow);
	add_raw(r, (const uint8_t[]){ [12] = 0x81, [16] = 0x08 }, 17, allow);
	/* malformed: IPv4 header length 12 bytes */
	memset(bad_ihl, 0, sizeof(bad_ihl));
	fw_frame_eth(bad_ihl, 0x0800, 0);
	bad_ihl[14] = 0x43;
	add_raw(r, bad_ihl, sizeof(bad_ihl), allow);
	/* malformed: a total length below the header's, whose frame still
	 * carries a UDP header to a port rule 4 denies */
	add_ip(r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_UDP, .dport = 1500 }, allow);
	fw_put16(r->pkts[r->npkts - 1].b + 14 + 2, 19);
	return r->npkts - first;
}

static void every_kind(bool default_allow)
{
	static struct rig r;
	char text[sizeof(every_rule_kind) + 8];
	struct fw_stage2 s2;
	struct fw_counter s1;
	uint32_t defaults;

	snprintf(text, sizeof(text), every_rule_kind,
		 default_allow ? "allow" : "deny");
	rig_setup(&r, text);
	for (uint32_t i = 0; i < r.fw.rules->count; i++)
		ck_assert_msg(r.fw.rules->rules[i].in_xdp == (i <= 1),
			      "rule %u in_xdp", i);
	add_classified(&r);
	defaults = add_default_ones(&r, default_allow);
	inject_all(&r);
	settle(&r);
	assert_out_exactly_expected(&r);

	/* Stage 1 dropped the plain packets of rules 0 and 1 itself. */
	ck_assert_uint_eq(rule_packets(&r, 0, true), 2);
	ck_assert_uint_eq(rule_packets(&r, 1, true), 1);
	fw_stage1_total(&r.fw, &s1);
	ck_assert_uint_eq(s1.packets, 3);
	/* Stage 2: each rule's matches */
	ck_assert_uint_eq(rule_packets(&r, 0, false), 0);
	ck_assert_uint_eq(rule_packets(&r, 2, false), 2);
	ck_assert_uint_eq(rule_packets(&r, 3, false), 1);
	ck_assert_uint_eq(rule_packets(&r, 4, false), 6);
	ck_assert_uint_eq(rule_packets(&r, 5, false), 2);
	ck_assert_uint_eq(rule_packets(&r, 6, false), 1);
	ck_assert_uint_eq(rule_packets(&r, 7, false), 1);
	ck_assert_uint_eq(rule_packets(&r, r.fw.rules->count, false), defaults);
	fw_stage2_read(&r.fw, &s2);
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_NOT_IP].packets, 1);
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_FRAGMENT].packets, 2);
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_TRUNCATED].packets, 3);
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_MALFORMED].packets, 2);
	ck_assert_uint_eq(s2.allowed.packets,
			  4 + (default_allow ? defaults : 0));
	ck_assert_uint_eq(s2.allowed.packets + s2.denied.packets + s1.packets,
			  r.npkts);
	ck_assert_uint_eq(r.fw.queues[0].fwd.ports[1].count.tx, s2.allowed.packets);
	rig_teardown(&r);
}

START_TEST(every_rule_kind_default_allow)
{
	every_kind(true);
}
END_TEST

START_TEST(every_rule_kind_default_deny)
{
	every_kind(false);
}
END_TEST

/*
 * A flow the old and the new set both allow keeps flowing through the
 * swap, every packet once; the flows only the new set denies (one in stage
 * 2, one in stage 1) are denied from the first burst after the swap.
 */
#define RELOAD_ROUNDS 400u
#define RELOAD_AT 200u

static void add_tagged(struct rig *r, const struct ip_spec *s, uint32_t round)
{
	struct pkt *k = &r->pkts[r->npkts];

	add_ip(r, s, true);
	k->b[k->len - 1] = (uint8_t)round;
	k->b[k->len - 2] = (uint8_t)(round >> 8);
}

START_TEST(reload_while_traffic_flows)
{
	static struct rig r;
	struct fw_ruleset *old = NULL;
	struct fw_counter s1, s2;
	uint32_t quiet = 0, round;
	uint64_t udp7_out = 0, v4_tcp_out = 0;

	/* The old set's prefix names none of the flows, the new set's V4. */
	rig_setup(&r, "deny src 198.51.100.0/24\ndefault allow\n");
	for (round = 0; round < RELOAD_ROUNDS || quiet < QUIET_ROUNDS_TO_END;
	     round++) {
		uint32_t first = r.npkts;
		int polled, moved;

		ck_assert_uint_lt(round, MAX_ROUNDS);
		if (round == RELOAD_AT) {
			ck_assert_int_eq(fw_install(&r.fw,
						    rules("deny src 203.0.113.0/24\n"
							  "deny proto udp port 7\n"
							  "default allow\n"),
						    &old),
					 0);
			ck_assert(!fw_adopted(&r.fw));
		}
		if (round < RELOAD_ROUNDS) {
			add_tagged(&r, &(struct ip_spec){ .src = "192.0.2.1", .dst = V4D, .proto = IPPROTO_UDP, .dport = 9 },
				   round);
			add_tagged(&r, &(struct ip_spec){ .src = "192.0.2.1", .dst = V4D, .proto = IPPROTO_UDP, .dport = 7 },
				   round);
			add_tagged(&r, &(struct ip_spec){ .src = V4, .dst = V4D, .proto = IPPROTO_TCP, .dport = 80 },
				   round);
			for (uint32_t i = first; i < r.npkts; i++)
				ck_assert_int_eq(xskx_sim_port_inject(
							 r.ports[0], r.pkts[i].b,
							 r.pkts[i].len),
						 0);
		}
		polled = xskx_sim_poll(r.sim);
		moved = step_all(&r);
		ck_assert_int_ge(polled, 0);
		ck_assert_int_ge(moved, 0);
		if (round == RELOAD_AT) {
			/* The step adopted it: the old set is free to go. */
			ck_assert(fw_adopted(&r.fw));
			fw_rules_free(old);
		}
		quiet = round >= RELOAD_ROUNDS && !polled && !moved ? quiet + 1 : 0;
	}
	for (round = 0; round < RELOAD_ROUNDS; round++) {
		const struct pkt *k = &r.pkts[3 * round];

		ck_assert_msg(k[0].seen == 1, "round %u: allowed packet out %u times",
			      round, k[0].seen);
		ck_assert_uint_le(k[1].seen, round < RELOAD_AT ? 1 : 0);
		ck_assert_uint_le(k[2].seen, round < RELOAD_AT ? 1 : 0);
		udp7_out += k[1].seen;
		v4_tcp_out += k[2].seen;
	}
	ck_assert_uint_eq(r.out_unknown, 0);
	/* Every packet the new set denied is counted to its rule. */
	fw_rule_counts(&r.fw, r.fw.rules, 1, &s1, &s2);
	ck_assert_uint_ge(udp7_out, 1);
	ck_assert_uint_eq(s2.packets + udp7_out, RELOAD_ROUNDS);
	fw_rule_counts(&r.fw, r.fw.rules, 0, &s1, &s2);
	ck_assert(r.fw.rules->rules[0].in_xdp);
	ck_assert_uint_ge(v4_tcp_out, 1);
	ck_assert_uint_eq(s1.packets + s2.packets + v4_tcp_out, RELOAD_ROUNDS);
	ck_assert_uint_eq(r.fw.queues[0].fwd.ports[0].count.dropped, 0);
	rig_teardown(&r);
}
END_TEST

/*
 * The overlapping stage-1 rules of fw_overlap.h on the simulated NIC: each
 * packet is counted for the rule first match gives it, in the stage that
 * dropped it.
 */
START_TEST(overlapping_stage1_rules_credit_first_match)
{
	static struct rig r;
	struct fw_counter s1;

	rig_setup(&r, fw_overlap_rules);
	ck_assert_uint_eq(r.fw.rules->count, FW_OVERLAP_RULES);
	for (uint32_t i = 0; i < FW_OVERLAP_RULES; i++)
		ck_assert_msg(r.fw.rules->rules[i].in_xdp ==
				      fw_overlap_in_xdp(i),
			      "rule %u in_xdp", i);
	for (uint32_t k = 0; k < FW_OVERLAP_FRAMES; k++)
		add_ip(&r, &fw_overlap_table[k].spec, fw_overlap_table[k].out);
	inject_all(&r);
	settle(&r);
	assert_out_exactly_expected(&r);
	for (uint32_t i = 0; i < FW_OVERLAP_RULES; i++) {
		ck_assert_msg(rule_packets(&r, i, true) ==
				      fw_overlap_stage1[i],
			      "rule %u: stage 1 counted %llu, expected %llu", i,
			      (unsigned long long)rule_packets(&r, i, true),
			      (unsigned long long)fw_overlap_stage1[i]);
		ck_assert_msg(rule_packets(&r, i, false) ==
				      fw_overlap_stage2[i],
			      "rule %u: stage 2 counted %llu, expected %llu", i,
			      (unsigned long long)rule_packets(&r, i, false),
			      (unsigned long long)fw_overlap_stage2[i]);
	}
	ck_assert_uint_eq(rule_packets(&r, FW_OVERLAP_RULES, false),
			  fw_overlap_default);
	fw_stage1_total(&r.fw, &s1);
	ck_assert_uint_eq(s1.packets, fw_overlap_stage1_total());
	rig_teardown(&r);
}
END_TEST

/*
 * Reloads under traffic: summed over every set, the per-rule counters of
 * both stages (and the default's) count each packet the source offered
 * exactly once, stage 1's agree with the port's own XDP drops, and the
 * stage totals with both. Each old set is read after the new one has
 * judged packets, in both stages.
 */
#define HANDOVER_PACKETS 20000u
#define HANDOVER_RELOADS 100u
#define HANDOVER_ROUNDS 3u

static uint64_t set_total(const struct fw *fw, const struct fw_ruleset *rs,
			  uint64_t *stage1)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i <= rs->count; i++) {
		struct fw_counter s1, s2;

		fw_rule_counts(fw, rs, i, &s1, &s2);
		*stage1 += s1.packets;
		total += s1.packets + s2.packets;
	}
	return total;
}

/* One NIC poll (the source sends a burst) and one firewall step. */
static int poll_and_step(struct rig *r)
{
	int polled = xskx_sim_poll(r->sim), moved = step_all(r);

	ck_assert_int_ge(polled, 0);
	ck_assert_int_ge(moved, 0);
	return polled + moved;
}

START_TEST(reload_counts_every_packet_once)
{
	/* The source sends UDP 192.0.2.1 -> 192.0.2.2. */
	static const char *const sets[] = {
		"deny src 192.0.2.0/24\ndefault allow\n",
		"deny dst 192.0.2.2\ndeny src 192.0.2.0/24\ndefault allow\n",
		"deny proto udp\ndefault allow\n",
		"allow proto udp port 9\ndeny src 192.0.2.0/24\ndefault deny\n",
	};
	XSKX_OPTS(xskx_sim_source_opts, source, .count = HANDOVER_PACKETS,
		  .flows = 8, .burst = 16);
	uint64_t counted = 0, stage1 = 0;
	struct xskx_sim_port_stats in, out;
	struct fw_counter s1;
	struct fw_stage2 s2;
	static struct rig r;
	uint32_t quiet = 0;

	rig_setup(&r, sets[0]);
	ck_assert_int_eq(xskx_sim_port_add_source(r.ports[0], &source), 0);
	for (uint32_t k = 0; k < HANDOVER_RELOADS; k++) {
		struct fw_ruleset *old;

		for (uint32_t i = 0; i < HANDOVER_ROUNDS; i++)
			poll_and_step(&r);
		ck_assert_int_eq(fw_install(&r.fw, rules(sets[(k + 1) % 4]),
					    &old), 0);
		/* The new set judges in both stages before the old is read. */
		for (uint32_t i = 0; i < HANDOVER_ROUNDS; i++)
			poll_and_step(&r);
		ck_assert(fw_adopted(&r.fw));
		counted += set_total(&r.fw, old, &stage1);
		fw_rules_free(old);
	}
	for (uint32_t round = 0; quiet < QUIET_ROUNDS_TO_END; round++) {
		ck_assert_uint_lt(round, MAX_ROUNDS);
		quiet = poll_and_step(&r) || xskx_sim_sources_active(r.sim) ?
				0 : quiet + 1;
	}
	counted += set_total(&r.fw, r.fw.rules, &stage1);

	ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
	ck_assert_int_eq(xskx_sim_port_stats(r.ports[1], &out), 0);
	fw_stage1_total(&r.fw, &s1);
	fw_stage2_read(&r.fw, &s2);
	ck_assert_uint_eq(in.rx_packets, HANDOVER_PACKETS);
	ck_assert_uint_eq(counted, in.rx_packets - in.rx_missed);
	ck_assert_uint_eq(stage1, in.xdp_drop);
	ck_assert_uint_eq(s1.packets, in.xdp_drop);
	ck_assert_uint_eq(s2.allowed.packets + s2.denied.packets,
			  in.xdp_redirect);
	ck_assert_uint_eq(s2.allowed.packets, out.tx_packets);
	/* The reloads happened under traffic; both stages did work. */
	ck_assert_uint_gt(in.xdp_drop, 0);
	ck_assert_uint_gt(s2.denied.packets, 0);
	ck_assert_uint_gt(s2.allowed.packets, 0);
	ck_assert_uint_gt(in.rx_packets, HANDOVER_RELOADS);
	rig_teardown(&r);
}
END_TEST

/*
 * Four queues, one rule set. RSS spreads the source's 32 flows over the
 * queues; then a reload to a set that denies the source's packets in user
 * space. The guarantee of fw.h: from fw_install()'s return no queue starts
 * a burst with the old set. So after it, on every queue, the old set's
 * counters stay where they were, nothing more is forwarded than was held
 * at the swap, and every packet received is denied by the new set; each
 * packet is counted once, by one set, summed over the queues.
 */
#define MQ_QUEUES 4u
#define MQ_ROUNDS 60u

START_TEST(reload_switches_every_queue)
{
	XSKX_OPTS(xskx_sim_source_opts, source, .count = 100000,
		  .flows = 8 * MQ_QUEUES, .burst = 16);
	uint64_t rx0[MQ_QUEUES], tx0[MQ_QUEUES], held0[MQ_QUEUES];
	uint64_t old_stage1 = 0, new_stage1 = 0, old_total, counted;
	struct xskx_sim_port_stats in;
	struct fw_ruleset *old;
	static struct rig r;
	uint32_t quiet = 0;

	rig_setup_queues(&r, "default allow\n", MQ_QUEUES);
	ck_assert_int_eq(xskx_sim_port_add_source(r.ports[0], &source), 0);
	for (uint32_t i = 0; i < MQ_ROUNDS; i++)
		poll_and_step(&r);
	for (uint32_t k = 0; k < MQ_QUEUES; k++) {
		const struct fwd_queue *q = &r.fw.queues[k].fwd;

		/* Every queue had its share, and forwarded it. */
		ck_assert_msg(q->ports[0].count.rx > 0, "queue %u received nothing", k);
		ck_assert_uint_gt(q->ports[1].count.tx, 0);
		rx0[k] = q->ports[0].count.rx;
		tx0[k] = q->ports[1].count.tx;
		held0[k] = fwd_held(q);
	}
	ck_assert_int_eq(fw_install(&r.fw, rules("deny proto udp port 9\n"
						 "default allow\n"),
				    &old),
			 0);
	old_total = set_total(&r.fw, old, &old_stage1);
	for (uint32_t i = 0; i < MQ_ROUNDS; i++)
		poll_and_step(&r);
	ck_assert(fw_adopted(&r.fw));
	ck_assert_uint_eq(set_total(&r.fw, old, &old_stage1), old_total);
	for (uint32_t k = 0; k < MQ_QUEUES; k++) {
		const struct fw_queue *q = &r.fw.queues[k];
		uint64_t rx = q->fwd.ports[0].count.rx - rx0[k];

		ck_assert_msg(q->in_use == r.fw.rules, "queue %u kept the old set", k);
		ck_assert_msg(rx > 0, "queue %u received nothing after the reload", k);
		ck_assert_uint_le(q->fwd.ports[1].count.tx - tx0[k], held0[k]);
		/* Its stage-2 denials are the new set's: all it received since. */
		ck_assert_uint_eq(q->stage2.denied.packets, rx);
	}
	for (uint32_t round = 0; quiet < QUIET_ROUNDS_TO_END; round++) {
		ck_assert_uint_lt(round, MAX_ROUNDS);
		quiet = poll_and_step(&r) || xskx_sim_sources_active(r.sim) ?
				0 : quiet + 1;
	}
	counted = set_total(&r.fw, old, &old_stage1) +
		  set_total(&r.fw, r.fw.rules, &new_stage1);
	fw_rules_free(old);
	ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
	ck_assert_uint_eq(in.rx_packets, 100000);
	ck_assert_uint_eq(counted, in.rx_packets - in.rx_missed);
	rig_teardown(&r);
}
END_TEST

/* --- multi-buffer: jumbo chains ---------------------------------------- */

#define JUMBO_PKTS 24u
#define JUMBO_MAX 9014u

struct jumbo_sink {
	uint8_t sent[JUMBO_PKTS][JUMBO_MAX];
	uint32_t len[JUMBO_PKTS];
	uint32_t seen[JUMBO_PKTS];
	bool partial[JUMBO_PKTS];
	uint64_t unknown, bad_csum;
};

/* UDP/IPv4's pseudo-header sum of the frame at p (no VLAN). */
static uint32_t udp4_pseudo(const uint8_t *p, uint32_t len)
{
	return inet_csum_fold(
		inet_csum_add(IPPROTO_UDP + (len - 34), p + 26, 8));
}

/*
 * Packet i: UDP/IPv4 to port 7 (denied) when i % 3 == 1, else port 9;
 * jumbo (8000 + i bytes, odd and even) when i is even, 200 bytes else;
 * packet 6's checksum partial, the others' 0 (none).
 */
static uint32_t jumbo_build(uint8_t *p, uint32_t i)
{
	uint32_t len = i % 2 ? 200 : 8000 + i, l3 = fw_frame_eth(p, 0x0800, 0);

	p[l3] = 0x45;
	fw_put16(p + l3 + 2, (uint16_t)(len - l3));
	p[l3 + 8] = 64;
	p[l3 + 9] = IPPROTO_UDP;
	memcpy(p + l3 + 12, (const uint8_t[]){ 192, 0, 2, 1, 192, 0, 2, 2 }, 8);
	fw_put16(p + l3 + 20, (uint16_t)(1000 + i));
	fw_put16(p + l3 + 22, i % 3 == 1 ? 7 : 9);
	fw_put16(p + l3 + 24, (uint16_t)(len - l3 - 20));
	fw_put16(p + l3 + 26, 0);
	for (uint32_t k = l3 + 28; k < len; k++)
		p[k] = (uint8_t)(k * 31 + i);
	if (i == 6)
		fw_put16(p + l3 + 26, (uint16_t)udp4_pseudo(p, len));
	return len;
}

static void jumbo_record(enum xskx_sim_sink_kind kind, const uint8_t *data,
			 uint32_t len, uint32_t queue, void *ctx)
{
	struct jumbo_sink *s = ctx;
	uint32_t i = len >= 36 ? (uint32_t)(data[34] << 8 | data[35]) - 1000 :
				 JUMBO_PKTS;

	(void)queue;
	if (kind != XSKX_SIM_SINK_TX || i >= JUMBO_PKTS || len != s->len[i]) {
		s->unknown++;
		return;
	}
	s->seen[i]++;
	if (s->partial[i]) {
		/* Completed: it verifies, and only the field changed. */
		uint32_t acc = inet_csum_add(udp4_pseudo(data, len), data + 34,
					     len - 34);

		if (inet_csum_fold(acc) != 0xffff ||
		    memcmp(data, s->sent[i], 40) ||
		    memcmp(data + 42, s->sent[i] + 42, len - 42))
			s->bad_csum++;
	} else if (memcmp(data, s->sent[i], len)) {
		s->unknown++;
	}
}

START_TEST(multi_buffer_chains_judged_whole)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	static struct jumbo_sink sink;
	static const char *const names[2] = { "in", "out" };
	struct fwd_config cfg = { .nports = 2, .frames = 4096,
				  .multi_buffer = true };
	struct fw_stage2 st;
	struct fw fw;
	struct xskx_sim *sim;
	struct xskx_sim_port *ports[2];
	uint32_t quiet = 0, allowed = 0;

	memset(&sink, 0, sizeof(sink));
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	for (uint32_t i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[i],
			  .mtu = 9000);

		ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &ports[i]),
				 0);
		cfg.ports[i] = test_port(ports[i]);
	}
	ck_assert_int_eq(xskx_sim_port_set_sink(ports[1], jumbo_record, &sink),
			 0);
	ck_assert_msg(!fw_open(&fw, &cfg, 1,
			       rules("deny proto udp port 7\ndefault allow\n")),
		      "fw_open: %s", xskx_last_error());
	for (uint32_t i = 0; i < JUMBO_PKTS; i++) {
		sink.len[i] = jumbo_build(sink.sent[i], i);
		sink.partial[i] = i == 6;
		allowed += i % 3 != 1;
		ck_assert_int_eq(xskx_sim_port_inject(ports[0], sink.sent[i],
						      sink.len[i]),
				 0);
	}
	for (uint32_t round = 0; quiet < QUIET_ROUNDS_TO_END; round++) {
		int polled, moved;

		ck_assert_uint_lt(round, MAX_ROUNDS);
		polled = xskx_sim_poll(sim);
		ck_assert_int_ge(polled, 0);
		moved = fw_step(&fw.queues[0]);
		ck_assert_msg(moved >= 0, "fw_step: %s", xskx_strerror(moved));
		quiet = polled || moved ? 0 : quiet + 1;
	}
	for (uint32_t i = 0; i < JUMBO_PKTS; i++)
		ck_assert_msg(sink.seen[i] == (i % 3 != 1),
			      "packet %u (%u bytes) left %u times", i,
			      sink.len[i], sink.seen[i]);
	ck_assert_uint_eq(sink.unknown, 0);
	ck_assert_uint_eq(sink.bad_csum, 0);
	fw_stage2_read(&fw, &st);
	ck_assert_uint_eq(st.allowed.packets, allowed);
	ck_assert_uint_eq(st.denied.packets, JUMBO_PKTS - allowed);
	ck_assert_uint_eq(fw.queues[0].fwd.ports[0].count.rx, JUMBO_PKTS);
	ck_assert_uint_eq(fw.queues[0].fwd.ports[1].count.tx, allowed);
	ck_assert_uint_eq(fw.queues[0].fwd.ports[0].count.csum_completed, 1);
	ck_assert_int_eq(fw_close(&fw), 0);
	ck_assert_int_eq(test_sim_destroy(sim), 0);
}
END_TEST

/*
 * A deny-by-default firewall real clients get through: ARP by its
 * EtherType (plain and behind a VLAN tag), ICMP of both families (IPv6's
 * neighbour discovery is ICMPv6), one UDP port. LLDP, the other UDP port
 * and IPv4 behind "allow ether ipv6" meet the default. Each packet comes
 * out or not as its rule says, and is counted for that rule.
 */
START_TEST(non_ip_by_ethertype_default_deny)
{
	uint8_t arp[42] = { 0 }, arp_tagged[46] = { 0 }, lldp[60] = { 0 };
	static struct rig r;
	struct fw_stage2 s2;

	rig_setup(&r, "allow ether arp\n"		  /* 0 */
		      "allow proto icmp\n"		  /* 1 */
		      "allow ether ipv6 proto udp port 53\n" /* 2 */
		      "allow ether ipv4 proto udp port 9\n" /* 3 */
		      "default deny\n");
	fw_frame_eth(arp, 0x0806, 0);
	add_raw(&r, arp, sizeof(arp), true);
	fw_frame_eth(arp_tagged, 0x0806, 1);
	add_raw(&r, arp_tagged, sizeof(arp_tagged), true);
	fw_frame_eth(lldp, 0x88cc, 0);
	add_raw(&r, lldp, sizeof(lldp), false);
	add_ip(&r, &(struct ip_spec){ .src = V6, .dst = V6D,
				      .proto = IPPROTO_ICMPV6 }, true);
	add_ip(&r, &(struct ip_spec){ .src = V4, .dst = V4D,
				      .proto = IPPROTO_ICMP }, true);
	add_ip(&r, &(struct ip_spec){ .src = V6, .dst = V6D,
				      .proto = IPPROTO_UDP, .dport = 53 }, true);
	add_ip(&r, &(struct ip_spec){ .src = V4, .dst = V4D,
				      .proto = IPPROTO_UDP, .dport = 53 }, false);
	add_ip(&r, &(struct ip_spec){ .src = V4, .dst = V4D,
				      .proto = IPPROTO_UDP, .dport = 9 }, true);
	add_ip(&r, &(struct ip_spec){ .src = V6, .dst = V6D,
				      .proto = IPPROTO_UDP, .dport = 9 }, false);
	inject_all(&r);
	settle(&r);
	assert_out_exactly_expected(&r);
	ck_assert_uint_eq(rule_packets(&r, 0, false), 2);
	ck_assert_uint_eq(rule_packets(&r, 1, false), 2);
	ck_assert_uint_eq(rule_packets(&r, 2, false), 1);
	ck_assert_uint_eq(rule_packets(&r, 3, false), 1);
	ck_assert_uint_eq(rule_packets(&r, 4, false), 3); /* the default */
	fw_stage2_read(&r.fw, &s2);
	/* Not IP, whichever rule judged them. */
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_NOT_IP].packets, 3);
	ck_assert_uint_eq(s2.allowed.packets, 6);
	ck_assert_uint_eq(s2.denied.packets, 3);
	rig_teardown(&r);
}
END_TEST

/*
 * A deny line written twice: the firewall starts (the deny list takes a
 * prefix once, so only the first goes to stage 1) and every packet of the
 * prefix counts for the first line, in stage 1; the second counts none.
 */
START_TEST(duplicate_deny_rules_credit_the_first)
{
	static const struct ip_spec denied[] = {
		{ .src = "192.0.2.1", .dst = "203.0.113.1",
		  .proto = IPPROTO_UDP, .dport = 53 },
		{ .src = "203.0.113.9", .dst = "198.51.100.7",
		  .proto = IPPROTO_TCP, .dport = 80 },
	};
	static struct rig r;

	rig_setup(&r, "deny src 192.0.2.0/24\ndeny src 192.0.2.0/24\n"
		      "deny dst 198.51.100.7\ndeny dst 198.51.100.7/32\n"
		      "default allow\n");
	for (uint32_t k = 0; k < 2; k++)
		for (uint32_t i = 0; i < 10; i++)
			add_ip(&r, &denied[k], false);
	inject_all(&r);
	settle(&r);
	assert_out_exactly_expected(&r);
	for (uint32_t i = 0; i < 4; i++) {
		uint64_t want = i % 2 ? 0 : 10;

		ck_assert_msg(rule_packets(&r, i, true) == want,
			      "rule %u: stage 1 counted %llu, expected %llu", i,
			      (unsigned long long)rule_packets(&r, i, true),
			      (unsigned long long)want);
		ck_assert_uint_eq(rule_packets(&r, i, false), 0);
	}
	rig_teardown(&r);
}
END_TEST

/*
 * Reloads while the NIC runs in its own thread, so that packets arrive
 * between the steps of fw_install(): after the new set's XDP counters are
 * read, while the deny lists are swapped, before the old set's are frozen.
 * Every set denies the source's packets in stage 1 with its rule 0, so
 * both banks count the same packets in turn; the stage-1 total over every
 * set must be the port's own XDP drops, no packet lost between two sets
 * and none counted by both. The loop goes on until packets were dropped
 * during fw_install() calls (PACKETS_IN_RELOADS of them), bounded in time.
 */
#define RUNNING_RELOADS_MIN 50u
#define RUNNING_RELOADS_MAX 100000u
#define PACKETS_IN_RELOADS 1000u
#define RUNNING_SECONDS 30.0

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

START_TEST(reload_under_a_running_nic)
{
	XSKX_OPTS(xskx_sim_source_opts, source, .flows = 8, .burst = 16);
	uint64_t in_reloads = 0, reloads = 0;
	struct xskx_sim_port_stats in;
	double until = now_s() + RUNNING_SECONDS;
	struct fw_counter s1;
	static struct rig r;

	rig_setup_nic(&r, "deny src 192.0.2.0/24\ndefault allow\n", 1,
		      XSKX_SIM_THREADED);
	ck_assert_int_eq(xskx_sim_port_add_source(r.ports[0], &source), 0);
	ck_assert_int_eq(xskx_sim_start(r.sim), 0);
	while (reloads < RUNNING_RELOADS_MIN ||
	       in_reloads < PACKETS_IN_RELOADS) {
		struct fw_ruleset *old;
		uint64_t before;

		ck_assert_msg(reloads < RUNNING_RELOADS_MAX &&
				      now_s() < until,
			      "%llu reloads: only %llu packets arrived during them",
			      (unsigned long long)reloads,
			      (unsigned long long)in_reloads);
		ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
		before = in.xdp_drop;
		ck_assert_int_eq(fw_install(&r.fw,
					    rules("deny src 192.0.2.0/24\n"
						  "default allow\n"),
					    &old),
				 0);
		ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
		in_reloads += in.xdp_drop - before;
		reloads++;
		fw_rules_free(old);
	}
	ck_assert_int_eq(xskx_sim_stop(r.sim), 0);
	ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
	fw_stage1_total(&r.fw, &s1);
	ck_assert_uint_gt(in.xdp_drop, 0);
	ck_assert_msg(s1.packets == in.xdp_drop,
		      "stage 1 counted %llu packets over %llu reloads, the port dropped %llu",
		      (unsigned long long)s1.packets,
		      (unsigned long long)reloads,
		      (unsigned long long)in.xdp_drop);
	rig_teardown(&r);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("fw_example_sim");

	test_add_case(s, "every_rule_kind_default_allow",
		 every_rule_kind_default_allow);
	test_add_case(s, "every_rule_kind_default_deny", every_rule_kind_default_deny);
	test_add_case(s, "reload_while_traffic_flows", reload_while_traffic_flows);
	test_add_case(s, "overlapping_stage1_rules_credit_first_match",
		 overlapping_stage1_rules_credit_first_match);
	test_add_case(s, "reload_counts_every_packet_once",
		 reload_counts_every_packet_once);
	test_add_case(s, "reload_switches_every_queue", reload_switches_every_queue);
	test_add_case(s, "multi_buffer_chains_judged_whole",
		 multi_buffer_chains_judged_whole);
	test_add_case(s, "reload_under_a_running_nic", reload_under_a_running_nic);
	test_add_case(s, "non_ip_by_ethertype_default_deny",
		 non_ip_by_ethertype_default_deny);
	test_add_case(s, "duplicate_deny_rules_credit_the_first",
		 duplicate_deny_rules_credit_the_first);
	return test_main(s, argc, argv);
}
