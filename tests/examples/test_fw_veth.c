// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw's firewall core on real AF_XDP sockets, inside a private network
 * namespace (tests/veth/netns.c) with a veth pair on each side:
 *
 *   outerA <-> inA  [firewall]  inB <-> outB
 *
 * UDP/IPv4 frames sent on outerA through an AF_PACKET socket: those the
 * rules allow must come out of outB, each once and intact; those from a
 * denied prefix (stage 1: the XDP program, when the kernel backend has the
 * deny list) and to a denied port (stage 2) never; every one is counted to
 * its rule. Overlapping stage-1 rules (nested prefixes in both orders,
 * source against destination, IPv6): each crafted frame is counted to the
 * first rule that matches it, in the stage that judged it. Afterwards no
 * XDP program is left. Needs root; exits 77 without it.
 */
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "example_veth.h"
#include "fw.h"
#include "fw_frames.h"
#include "fw_overlap.h"
#include "helpers.h"
#include "netns.h"

#define OUTER_A "xfwa0"
#define IN_A "xfwa1"
#define IN_B "xfwb1"
#define OUTER_B "xfwb0"

#define PACKETS 1500u /* a third of each kind */
#define SEND_PER_ROUND 16u
#define MAX_ROUNDS 200000u
#define TIME_LIMIT_S 20
#define CASE_TIMEOUT_S (2 * TIME_LIMIT_S + 10)
#define PKT_LEN 96u

static const char rule_text[] = "deny src 203.0.113.0/24\n" /* 0: stage 1 */
				"deny proto udp port 7\n"   /* 1: stage 2 */
				"default allow\n";

struct raw_port {
	int fd;
	uint8_t seen[PACKETS];
	uint32_t received, corrupt;
};

static void raw_open(struct raw_port *p, const char *ifname)
{
	memset(p, 0, sizeof(*p));
	p->fd = example_raw_socket(ifname, ETH_P_IP);
}

/* seq % 3: 0 allowed, 1 from 203.0.113.0/24, 2 to UDP port 7. */
static void build_frame(uint8_t *f, uint32_t seq)
{
	uint8_t *ip = f + 14, *udp = f + 34;

	memset(f, 0, PKT_LEN);
	memcpy(f, veth_mac_b, 6);
	memcpy(f + 6, veth_mac_a, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = 0, ip[3] = PKT_LEN - 14;
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12,
	       seq % 3 == 1 ? (uint8_t[]){ 203, 0, 113, 9 } :
			      (uint8_t[]){ 192, 0, 2, 1 },
	       4);
	memcpy(ip + 16, (uint8_t[]){ 198, 51, 100, 1 }, 4);
	udp[0] = 0x9c, udp[1] = 0x40;
	udp[3] = seq % 3 == 2 ? 7 : 9;
	udp[5] = PKT_LEN - 34;
	memcpy(udp + 8, &seq, sizeof(seq));
	for (uint32_t i = 46; i < PKT_LEN; i++)
		f[i] = (uint8_t)(seq * 13 + i);
}

/* Read every waiting frame that arrived (not one we sent ourselves). */
static void raw_drain(struct raw_port *p)
{
	for (uint32_t i = 0; i < 4 * PACKETS; i++) {
		uint8_t f[PKT_LEN + 64], expected[PKT_LEN];
		ssize_t n = example_raw_recv(p->fd, f, sizeof(f));
		uint32_t seq;

		if (n < 0)
			return;
		if (!n)
			continue;
		p->received++;
		memcpy(&seq, f + 42, sizeof(seq));
		if (n != PKT_LEN || seq >= PACKETS) {
			p->corrupt++;
			continue;
		}
		build_frame(expected, seq);
		if (memcmp(f, expected, PKT_LEN))
			p->corrupt++;
		p->seen[seq]++;
	}
}

static uint64_t judged(struct fw *fw)
{
	struct fw_counter s1;
	struct fw_stage2 s2;

	fw_stage1_total(fw, &s1);
	fw_stage2_read(fw, &s2);
	return s1.packets + s2.allowed.packets + s2.denied.packets;
}

static const char *const inner[] = { IN_A, IN_B };

