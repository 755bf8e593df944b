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
#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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
#define PKT_LEN 128u
#define ETH_P_TEST 0x88b5 /* IEEE local experimental: nothing else sends it */

struct raw_port {
	int fd;
	int ifindex;
	uint8_t seen[PACKETS];
	uint32_t received, corrupt;
};

static void raw_open(struct raw_port *p, const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_TEST) };

	memset(p, 0, sizeof(*p));
	p->ifindex = (int)if_nametoindex(ifname);
	ck_assert_msg(p->ifindex > 0, "no interface %s", ifname);
	p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_TEST));
	ck_assert_msg(p->fd >= 0, "AF_PACKET socket: %s", strerror(errno));
	sll.sll_ifindex = p->ifindex;
	ck_assert_msg(!bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)),
		      "bind to %s: %s", ifname, strerror(errno));
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

static bool past(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec;
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

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += TIME_LIMIT_S;
	for (uint32_t round = 0; to->received < PACKETS; round++) {
		int moved;

		if (round >= MAX_ROUNDS || past(&deadline))
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

static void assert_no_xdp_program(const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, query);
	int err = bpf_xdp_query((int)if_nametoindex(ifname), 0, &query);

	ck_assert_msg(!err, "bpf_xdp_query(%s): %s", ifname, strerror(-err));
	ck_assert_msg(!query.prog_id, "XDP program %u left on %s",
		      query.prog_id, ifname);
}

static void setup_pairs(void)
{
	struct veth_pair_opts a = { .name = OUTER_A, .peer = IN_A };
	struct veth_pair_opts b = { .name = OUTER_B, .peer = IN_B };

	ck_assert_int_eq(veth_pair_create(&a), 0);
	ck_assert_int_eq(veth_pair_create(&b), 0);
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

	setup_pairs();
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
	assert_no_xdp_program(IN_A);
	assert_no_xdp_program(IN_B);
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

	setup_pairs();
	open_forwarder(&q, 1, XSKX_XDP_NATIVE);
	raw_open(&outer_a, OUTER_A);
	/* The same socket receives what it sent: no PACKET_OUTGOING copies. */
	pass_traffic(&q, &outer_a, &outer_a, true);
	fwd_finish(&q);
	ck_assert_uint_eq(q.ports[0].count.tx, PACKETS);
	ck_assert_int_eq(fwd_close(&q), 0);
	assert_no_xdp_program(IN_A);
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 2 * TIME_LIMIT_S + 10);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

int main(int argc, char **argv)
{
	Suite *s = suite_create("l2fwd_example_veth");

	veth_sandbox_enter();
	add_case(s, "forward_native", forward_native);
	add_case(s, "forward_generic", forward_generic);
	add_case(s, "reflect", reflect);
	return test_main(s, argc, argv);
}
