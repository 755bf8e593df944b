// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd's forwarding core on real AF_XDP sockets, inside a private
 * network namespace (tests/veth/netns.c) with a veth pair on each side:
 *
 *   outerA <-> inA  [forwarder]  inB <-> outB
 *
 * Test frames sent on outerA through an AF_PACKET socket must come out of
 * outB, and those sent on outB out of outerA: every one exactly once and
 * intact. Reflecting on inA alone, they come back out of outerA with their
 * MACs swapped. Afterwards no XDP program is left on inA or inB. Needs
 * root; exits 77 without it.
 */
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "example_veth.h"
#include "fwd.h"
#include "helpers.h"
#include "netns.h"

#define OUTER_A "xl2a0"
#define IN_A "xl2a1"
#define IN_B "xl2b1"
#define OUTER_B "xl2b0"

#define PACKETS 2000u
#define SEND_PER_ROUND 16u
#define MAX_ROUNDS 200000u
#define TIME_LIMIT_S 20
#define CASE_TIMEOUT_S (2 * TIME_LIMIT_S + 10)
#define PKT_LEN 128u
#define ETH_P_TEST 0x88b5 /* IEEE local experimental: nothing else sends it */

struct raw_port {
	int fd;
	uint8_t seen[PACKETS];
	uint32_t received, corrupt;
};

static void raw_open(struct raw_port *p, const char *ifname)
{
	memset(p, 0, sizeof(*p));
	p->fd = example_raw_socket(ifname, ETH_P_TEST);
}

static void build_frame(uint8_t *f, uint32_t seq)
{
	memcpy(f, veth_mac_b, 6);
	memcpy(f + 6, veth_mac_a, 6);
	f[12] = ETH_P_TEST >> 8;
	f[13] = ETH_P_TEST & 0xff;
	memcpy(f + 14, &seq, sizeof(seq));
	for (uint32_t i = 18; i < PKT_LEN; i++)
		f[i] = (uint8_t)(seq * 13 + i);
}

static void raw_send(struct raw_port *p, uint32_t seq)
{
	uint8_t f[PKT_LEN];

	build_frame(f, seq);
	ck_assert_msg(send(p->fd, f, PKT_LEN, 0) == PKT_LEN, "send: %s",
		      strerror(errno));
}

/* Read every waiting test frame that arrived (not one we sent ourselves). */
static void raw_drain(struct raw_port *p, bool swapped)
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
		memcpy(&seq, f + 14, sizeof(seq));
		if (n != PKT_LEN || seq >= PACKETS) {
			p->corrupt++;
			continue;
		}
		build_frame(expected, seq);
		if (swapped)
			fwd_swap_macs(expected);
		if (memcmp(f, expected, PKT_LEN))
			p->corrupt++;
		p->seen[seq]++;
	}
}

/*
 * Send PACKETS frames on `from`, a few per round, running the forwarder
 * between, until all arrived at `to` or the round and time budgets ran out.
 */
static void pass_traffic(struct fwd_queue *q, struct raw_port *from,
			 struct raw_port *to, bool swapped)
{
	struct timespec deadline;
	uint32_t sent = 0;

	deadline = example_deadline(TIME_LIMIT_S);
	for (uint32_t round = 0; to->received < PACKETS; round++) {
		int moved;

		if (round >= MAX_ROUNDS || example_past(&deadline))
			break;
		for (uint32_t n = 0; n < SEND_PER_ROUND && sent < PACKETS; n++)
			raw_send(from, sent++);
		moved = fwd_step(q);
		ck_assert_msg(moved >= 0, "fwd_step: %s", xskx_strerror(moved));
		raw_drain(to, swapped);
		if (!moved && sent == PACKETS)
			poll(NULL, 0, 1);
	}
	ck_assert_uint_eq(to->corrupt, 0);
	for (uint32_t seq = 0; seq < PACKETS; seq++)
		ck_assert_msg(to->seen[seq] == 1,
			      "frame %u came out %u times (%u of %u arrived)",
			      seq, to->seen[seq], to->received, PACKETS);
}

static void open_forwarder(struct fwd_queue *q, uint32_t nports,
			   enum xskx_xdp_mode mode)
{
	struct fwd_config cfg = {
		.ports = { { .ifname = IN_A }, { .ifname = IN_B } },
		.nports = nports,
		.xdp_mode = mode,
	};

	ck_assert_msg(!fwd_open(q, &cfg), "fwd_open: %s", xskx_last_error());
}

static void forward(enum xskx_xdp_mode mode)
{
	static struct raw_port outer_a, outer_b;
	struct fwd_queue q;

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	open_forwarder(&q, 2, mode);
	raw_open(&outer_a, OUTER_A);
	raw_open(&outer_b, OUTER_B);
	pass_traffic(&q, &outer_a, &outer_b, false);
	memset(outer_a.seen, 0, sizeof(outer_a.seen));
	outer_a.received = 0;
	pass_traffic(&q, &outer_b, &outer_a, false);
	fwd_finish(&q);
	ck_assert_uint_eq(q.ports[0].count.rx, PACKETS);
	ck_assert_uint_eq(q.ports[1].count.tx, PACKETS);
	ck_assert_uint_eq(q.ports[1].count.rx, PACKETS);
	ck_assert_uint_eq(q.ports[0].count.tx, PACKETS);
	ck_assert_int_eq(fwd_close(&q), 0);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(forward_native)
{
	forward(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(forward_generic)
{
	forward(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(reflect)
{
	static struct raw_port outer_a;
	struct fwd_queue q;

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	open_forwarder(&q, 1, XSKX_XDP_NATIVE);
	raw_open(&outer_a, OUTER_A);
	/* The same socket receives what it sent: no PACKET_OUTGOING copies. */
	pass_traffic(&q, &outer_a, &outer_a, true);
	fwd_finish(&q);
	ck_assert_uint_eq(q.ports[0].count.tx, PACKETS);
	ck_assert_int_eq(fwd_close(&q), 0);
	example_assert_no_xdp_program(IN_A);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("l2fwd_example_veth");

	veth_sandbox_enter();
	example_add_case(s, "forward_native", forward_native, CASE_TIMEOUT_S);
	example_add_case(s, "forward_generic", forward_generic, CASE_TIMEOUT_S);
	example_add_case(s, "reflect", reflect, CASE_TIMEOUT_S);
	return test_main(s, argc, argv);
}
