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
 * MACs swapped. With every end at MTU 9000 and the forwarder on
 * multi-buffer sockets, 9000-byte frames cross the same way, as chains of
 * fragments. Afterwards no XDP program is left on inA or inB.
 *
 * The loss identity (examples/common/loss.h): a sender on outerA that
 * counts what it sent (a failed send is not sent), a receiver on outB that
 * counts what arrived, and a forwarder that stops stepping for a while so
 * that the kernel drops: once everything in flight has drained, what was
 * sent is exactly what arrived plus loss_total() of both ports, and the
 * stage the test provoked is the one that counted it. Needs root; exits 77
 * without it.
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
#include "loss.h"
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
#define JUMBO_LEN 9000u
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

/* The length of every test frame of the running case. */
static uint32_t frame_len = PKT_LEN;

static void build_frame(uint8_t *f, uint32_t seq)
{
	memcpy(f, veth_mac_b, 6);
	memcpy(f + 6, veth_mac_a, 6);
	f[12] = ETH_P_TEST >> 8;
	f[13] = ETH_P_TEST & 0xff;
	memcpy(f + 14, &seq, sizeof(seq));
	for (uint32_t i = 18; i < frame_len; i++)
		f[i] = (uint8_t)(seq * 13 + i);
}

static void raw_send(struct raw_port *p, uint32_t seq)
{
	uint8_t f[JUMBO_LEN];

	build_frame(f, seq);
	ck_assert_msg(send(p->fd, f, frame_len, 0) == (ssize_t)frame_len,
		      "send: %s",
		      strerror(errno));
}

/*
 * Send frame seq if the kernel takes it: false when it refused it (a veth
 * whose peer's XDP ring is full drops it and says ENOBUFS, counted in the
 * sender's tx_dropped), which then was not sent.
 */
static bool raw_try_send(struct raw_port *p, uint32_t seq)
{
	uint8_t f[JUMBO_LEN];
	ssize_t n;

	build_frame(f, seq);
	n = send(p->fd, f, frame_len, 0);
	ck_assert_msg(n == (ssize_t)frame_len || (n < 0 && (errno == ENOBUFS ||
						 errno == EAGAIN)),
		      "send: %zd, %s", n, strerror(errno));
	return n == (ssize_t)frame_len;
}

/* Read every waiting test frame that arrived (not one we sent ourselves). */
static void raw_drain(struct raw_port *p, bool swapped)
{
	for (uint32_t i = 0; i < 4 * PACKETS; i++) {
		uint8_t f[JUMBO_LEN + 64], expected[JUMBO_LEN];
		ssize_t n = example_raw_recv(p->fd, f, sizeof(f));
		uint32_t seq;

		if (n < 0)
			return;
		if (!n)
			continue;
		p->received++;
		memcpy(&seq, f + 14, sizeof(seq));
		if (n != (ssize_t)frame_len || seq >= PACKETS) {
			p->corrupt++;
			continue;
		}
		build_frame(expected, seq);
		/* Reflected: B's MAC as the source, A's as the destination. */
		if (swapped) {
			memcpy(expected, veth_mac_a, 6);
			memcpy(expected + 6, veth_mac_b, 6);
		}
		if (memcmp(f, expected, frame_len))
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
		/* Idle with all sent: wait as the programs' workers do. */
		if (!moved && sent == PACKETS)
			ck_assert_int_eq(fwd_wait(q, 1), fwd_held(q) ? 0 : 1);
	}
	ck_assert_uint_eq(to->corrupt, 0);
	for (uint32_t seq = 0; seq < PACKETS; seq++)
		ck_assert_msg(to->seen[seq] == 1,
			      "frame %u came out %u times (%u of %u arrived)",
			      seq, to->seen[seq], to->received, PACKETS);
}

static const char *const inner[] = { IN_A, IN_B };

static void open_forwarder(struct fwd_queue *q, uint32_t nports,
			   enum xskx_xdp_mode mode)
{
	struct fwd_config cfg = {
		.nports = nports,
	};

	example_ports_open(cfg.ports, inner, nports, mode);
	ck_assert_msg(!fwd_open(q, &cfg), "fwd_open: %s", xskx_last_error());
}

