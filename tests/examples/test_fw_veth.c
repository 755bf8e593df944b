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
 * its rule. Afterwards no XDP program is left. Needs root; exits 77
 * without it.
 */
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "example_veth.h"
#include "fw.h"
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

static const char rule_text[] = "deny src 10.0.0.0/8\n"	  /* 0: stage 1 */
				"deny proto udp port 7\n" /* 1: stage 2 */
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

/* seq % 3: 0 allowed, 1 from 10.0.0.0/8, 2 to UDP port 7. */
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
	memcpy(ip + 12, seq % 3 == 1 ? (uint8_t[]){ 10, 9, 9, 9 } :
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
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(p->fd, f, sizeof(f), 0,
				     (struct sockaddr *)&from, &fromlen);
		uint32_t seq;

		if (n < 0) {
			ck_assert_msg(errno == EAGAIN, "recv: %s",
				      strerror(errno));
			return;
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
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

static void firewall(enum xskx_xdp_mode mode)
{
	static struct raw_port outer_a, outer_b;
	struct fwd_config cfg = {
		.ports = { { .ifname = IN_A }, { .ifname = IN_B } },
		.nports = 2,
		.xdp_mode = mode,
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
	ck_assert_msg(!fw_open(&fw, &cfg, rs), "fw_open: %s", xskx_last_error());
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
		moved = fw_step(&fw);
		ck_assert_msg(moved >= 0, "fw_step: %s", xskx_strerror(moved));
		raw_drain(&outer_b);
		if (!moved && sent == PACKETS)
			poll(NULL, 0, 1);
	}
	/* The last allowed frames may still be on their way out of inB. */
	for (uint32_t i = 0; i < 1000 && outer_b.received < PACKETS / 3; i++) {
		fw_step(&fw);
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

int main(int argc, char **argv)
{
	Suite *s = suite_create("fw_example_veth");

	veth_sandbox_enter();
	example_add_case(s, "firewall_native", firewall_native, CASE_TIMEOUT_S);
	example_add_case(s, "firewall_generic", firewall_generic,
			 CASE_TIMEOUT_S);
	return test_main(s, argc, argv);
}