static void firewall(enum xskx_xdp_mode mode)
{
	static struct raw_port outer_a, outer_b;
	struct fwd_config cfg = {
		.nports = 2,
	};
	struct fw_ruleset *rs;
	struct fw_errors errs;
	struct fw_counter s1, s2;
	struct timespec deadline;
	uint32_t sent = 0;
	struct fw fw;

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	ck_assert_int_eq(fw_rules_parse(rule_text, strlen(rule_text), &rs, &errs),
			 0);
	example_ports_open(cfg.ports, inner, 2, mode);
	ck_assert_msg(!fw_open(&fw, &cfg, 1, rs), "fw_open: %s", xskx_last_error());
	raw_open(&outer_a, OUTER_A);
	raw_open(&outer_b, OUTER_B);

	deadline = example_deadline(TIME_LIMIT_S);
	for (uint32_t round = 0; judged(&fw) < PACKETS; round++) {
		int moved;

		if (round >= MAX_ROUNDS || example_past(&deadline))
			break;
		for (uint32_t n = 0; n < SEND_PER_ROUND && sent < PACKETS; n++) {
			uint8_t f[PKT_LEN];

			build_frame(f, sent++);
			ck_assert_msg(send(outer_a.fd, f, PKT_LEN, 0) == PKT_LEN,
				      "send: %s", strerror(errno));
		}
		moved = fw_step(&fw.queues[0]);
		ck_assert_msg(moved >= 0, "fw_step: %s", xskx_strerror(moved));
		raw_drain(&outer_b);
		if (!moved && sent == PACKETS)
			poll(NULL, 0, 1);
	}
	/* The last allowed frames may still be on their way out of inB. */
	for (uint32_t i = 0; i < 1000 && outer_b.received < PACKETS / 3; i++) {
		fw_step(&fw.queues[0]);
		raw_drain(&outer_b);
		poll(NULL, 0, 1);
	}
	ck_assert_uint_eq(outer_b.corrupt, 0);
	for (uint32_t seq = 0; seq < PACKETS; seq++)
		ck_assert_msg(outer_b.seen[seq] == (seq % 3 == 0),
			      "frame %u (kind %u) came out %u times", seq,
			      seq % 3, outer_b.seen[seq]);

	fw_rule_counts(&fw, fw.rules, 0, &s1, &s2);
	ck_assert_uint_eq(fw.rules->rules[0].in_xdp, fw.xdp_stage);
	ck_assert_uint_eq(s1.packets + s2.packets, PACKETS / 3);
	if (fw.xdp_stage)
		ck_assert_uint_eq(s1.packets, PACKETS / 3);
	fw_rule_counts(&fw, fw.rules, 1, &s1, &s2);
	ck_assert_uint_eq(s2.packets, PACKETS / 3);
	fw_rule_counts(&fw, fw.rules, 2, &s1, &s2);
	ck_assert_uint_eq(s2.packets, PACKETS / 3);
	ck_assert_int_eq(fw_close(&fw), 0);
	example_ports_close(cfg.ports, 2);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(firewall_native)
{
	firewall(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(firewall_generic)
{
	firewall(XSKX_XDP_GENERIC);
}
END_TEST

/*
 * The overlapping stage-1 rules of fw_overlap.h through the kernel's XDP
 * program: every frame is counted for the rule first match gives it, in
 * the stage that dropped it.
 */
#define OVERLAP_COPIES 25u /* each frame of the table, sent this many times */

struct overlap_out {
	uint8_t frame[FW_OVERLAP_FRAMES][FW_FRAME_MAX];
	uint32_t len[FW_OVERLAP_FRAMES];
	uint32_t seen[FW_OVERLAP_FRAMES], unknown;
};

/* Count the frames that came out of outB, by their line in the table. */
static void overlap_drain(int fd, struct overlap_out *o)
{
	for (uint32_t i = 0; i < 4 * FW_OVERLAP_FRAMES * OVERLAP_COPIES; i++) {
		uint8_t f[FW_FRAME_MAX + 64];
		ssize_t n = example_raw_recv(fd, f, sizeof(f));
		uint32_t k;

		if (n < 0)
			return;
		if (!n)
			continue;
		for (k = 0; k < FW_OVERLAP_FRAMES; k++)
			if ((uint32_t)n == o->len[k] &&
			    !memcmp(f, o->frame[k], o->len[k]))
				break;
		if (k < FW_OVERLAP_FRAMES)
			o->seen[k]++;
		else
			o->unknown++;
	}
}

static void overlapping(enum xskx_xdp_mode mode)
{
	struct fwd_config cfg = {
		.nports = 2,
	};
	static struct overlap_out o;
	const uint64_t total = FW_OVERLAP_FRAMES * OVERLAP_COPIES;
	struct fw_ruleset *rs;
	struct fw_errors errs;
	struct fw_counter s1, s2;
	struct timespec deadline;
	int tx, rx;
	struct fw fw;

	memset(&o, 0, sizeof(o));
	for (uint32_t k = 0; k < FW_OVERLAP_FRAMES; k++)
		o.len[k] = fw_frame_build(o.frame[k], &fw_overlap_table[k].spec);
	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	ck_assert_int_eq(fw_rules_parse(fw_overlap_rules, strlen(fw_overlap_rules),
					&rs, &errs),
			 0);
	example_ports_open(cfg.ports, inner, 2, mode);
	ck_assert_msg(!fw_open(&fw, &cfg, 1, rs), "fw_open: %s", xskx_last_error());
	/* The kernel backend has the deny list: stage 1 runs in XDP. */
	ck_assert(fw.xdp_stage);
	ck_assert_uint_eq(fw.rules->count, FW_OVERLAP_RULES);
	for (uint32_t i = 0; i < FW_OVERLAP_RULES; i++)
		ck_assert_msg(fw.rules->rules[i].in_xdp ==
				      fw_overlap_in_xdp(i),
			      "rule %u in_xdp", i);
	tx = example_raw_socket(OUTER_A, ETH_P_ALL);
	rx = example_raw_socket(OUTER_B, ETH_P_ALL);

	/* The table, OVERLAP_COPIES times, the forwarder stepping between. */
	deadline = example_deadline(TIME_LIMIT_S);
	for (uint32_t copy = 0; copy < OVERLAP_COPIES; copy++) {
		for (uint32_t k = 0; k < FW_OVERLAP_FRAMES; k++)
			ck_assert_msg(send(tx, o.frame[k], o.len[k], 0) ==
					      (ssize_t)o.len[k],
				      "send: %s", strerror(errno));
		ck_assert_int_ge(fw_step(&fw.queues[0]), 0);
		overlap_drain(rx, &o);
	}
	for (uint32_t round = 0; judged(&fw) < total ||
				 o.seen[FW_OVERLAP_FRAMES - 1] < OVERLAP_COPIES ||
				 o.seen[FW_OVERLAP_FRAMES - 2] < OVERLAP_COPIES;
	     round++) {
		int moved;

		if (round >= MAX_ROUNDS || example_past(&deadline))
			break;
		moved = fw_step(&fw.queues[0]);
		ck_assert_msg(moved >= 0, "fw_step: %s", xskx_strerror(moved));
		overlap_drain(rx, &o);
		if (!moved)
			poll(NULL, 0, 1);
	}
	ck_assert_uint_eq(judged(&fw), total);

	ck_assert_uint_eq(o.unknown, 0);
	for (uint32_t k = 0; k < FW_OVERLAP_FRAMES; k++)
		ck_assert_msg(o.seen[k] == (fw_overlap_table[k].out ? OVERLAP_COPIES : 0),
			      "frame %u (%s -> %s) came out %u times", k,
			      fw_overlap_table[k].spec.src,
			      fw_overlap_table[k].spec.dst, o.seen[k]);
	for (uint32_t i = 0; i < FW_OVERLAP_RULES; i++) {
		fw_rule_counts(&fw, fw.rules, i, &s1, &s2);
		ck_assert_msg(s1.packets == fw_overlap_stage1[i] * OVERLAP_COPIES,
			      "rule %u: stage 1 counted %llu, expected %llu", i,
			      (unsigned long long)s1.packets,
			      (unsigned long long)(fw_overlap_stage1[i] *
						   OVERLAP_COPIES));
		ck_assert_msg(s2.packets == fw_overlap_stage2[i] * OVERLAP_COPIES,
			      "rule %u: stage 2 counted %llu, expected %llu", i,
			      (unsigned long long)s2.packets,
			      (unsigned long long)(fw_overlap_stage2[i] *
						   OVERLAP_COPIES));
	}
	fw_rule_counts(&fw, fw.rules, FW_OVERLAP_RULES, &s1, &s2);
	ck_assert_uint_eq(s1.packets, 0);
	ck_assert_uint_eq(s2.packets, fw_overlap_default * OVERLAP_COPIES);
	fw_stage1_total(&fw, &s1);
	ck_assert_uint_eq(s1.packets,
			  fw_overlap_stage1_total() * OVERLAP_COPIES);
	close(tx);
	close(rx);
	ck_assert_int_eq(fw_close(&fw), 0);
	example_ports_close(cfg.ports, 2);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(overlapping_stage1_native)
{
	overlapping(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(overlapping_stage1_generic)
{
	overlapping(XSKX_XDP_GENERIC);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("fw_example_veth");

	veth_sandbox_enter();
	example_add_case(s, "firewall_native", firewall_native, CASE_TIMEOUT_S);
	example_add_case(s, "firewall_generic", firewall_generic,
			 CASE_TIMEOUT_S);
	example_add_case(s, "overlapping_stage1_native",
			 overlapping_stage1_native, CASE_TIMEOUT_S);
	example_add_case(s, "overlapping_stage1_generic",
			 overlapping_stage1_generic, CASE_TIMEOUT_S);
	return test_main(s, argc, argv);
}