/* The queue's sockets, then its ports. */
static void close_forwarder(struct fwd_queue *q)
{
	struct xskx_port *ports[FWD_MAX_PORTS];
	uint32_t n = q->nports;

	for (uint32_t i = 0; i < n; i++)
		ports[i] = q->ports[i].port;
	ck_assert_int_eq(fwd_close(q), 0);
	example_ports_close(ports, n);
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
	/* Everything sent, nothing held: an idle worker can block on veth. */
	ck_assert_uint_eq(fwd_held(&q), 0);
	ck_assert_int_eq(fwd_wait(&q, 0), 1);
	fwd_finish(&q);
	ck_assert_uint_eq(q.ports[0].count.rx, PACKETS);
	ck_assert_uint_eq(q.ports[1].count.tx, PACKETS);
	ck_assert_uint_eq(q.ports[1].count.rx, PACKETS);
	ck_assert_uint_eq(q.ports[0].count.tx, PACKETS);
	close_forwarder(&q);
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

/*
 * Jumbo frames: every end at MTU 9000, the forwarder's sockets multi-buffer;
 * each 9000-byte frame crosses as one chain of fragments of 2 KiB frames
 * (1792 data bytes each after XDP_PACKET_HEADROOM: 6 fragments), counted
 * once, and comes out whole.
 */
#define JUMBO_FRAGS 6u
static void forward_jumbo(enum xskx_xdp_mode mode)
{
	static const char *const ends[] = { OUTER_A, IN_A, IN_B, OUTER_B };
	static struct raw_port outer_a, outer_b;
	struct fwd_config cfg = {
		.nports = 2,
		.multi_buffer = true,
		/* A round sends 16 frames of 6 fragments: read them all. */
		.batch = 8 * SEND_PER_ROUND * 6,
	};
	int rcvbuf = 8 << 20;
	struct fwd_queue q;

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_int_eq(veth_link_set_mtu(ends[i], JUMBO_LEN), 0);
	frame_len = JUMBO_LEN;
	example_ports_open(cfg.ports, inner, 2, mode);
	ck_assert_msg(!fwd_open(&q, &cfg), "fwd_open: %s", xskx_last_error());
	raw_open(&outer_a, OUTER_A);
	raw_open(&outer_b, OUTER_B);
	ck_assert_int_eq(setsockopt(outer_b.fd, SOL_SOCKET, SO_RCVBUFFORCE,
				    &rcvbuf, sizeof(rcvbuf)), 0);
	ck_assert_int_eq(setsockopt(outer_a.fd, SOL_SOCKET, SO_RCVBUFFORCE,
				    &rcvbuf, sizeof(rcvbuf)), 0);
	pass_traffic(&q, &outer_a, &outer_b, false);
	memset(outer_a.seen, 0, sizeof(outer_a.seen));
	outer_a.received = 0;
	pass_traffic(&q, &outer_b, &outer_a, false);
	fwd_finish(&q);
	for (uint32_t i = 0; i < 2; i++) {
		struct xskx_stats st;

		ck_assert_uint_eq(q.ports[i].count.rx, PACKETS);
		ck_assert_uint_eq(q.ports[i].count.tx, PACKETS);
		ck_assert_int_eq(xskx_socket_stats(q.ports[i].sock, &st), 0);
		ck_assert_uint_eq(st.rx_packets, PACKETS * JUMBO_FRAGS);
		ck_assert_uint_eq(st.rx_bytes, PACKETS * JUMBO_LEN);
	}
	close_forwarder(&q);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(forward_jumbo_native)
{
	forward_jumbo(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(forward_jumbo_generic)
{
	forward_jumbo(XSKX_XDP_GENERIC);
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
	close_forwarder(&q);
	example_assert_no_xdp_program(IN_A);
}
END_TEST

/*
 * TX wakeups coalesced (the programs' default): one frame, forwarded onto
 * inB's TX ring, waits there for 63 more or for a second. An idle worker
 * then blocks in fwd_wait(), whose poll(2) on inB's socket wakes that TX
 * (need_wakeup: the kernel's xsk_poll() sends what waits): the frame
 * reaches outB with no further step, which no later call would do.
 */
START_TEST(lone_frame_woken_before_sleep)
{
	static struct raw_port outer_a, outer_b;
	struct fwd_config cfg = {
		.nports = 2,
		.tx_kick_batch = 64,
		.tx_kick_usec = XSKX_TX_KICK_USEC_MAX,
	};
	struct timespec deadline;
	struct fwd_queue q;

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	example_ports_open(cfg.ports, inner, 2, XSKX_XDP_NATIVE);
	ck_assert_msg(!fwd_open(&q, &cfg), "fwd_open: %s", xskx_last_error());
	raw_open(&outer_a, OUTER_A);
	raw_open(&outer_b, OUTER_B);
	raw_send(&outer_a, 0);
	deadline = example_deadline(TIME_LIMIT_S);
	while (!q.ports[1].count.tx && !example_past(&deadline))
		ck_assert_int_ge(fwd_step(&q), 0);
	ck_assert_uint_eq(q.ports[1].count.tx, 1);
	ck_assert_int_eq(fwd_wait(&q, 0), 1);
	deadline = example_deadline(TIME_LIMIT_S);
	while (!outer_b.received && !example_past(&deadline)) {
		raw_drain(&outer_b, false);
		usleep(1000);
	}
	ck_assert_uint_eq(outer_b.received, 1);
	ck_assert_uint_eq(outer_b.seen[0], 1);
	close_forwarder(&q);
}
END_TEST

/*
 * The loss identity on veth, outerA -> [inA  forwarder  inB] -> outB. One
 * run: PRE frames a few per step, PAUSE frames while the forwarder does not
 * step at all (its RX ring or its FILL ring runs out: the kernel drops),
 * POST frames a few per step again; then everything in flight drains.
 */
#define LOSS_PRE 200u
#define LOSS_PAUSE 1000u
#define LOSS_POST 200u
#define LOSS_PER_ROUND 8u
#define QUIET_ROUNDS 50u /* rounds of 1 ms with nothing moving: drained */
/*
 * Frames longer than inA's MTU (1500) can carry, from an outerA at
 * OUTER_A_MTU: veth drops each before any XDP program, in inA's
 * rx_dropped (dev_forward_skb's MTU check) and in outerA's tx_dropped,
 * and refuses the send (ENOBUFS). The link loses them: nic_rx.
 */
#define OUTER_A_MTU 2000u
#define OVERSIZE_LEN 1600u

struct loss_run {
	uint32_t rx_size, frames; /* the forwarder's; 0: defaults */
	bool pause;
	uint32_t oversize; /* frames over inA's MTU sent in the pause */
	/* the test's own counting */
	uint32_t sent, refused;
	/* what loss.c says, per port */
	struct loss lost[2];
	struct xskx_netdev_stats in_a0, in_a1, out_a0, out_a1;
	struct fwd_counters count[2];
};

static void loss_send_some(struct raw_port *from, struct loss_run *r,
			   uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (raw_try_send(from, r->sent + r->refused))
			r->sent++;
		else
			r->refused++;
	}
}

static void loss_step(struct fwd_queue *q)
{
	int moved = fwd_step(q);

	ck_assert_msg(moved >= 0, "fwd_step: %s", xskx_strerror(moved));
}

/* r->oversize frames inA's MTU cannot carry: each refused, none sent. */
static void loss_send_oversize(struct raw_port *from, struct loss_run *r)
{
	uint32_t len = frame_len;

	frame_len = OVERSIZE_LEN;
	for (uint32_t i = 0; i < r->oversize; i++)
		ck_assert_msg(!raw_try_send(from, PACKETS + i),
			      "a %u-byte frame crossed to a veth of MTU 1500",
			      OVERSIZE_LEN);
	frame_len = len;
}

/* Step and receive until nothing has moved for QUIET_ROUNDS rounds. */
static void loss_drain(struct fwd_queue *q, struct raw_port *to)
{
	struct timespec deadline = example_deadline(TIME_LIMIT_S);
	uint32_t quiet = 0;

	for (uint32_t round = 0; quiet < QUIET_ROUNDS; round++) {
		uint32_t before = to->received;
		int moved;

		ck_assert_msg(round < MAX_ROUNDS && !example_past(&deadline),
			      "the forwarder did not drain");
		moved = fwd_step(q);
		ck_assert_msg(moved >= 0, "fwd_step: %s", xskx_strerror(moved));
		raw_drain(to, false);
		quiet = moved || to->received != before || fwd_held(q) ?
				0 : quiet + 1;
		if (!moved)
			poll(NULL, 0, 1);
	}
}

/* Nothing the receiver's socket could not hold: its own drops are not ours. */
static void assert_receiver_dropped_nothing(const struct raw_port *p)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	ck_assert_int_eq(getsockopt(p->fd, SOL_PACKET, PACKET_STATISTICS, &st,
				    &len), 0);
	ck_assert_msg(st.tp_drops == 0, "receiver socket dropped %u",
		      st.tp_drops);
}

static void loss_run(enum xskx_xdp_mode mode, struct loss_run *r)
{
	static struct raw_port outer_a, outer_b;
	struct fwd_config cfg = {
		.nports = 2,
		.rx_size = r->rx_size,
		.frames = r->frames,
	};
	struct loss_port lp[2];
	struct xskx_netdev_stats now;
	struct fwd_queue q;
	int rcvbuf = 8 << 20;

	example_ports_open(cfg.ports, inner, 2, mode);
	ck_assert_msg(!fwd_open(&q, &cfg), "fwd_open: %s", xskx_last_error());
	raw_open(&outer_a, OUTER_A);
	raw_open(&outer_b, OUTER_B);
	ck_assert_int_eq(setsockopt(outer_b.fd, SOL_SOCKET, SO_RCVBUFFORCE,
				    &rcvbuf, sizeof(rcvbuf)), 0);
	/* The first bursts top FILL up: the pause then meets it full. */
	for (uint32_t i = 0; i < 8; i++)
		loss_step(&q);
	for (uint32_t i = 0; i < 2; i++)
		loss_port_begin(&lp[i], i ? IN_B : IN_A, NULL, q.ports[i].port);
	ck_assert(lp[0].have_dev && lp[1].have_dev);
	r->in_a0 = lp[0].dev0;
	ck_assert_int_eq(xskx_netdev_stats(OUTER_A, &r->out_a0), 0);

	for (uint32_t i = 0; i < LOSS_PRE / LOSS_PER_ROUND; i++) {
		loss_send_some(&outer_a, r, LOSS_PER_ROUND);
		loss_step(&q);
		raw_drain(&outer_b, false);
	}
	if (r->pause)
		loss_send_some(&outer_a, r, LOSS_PAUSE);
	loss_send_oversize(&outer_a, r);
	for (uint32_t i = 0; i < LOSS_POST / LOSS_PER_ROUND; i++) {
		loss_send_some(&outer_a, r, LOSS_PER_ROUND);
		loss_step(&q);
		raw_drain(&outer_b, false);
	}
	loss_drain(&q, &outer_b);
	ck_assert_uint_eq(fwd_held(&q), 0);
	fwd_finish(&q);

	for (uint32_t i = 0; i < 2; i++) {
		struct loss_sock sock;

		ck_assert_int_eq(loss_sock_publish(&sock, q.ports[i].sock), 0);
		r->count[i] = q.ports[i].count;
		loss_port_read(&lp[i], &sock, fwd_given_up(&r->count[i]),
			       &r->lost[i]);
	}
	ck_assert_int_eq(xskx_netdev_stats(IN_A, &now), 0);
	r->in_a1 = now;
	ck_assert_int_eq(xskx_netdev_stats(OUTER_A, &now), 0);
	r->out_a1 = now;
	ck_assert_uint_eq(outer_b.corrupt, 0);
	for (uint32_t seq = 0; seq < r->sent + r->refused; seq++)
		ck_assert_msg(outer_b.seen[seq] <= 1, "frame %u came out %u times",
			      seq, outer_b.seen[seq]);
	assert_receiver_dropped_nothing(&outer_b);
	close_forwarder(&q);
	close(outer_a.fd);
	close(outer_b.fd);

	printf("%s rx_size %u frames %u%s: sent %u (refused %u, oversize %u) delivered %u; A ",
	       mode == XSKX_XDP_NATIVE ? "native" : "generic", r->rx_size,
	       r->frames, r->pause ? " paused" : "", r->sent, r->refused,
	       r->oversize, outer_b.received);
	loss_print_text(stdout, &r->lost[0], 0);
	printf("; B ");
	loss_print_text(stdout, &r->lost[1], 0);
	printf("; inA link rx_dropped +%llu\n",
	       (unsigned long long)(r->in_a1.rx_dropped - r->in_a0.rx_dropped));

	/*
	 * The identity, exactly: the drain left nothing in flight (no held
	 * packet, nothing moved or arrived for QUIET_ROUNDS ms), so
	 *   sent + oversize = delivered + lost(inA) + lost(inB)
	 * (the oversize frames reached inA, and its link dropped them).
	 * No slack is needed on veth: a frame veth refuses before the XDP
	 * ring (ptr_ring full) fails the send (ENOBUFS) and counts in outerA's
	 * tx_dropped, never in inA's counters, so it was not sent; each
	 * failed redirect counts once in the socket (rx_dropped or
	 * rx_queue_full, net/xdp/xsk.c) and, in native mode only, once more
	 * in inA's rx_drops (veth_xdp_rcv_skb), which loss.c takes out.
	 */
	ck_assert_uint_eq(outer_b.received + loss_total(&r->lost[0]) +
				  loss_total(&r->lost[1]),
			  r->sent + r->oversize);
	/* And stage by stage, from the forwarder's own counts. */
	ck_assert_uint_eq(r->count[0].rx + r->lost[0].nic_rx +
				  r->lost[0].xdp_passed +
				  r->lost[0].xdp_redirect_failed +
				  r->lost[0].rx_dropped + r->lost[0].rx_ring_full,
			  r->sent + r->oversize);
	ck_assert_uint_eq(r->count[0].rx - r->lost[0].app, r->count[1].tx);
	ck_assert_uint_eq(r->count[1].tx - r->lost[1].nic_tx -
				  r->lost[1].tx_invalid,
			  outer_b.received);
	ck_assert_uint_eq(r->count[1].rx, 0);
	ck_assert_uint_eq(loss_total(&r->lost[1]), 0);
	/* Nothing the test did not provoke. */
	ck_assert_uint_eq(r->lost[0].nic_rx, r->oversize);
	ck_assert_uint_eq(r->lost[0].xdp_passed, 0);
	ck_assert_uint_eq(r->lost[0].xdp_redirect_failed, 0);
	ck_assert_uint_eq(r->lost[0].tx_invalid, 0);
	ck_assert_uint_eq(r->lost[0].app, 0);
	/* veth counts every failed redirect in native mode only. */
	ck_assert_uint_eq(r->in_a1.rx_dropped - r->in_a0.rx_dropped,
			  r->oversize + (mode == XSKX_XDP_NATIVE ?
						 r->lost[0].rx_dropped +
							 r->lost[0].rx_ring_full :
						 0));
	/* The sender counts what veth refused it as its TX drops. */
	ck_assert_uint_eq(r->out_a1.tx_dropped - r->out_a0.tx_dropped,
			  r->refused + r->oversize);
}

static void losses(enum xskx_xdp_mode mode)
{
	struct loss_run gentle = { .pause = false };
	struct loss_run ring_full = { .rx_size = 64, .pause = true,
				      .oversize = 50 };
	struct loss_run no_frames = { .frames = 128, .pause = true,
				      .oversize = 50 };

	example_veth_pairs_create(OUTER_A, IN_A, OUTER_B, IN_B);
	/* Room for the oversize frames on outerA; inA stays at 1500. */
	ck_assert_int_eq(veth_link_set_mtu(OUTER_A, OUTER_A_MTU), 0);

	/* Gentle: everything sent arrives, and nothing is lost anywhere. */
	loss_run(mode, &gentle);
	ck_assert_uint_eq(gentle.sent, LOSS_PRE + LOSS_POST);
	ck_assert_uint_eq(loss_total(&gentle.lost[0]), 0);
	ck_assert_uint_eq(gentle.count[1].tx, gentle.sent);

	/*
	 * A 64-entry RX ring and a FILL ring topped up: while the forwarder
	 * pauses, the ring fills and the rest is dropped as rx_ring_full.
	 * At most 64 + a ring's worth before the pause survive it.
	 */
	loss_run(mode, &ring_full);
	ck_assert_uint_gt(ring_full.lost[0].rx_ring_full, 0);
	ck_assert_uint_ge(ring_full.lost[0].rx_ring_full + ring_full.refused,
			  LOSS_PAUSE - 64);
	ck_assert_uint_eq(ring_full.lost[0].rx_dropped, 0);

	/*
	 * 128 frames for both ports (64 each, the library's fair share):
	 * while the forwarder pauses, FILL runs dry and the rest is dropped
	 * as rx_dropped (copy mode: no frame for it).
	 */
	loss_run(mode, &no_frames);
	ck_assert_uint_gt(no_frames.lost[0].rx_dropped, 0);
	ck_assert_uint_ge(no_frames.lost[0].rx_dropped + no_frames.refused,
			  LOSS_PAUSE - 128);
	ck_assert_uint_eq(no_frames.lost[0].rx_ring_full, 0);

	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}

START_TEST(losses_add_up_native)
{
	losses(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(losses_add_up_generic)
{
	losses(XSKX_XDP_GENERIC);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("l2fwd_example_veth");

	veth_sandbox_enter();
	example_add_case(s, "forward_native", forward_native, CASE_TIMEOUT_S);
	example_add_case(s, "forward_generic", forward_generic, CASE_TIMEOUT_S);
	example_add_case(s, "forward_jumbo_native", forward_jumbo_native,
			 CASE_TIMEOUT_S);
	example_add_case(s, "forward_jumbo_generic", forward_jumbo_generic,
			 CASE_TIMEOUT_S);
	example_add_case(s, "reflect", reflect, CASE_TIMEOUT_S);
	example_add_case(s, "lone_frame_woken_before_sleep",
			 lone_frame_woken_before_sleep, CASE_TIMEOUT_S);
	example_add_case(s, "losses_add_up_native", losses_add_up_native,
			 CASE_TIMEOUT_S);
	example_add_case(s, "losses_add_up_generic", losses_add_up_generic,
			 CASE_TIMEOUT_S);
	return test_main(s, argc, argv);
}
