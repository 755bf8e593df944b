// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd's forwarding core (examples/common/fwd.c) on the simulated
 * NIC in deterministic mode, driven in this thread: test packets are put on
 * the forwarder's ports as if from the wire, and each port's sink sees what
 * the forwarder sent out of it. Every packet must come out of the right port
 * exactly once, its bytes intact (MACs swapped when reflecting), with no
 * drop anywhere, and every frame accounted for at every step. With the
 * egress TX stalled, --tx-full hold must back the ingress up to its NIC and
 * deliver what it held once TX resumes, and --tx-full drop must count
 * exactly the packets it released. Packets sent with a partial UDP
 * checksum (as a local stack leaves it for veth's TX offload) must leave
 * with it completed, counted, unless the forwarder keeps them as they are.
 */
#include <errno.h>
#include <string.h>

#include "fwd.h"
#include "helpers.h"
#include "loss.h"

#define PACKETS_PER_PORT 3000u /* fewer than a queue's UMEM has frames */
#define MAX_PACKETS_PER_PORT 6000u /* more than a port's share and its TX ring */
#define INJECT_PER_ROUND 16u
#define MAX_ROUNDS 100000u
#define QUIET_ROUNDS_TO_END 4u
#define MAX_QUEUES 2u
#define FRAMES 8192u /* per queue: a share of 4096 a port; TX rings hold 2048 */

#define OFF_ORIGIN (14 + 20 + 8) /* after Ethernet, IPv4 and UDP headers */
#define OFF_SEQ (OFF_ORIGIN + 1)

static const uint8_t mac_dst[6] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t mac_src[6] = { 0x02, 0, 0, 0, 0, 0x0a };

/* What one port's sink saw: packets per origin port and sequence number. */
struct sink {
	uint8_t seen[2][MAX_PACKETS_PER_PORT];
	uint64_t packets, stack, corrupt;
	bool expect_swapped;
};

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *ports[2];
	struct sink sinks[2];
	struct fwd_queue queues[MAX_QUEUES];
	uint32_t nports, nqueues;
	uint32_t senders; /* ports 0..senders-1 get test packets */
	uint32_t packets;  /* test packets per sender; PACKETS_PER_PORT */
	uint32_t injected; /* on each sender so far */
	struct xskx_sim_faults faults[2];
	/* stall_out_port(): port "out" takes nothing from TX in these rounds */
	uint32_t stall_from, stall_until;
	/* forwarder_sleeps(): fwd_step is not called in these rounds */
	uint32_t sleep_from, sleep_until;
	/* port "in"'s received count when the forwarder first held packets */
	uint64_t rx_when_held;
	bool held_seen;
};

/* The test packets' UDP checksum, and what the sinks expect of it. */
static enum {
	CSUM_NONE,	  /* 0, "none": sent and expected as it is */
	CSUM_COMPLETED,	  /* sent partial, expected completed */
	CSUM_KEPT,	  /* sent partial to a forwarder with keep_partial_csum */
	CSUM_COMPLETE,	  /* sent complete, expected unchanged */
} csum_mode;

static uint32_t packet_len(uint32_t seq)
{
	return 60 + seq % 400;
}

/*
 * A UDP/IPv4 frame whose source port varies, so that RSS spreads packets
 * over the queues; after the UDP header, the origin port, the sequence
 * number, and bytes derived from both.
 */
static void build_packet(uint8_t *p, uint32_t origin, uint32_t seq)
{
	uint32_t len = packet_len(seq);

	memset(p, 0, len);
	memcpy(p, mac_dst, 6);
	memcpy(p + 6, mac_src, 6);
	p[12] = 0x08; /* IPv4 */
	p[14] = 0x45;
	p[16] = (uint8_t)((len - 14) >> 8);
	p[17] = (uint8_t)(len - 14);
	p[22] = 64;
	p[23] = 17; /* UDP */
	memcpy(p + 26, (uint8_t[]){ 192, 0, 2, 1, 192, 0, 2, 2 }, 8);
	p[34] = (uint8_t)((1024 + seq % 64) >> 8);
	p[35] = (uint8_t)(1024 + seq % 64);
	p[37] = 9;
	p[OFF_ORIGIN] = (uint8_t)origin;
	memcpy(p + OFF_SEQ, &seq, sizeof(seq));
	for (uint32_t i = OFF_SEQ + 4; i < len; i++)
		p[i] = (uint8_t)(seq * 7 + i + origin);
}

/* Ones' complement sum of 16-bit big-endian words, RFC 1071's way. */
static uint32_t add_words(uint32_t acc, const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i += 2)
		acc += (uint32_t)(p[i] << 8) | (i + 1 < len ? p[i + 1] : 0);
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return acc;
}

/*
 * The UDP checksum of build_packet()'s frame: partial (the pseudo-header's
 * sum, as a local stack leaves it) or complete (what the receiver checks).
 */
static void set_udp_csum(uint8_t *p, uint32_t len, bool complete)
{
	uint32_t pseudo = add_words(17 + (len - 34), p + 26, 8);
	uint16_t c = (uint16_t)pseudo;

	p[38] = (uint8_t)((len - 34) >> 8);
	p[39] = (uint8_t)(len - 34);
	p[40] = p[41] = 0;
	if (complete) {
		c = (uint16_t)~add_words(pseudo, p + 34, len - 34);
		c = c ? c : 0xffff;
	}
	p[40] = (uint8_t)(c >> 8);
	p[41] = (uint8_t)c;
}

static void record(enum xskx_sim_sink_kind kind, const uint8_t *data,
		   uint32_t len, uint32_t queue, void *ctx)
{
	struct sink *s = ctx;
	uint8_t expected[512];
	uint32_t origin, seq;

	(void)queue;
	if (kind != XSKX_SIM_SINK_TX) {
		s->stack++;
		return;
	}
	s->packets++;
	if (len < OFF_SEQ + 4) {
		s->corrupt++;
		return;
	}
	origin = data[OFF_ORIGIN];
	memcpy(&seq, data + OFF_SEQ, sizeof(seq));
	if (origin > 1 || seq >= MAX_PACKETS_PER_PORT || len != packet_len(seq)) {
		s->corrupt++;
		return;
	}
	build_packet(expected, origin, seq);
	if (csum_mode != CSUM_NONE)
		set_udp_csum(expected, len, csum_mode != CSUM_KEPT);
	/*
	 * Reflected: the MACs written out, not fwd_swap_macs() (the code under
	 * test) applied to the sent frame.
	 */
	if (s->expect_swapped) {
		static const uint8_t reflected[12] = { 0x02, 0, 0, 0, 0, 0x0a,
						       0x02, 0, 0, 0, 0, 0x0b };

		memcpy(expected, reflected, sizeof(reflected));
	}
	if (memcmp(expected, data, len))
		s->corrupt++;
	s->seen[origin][seq]++;
}

static void rig_setup_filtered(struct rig *r, uint32_t nports,
			       uint32_t nqueues, enum fwd_tx_full tx_full,
			       fwd_filter_fn filter, void *filter_ctx)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	static const char *const names[2] = { "in", "out" };

	memset(r, 0, sizeof(*r));
	r->nports = nports;
	r->nqueues = nqueues;
	r->senders = nports;
	r->packets = PACKETS_PER_PORT;
	ck_assert_int_eq(xskx_sim_create(&r->sim, &sim_opts), 0);
	for (uint32_t i = 0; i < nports; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[i],
			  .queues = nqueues);

		ck_assert_int_eq(xskx_sim_port_create(r->sim, &port_opts,
						      &r->ports[i]),
				 0);
		r->sinks[i].expect_swapped = nports == 1;
		ck_assert_int_eq(xskx_sim_port_set_sink(r->ports[i], record,
							&r->sinks[i]),
				 0);
	}
	for (uint32_t k = 0; k < nqueues; k++) {
		struct fwd_config cfg = { .nports = nports, .queue_id = k,
					  .frames = FRAMES, .tx_full = tx_full,
					  .keep_partial_csum =
						  csum_mode == CSUM_KEPT,
					  .filter = filter,
					  .filter_ctx = filter_ctx };

		for (uint32_t i = 0; i < nports; i++)
			cfg.ports[i] = test_port(r->ports[i]);
		ck_assert_msg(!fwd_open(&r->queues[k], &cfg), "fwd_open: %s",
			      xskx_last_error());
	}
}

static void rig_setup(struct rig *r, uint32_t nports, uint32_t nqueues,
		      enum fwd_tx_full tx_full)
{
	rig_setup_filtered(r, nports, nqueues, tx_full, NULL, NULL);
}

static void rig_teardown(struct rig *r)
{
	for (uint32_t k = 0; k < r->nqueues; k++)
		ck_assert_int_eq(fwd_close(&r->queues[k]), 0);
	ck_assert_int_eq(test_sim_destroy(r->sim), 0);
}

static void assert_census(struct rig *r, uint32_t round)
{
	char why[384];

	for (uint32_t k = 0; k < r->nqueues; k++)
		ck_assert_msg(test_census_ok(r->queues[k].umem,
					     fwd_held(&r->queues[k]), why,
					     sizeof(why)),
			      "queue %u, round %u: %s", k, round, why);
}

/* Optional: called every round, e.g. to stall and release a port's TX. */
typedef void (*round_hook)(struct rig *r, uint32_t round);

/*
 * Inject every test packet on every port, a few per round, and run NIC and
 * forwarder until all is quiet. Bounded in rounds.
 */
static void run(struct rig *r, round_hook hook)
{
	uint8_t pkt[512];
	uint32_t quiet = 0, round;

	for (round = 0; quiet < QUIET_ROUNDS_TO_END; round++) {
		int moved = 0, polled, err;

		ck_assert_msg(round < MAX_ROUNDS,
			      "still forwarding after %u rounds", round);
		if (hook)
			hook(r, round);
		for (uint32_t n = 0;
		     n < INJECT_PER_ROUND && r->injected < r->packets;
		     n++, r->injected++) {
			for (uint32_t i = 0; i < r->senders; i++) {
				build_packet(pkt, i, r->injected);
				if (csum_mode != CSUM_NONE)
					set_udp_csum(pkt, packet_len(r->injected),
						     csum_mode == CSUM_COMPLETE);
				/* A NIC out of buffers misses it (counted). */
				err = xskx_sim_port_inject(r->ports[i], pkt,
							   packet_len(r->injected));
				ck_assert_msg(!err || err == -ENOBUFS,
					      "inject: %s", xskx_strerror(err));
			}
		}
		polled = xskx_sim_poll(r->sim);
		ck_assert_int_ge(polled, 0);
		for (uint32_t k = 0; k < r->nqueues &&
				     (round < r->sleep_from || round >= r->sleep_until);
		     k++) {
			int n = fwd_step(&r->queues[k]);

			ck_assert_msg(n >= 0, "fwd_step: %s", xskx_strerror(n));
			moved += n;
		}
		assert_census(r, round);
		quiet = !polled && !moved && r->injected == r->packets &&
				round > r->stall_until && round > r->sleep_until ?
				quiet + 1 :
				0;
	}
}

/* Every packet left the expected port exactly once, intact; nothing lost. */
static void assert_delivered(struct rig *r)
{
	char why[384];

	for (uint32_t i = 0; i < r->senders; i++) {
		/* forward: what entered port i leaves the other one */
		uint32_t out = (i + 1) % r->nports;
		struct sink *s = &r->sinks[out];
		struct xskx_sim_port_stats st;

		for (uint32_t seq = 0; seq < r->packets; seq++)
			ck_assert_msg(s->seen[i][seq] == 1,
				      "packet %u from port %u left port %u %u times",
				      seq, i, out, s->seen[i][seq]);
		ck_assert_uint_eq(s->corrupt, 0);
		ck_assert_uint_eq(s->stack, 0);
		ck_assert_int_eq(xskx_sim_port_stats(r->ports[i], &st), 0);
		ck_assert_uint_eq(st.rx_missed, 0);
		ck_assert_uint_eq(st.wire_drops, 0);
	}
	for (uint32_t k = 0; k < r->nqueues; k++) {
		fwd_finish(&r->queues[k]);
		for (uint32_t i = 0; i < r->nports; i++)
			ck_assert_uint_eq(r->queues[k].ports[i].count.dropped, 0);
		ck_assert_msg(test_census_all_in_pool(r->queues[k].umem, why,
						      sizeof(why)) ||
				      test_census_ok(r->queues[k].umem, 0, why,
						     sizeof(why)),
			      "queue %u after the run: %s", k, why);
	}
}

static uint64_t total(const struct rig *r, bool tx)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; k < r->nqueues; k++)
		for (uint32_t i = 0; i < r->nports; i++)
			sum += tx ? r->queues[k].ports[i].count.tx :
				    r->queues[k].ports[i].count.rx;
	return sum;
}

START_TEST(forward_both_directions)
{
	struct rig r;

	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(total(&r, false), 2 * PACKETS_PER_PORT);
	ck_assert_uint_eq(total(&r, true), 2 * PACKETS_PER_PORT);
	/*
	 * The simulated NIC's sockets have no file descriptor: an idle
	 * worker cannot block in poll(2) on them and naps instead.
	 */
	ck_assert_int_eq(fwd_wait(&r.queues[0], 0), 0);
	rig_teardown(&r);
}
END_TEST

START_TEST(reflect_swaps_macs)
{
	struct rig r;

	rig_setup(&r, 1, 1, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(total(&r, true), PACKETS_PER_PORT);
	rig_teardown(&r);
}
END_TEST

START_TEST(forward_two_queues)
{
	struct rig r;

	rig_setup(&r, 2, 2, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	/* RSS gave both queues a share: both threads' worth of work ran. */
	for (uint32_t k = 0; k < 2; k++)
		ck_assert_uint_gt(r.queues[k].ports[0].count.rx, 0);
	rig_teardown(&r);
}
END_TEST

/*
 * Port "out" takes nothing from its TX ring from round stall_from until
 * stall_until; its ring fills up. Under hold, the forwarder then holds what
 * the ring cannot take and stops reading port "in": from the first round it
 * holds anything until TX resumes, it receives nothing more.
 */
static void stall_out_port(struct rig *r, uint32_t round)
{
	struct fwd_queue *q = &r->queues[0];

	if (round == r->stall_from || round == r->stall_until) {
		r->faults[1].tx_stalled = round == r->stall_from;
		ck_assert_int_eq(xskx_sim_port_set_faults(r->ports[1],
							  &r->faults[1]),
				 0);
	}
	if (q->tx_full == FWD_TX_FULL_DROP) {
		ck_assert_uint_eq(fwd_held(q), 0);
		return;
	}
	if (round <= r->stall_from || round > r->stall_until)
		return;
	if (!r->held_seen && fwd_held(q)) {
		r->held_seen = true;
		r->rx_when_held = q->ports[0].count.rx;
	}
	if (r->held_seen)
		ck_assert_msg(q->ports[0].count.rx == r->rx_when_held,
			      "round %u: port in read while packets were held",
			      round);
}

/* Under hold, the forwarder gave up nothing while TX was stalled. */
static void assert_nothing_dropped_by_forwarder(const struct rig *r)
{
	for (uint32_t i = 0; i < r->nports; i++) {
		ck_assert_uint_eq(r->queues[0].ports[i].count.tx_full_drops, 0);
		ck_assert_uint_eq(r->queues[0].ports[i].count.dropped, 0);
	}
}

/*
 * A stall long enough for more packets than the TX ring holds, short
 * enough for fewer than the UMEM has frames: the held packets and those
 * behind them wait on port in's RX ring, none is lost anywhere, and all
 * arrive once TX resumes. One direction only, so that every packet the NIC
 * takes is one the stalled path must account for.
 */
START_TEST(backpressure_holds_instead_of_dropping)
{
	struct rig r;

	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	r.senders = 1;
	r.stall_from = 20;
	r.stall_until = r.stall_from + 150;
	run(&r, stall_out_port);
	ck_assert(r.held_seen);
	ck_assert_uint_lt(r.rx_when_held, r.stall_until * INJECT_PER_ROUND);
	assert_nothing_dropped_by_forwarder(&r);
	assert_delivered(&r);
	rig_teardown(&r);
}
END_TEST

/*
 * Under hold, with TX stalled while every test packet arrives: the
 * backpressure reaches the NIC, which misses packets or finds the RX ring
 * full, while the forwarder drops none; once TX resumes, every packet it
 * received leaves port out exactly once.
 */
START_TEST(tx_full_hold_backs_up_to_the_nic)
{
	struct xskx_sim_port_stats in;
	struct rig r;

	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	r.senders = 1;
	r.packets = MAX_PACKETS_PER_PORT;
	r.stall_from = 1;
	r.stall_until = 2 * MAX_PACKETS_PER_PORT / INJECT_PER_ROUND;
	run(&r, stall_out_port);
	ck_assert(r.held_seen);
	ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &in), 0);
	ck_assert_uint_gt(in.rx_missed + in.xdp_redirect_err, 0);
	assert_nothing_dropped_by_forwarder(&r);
	ck_assert_uint_eq(r.queues[0].ports[0].count.rx + in.rx_missed +
				  in.xdp_redirect_err,
			  MAX_PACKETS_PER_PORT);
	ck_assert_uint_eq(r.sinks[1].packets, r.queues[0].ports[0].count.rx);
	for (uint32_t seq = 0; seq < MAX_PACKETS_PER_PORT; seq++)
		ck_assert_uint_le(r.sinks[1].seen[0][seq], 1);
	ck_assert_uint_eq(r.sinks[1].corrupt, 0);
	rig_teardown(&r);
}
END_TEST


/*
 * Give back what the forwarder still holds, with nothing held at the end
 * counted as dropped, and check every frame came home.
 */
static void finish_whole(struct rig *r)
{
	char why[384];

	fwd_finish(&r->queues[0]);
	ck_assert_uint_eq(r->queues[0].ports[0].count.dropped, 0);
	ck_assert_msg(test_census_all_in_pool(r->queues[0].umem, why,
					      sizeof(why)) ||
			      test_census_ok(r->queues[0].umem, 0, why,
					     sizeof(why)),
		      "after the run: %s", why);
}

/*
 * Under drop, with TX stalled for a while: the forwarder keeps reading
 * port in, so the NIC loses nothing; what TX could not take was released
 * and counted, and every other packet left port out exactly once. The
 * frame census is whole at every step (run() checks it, nothing held).
 */
START_TEST(tx_full_drop_counts_what_it_releases)
{
	struct xskx_sim_port_stats st;
	uint64_t delivered = 0, drops;
	struct rig r;

	rig_setup(&r, 2, 1, FWD_TX_FULL_DROP);
	r.senders = 1;
	r.stall_from = 20;
	r.stall_until = r.stall_from + 150;
	run(&r, stall_out_port);
	drops = r.queues[0].ports[0].count.tx_full_drops;
	ck_assert_uint_gt(drops, 0);
	for (uint32_t seq = 0; seq < r.packets; seq++) {
		ck_assert_uint_le(r.sinks[1].seen[0][seq], 1);
		delivered += r.sinks[1].seen[0][seq];
	}
	ck_assert_uint_eq(r.sinks[1].corrupt, 0);
	ck_assert_uint_eq(delivered + drops, r.packets);
	ck_assert_uint_eq(r.queues[0].ports[0].count.rx, r.packets);
	ck_assert_uint_eq(r.queues[0].ports[1].count.tx, delivered);
	ck_assert_int_eq(xskx_sim_port_stats(r.ports[0], &st), 0);
	ck_assert_uint_eq(st.rx_missed, 0);
	ck_assert_uint_eq(st.xdp_redirect_err, 0);
	finish_whole(&r);
	rig_teardown(&r);
}
END_TEST


/*
 * The forwarder sleeps while packets keep arriving: its RX ring fills, the
 * NIC runs out of posted buffers and misses packets. Every packet offered
 * (the test injected it) either left the other port (its sink saw it) or is
 * counted lost, by the stage that lost it: the identity holds exactly.
 */
START_TEST(losses_add_up_to_what_was_offered)
{
	struct loss_port port;
	struct loss_sock sock = { 0 };
	struct xskx_stats st;
	struct loss lost;
	uint64_t delivered = 0;
	struct rig r;

	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	r.senders = 1;
	r.packets = MAX_PACKETS_PER_PORT;
	r.sleep_from = 2;
	/* 5600 packets arrive meanwhile: more than port in's share of 4096. */
	r.sleep_until = r.sleep_from + 350;
	loss_port_begin(&port, NULL, r.ports[0], r.queues[0].ports[0].port);
	run(&r, NULL);
	fwd_finish(&r.queues[0]);
	for (uint32_t seq = 0; seq < r.packets; seq++) {
		ck_assert_uint_le(r.sinks[1].seen[0][seq], 1);
		delivered += r.sinks[1].seen[0][seq];
	}
	ck_assert_uint_eq(r.sinks[1].corrupt, 0);
	ck_assert_int_eq(xskx_socket_stats(r.queues[0].ports[0].sock, &st), 0);
	loss_sock_add(&sock, &st);
	loss_port_read(&port, &sock, fwd_given_up(&r.queues[0].ports[0].count),
		       &lost);
	ck_assert_uint_gt(lost.nic_rx, 0);
	ck_assert_uint_eq(delivered + loss_total(&lost), r.packets);
	ck_assert_uint_lt(delivered, r.packets);
	rig_teardown(&r);
}
END_TEST

/*
 * A filter that passes the packets of even sequence number and drops the
 * others.
 */
struct filter_log {
	uint32_t calls, seen;
};

static void keep_even(void *ctx, uint32_t port, const struct xskx_pkt *pkts,
		      uint32_t n, uint8_t *verdicts)
{
	struct filter_log *log = ctx;

	ck_assert_uint_eq(port, 0);
	ck_assert_uint_le(n, 64);
	log->calls++;
	log->seen += n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t seq;

		ck_assert_uint_eq(verdicts[i], XSKX_PKT_PASS);
		memcpy(&seq, pkts[i].data + OFF_SEQ, sizeof(seq));
		if (seq % 2)
			verdicts[i] = XSKX_PKT_DROP;
	}
}

/*
 * Ten packets on port in; the filter passes 0, 2, 4, 6 and 8. Port in
 * counts all ten received (the filter's drops included), and the five
 * leave port out once each, none refused; no frame is lost on the way
 * (run() checks the census every round).
 */
START_TEST(filter_verdicts_counted)
{
	struct filter_log log = { 0 };
	struct fwd_counters in, out;
	struct xskx_stats st;
	struct rig r;

	rig_setup_filtered(&r, 2, 1, FWD_TX_FULL_HOLD, keep_even, &log);
	r.senders = 1;
	r.packets = 10;
	run(&r, NULL);
	ck_assert_uint_eq(log.seen, 10);
	fwd_counters_read(&r.queues[0].ports[0], &in);
	fwd_counters_read(&r.queues[0].ports[1], &out);
	ck_assert_uint_eq(in.rx, 10);
	ck_assert_uint_eq(in.tx_rejected, 0);
	ck_assert_uint_eq(in.tx_full_drops, 0);
	ck_assert_uint_eq(out.tx, 5);
	ck_assert_uint_eq(out.rx, 0);
	ck_assert_uint_eq(r.sinks[1].packets, 5);
	ck_assert_uint_eq(r.sinks[1].corrupt, 0);
	for (uint32_t seq = 0; seq < 10; seq++)
		ck_assert_msg(r.sinks[1].seen[0][seq] == (seq % 2 ? 0 : 1),
			      "packet %u left port out %u times", seq,
			      r.sinks[1].seen[0][seq]);
	ck_assert_uint_eq(r.sinks[0].packets, 0);
	ck_assert_int_eq(xskx_socket_stats(r.queues[0].ports[1].sock, &st), 0);
	ck_assert_uint_eq(st.tx_rejected, 0);
	finish_whole(&r);
	rig_teardown(&r);
}
END_TEST

static uint64_t completed(const struct rig *r)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; k < r->nqueues; k++)
		for (uint32_t i = 0; i < r->nports; i++)
			sum += r->queues[k].ports[i].count.csum_completed;
	return sum;
}

/*
 * Partial checksums leave completed (the sinks compare every byte with a
 * reference sum), counted once per packet; packets with a complete or no
 * checksum (every other case here) leave unchanged and uncounted.
 */
START_TEST(partial_checksums_completed)
{
	struct rig r;

	csum_mode = CSUM_COMPLETED;
	rig_setup(&r, 2, 2, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(completed(&r), 2 * PACKETS_PER_PORT);
	for (uint32_t i = 0; i < 2; i++) {
		uint64_t port = 0;

		for (uint32_t k = 0; k < r.nqueues; k++)
			port += r.queues[k].ports[i].count.csum_completed;
		ck_assert_uint_eq(port, PACKETS_PER_PORT);
	}
	rig_teardown(&r);
	/* Reflected too. */
	rig_setup(&r, 1, 1, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(completed(&r), PACKETS_PER_PORT);
	rig_teardown(&r);
	/* Complete ones: sent as they are, nothing counted. */
	csum_mode = CSUM_COMPLETE;
	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(completed(&r), 0);
	rig_teardown(&r);
}
END_TEST

/* keep_partial_csum: the packets leave as they came, partial. */
START_TEST(partial_checksums_kept_when_asked)
{
	struct rig r;

	csum_mode = CSUM_KEPT;
	rig_setup(&r, 2, 1, FWD_TX_FULL_HOLD);
	run(&r, NULL);
	assert_delivered(&r);
	ck_assert_uint_eq(completed(&r), 0);
	rig_teardown(&r);
}
END_TEST

/* One test case per behaviour, so that CTest can run each by name. */
int main(int argc, char **argv)
{
	Suite *s = suite_create("l2fwd_example_sim");

	test_add_case(s, "forward_both_directions", forward_both_directions);
	test_add_case(s, "reflect_swaps_macs", reflect_swaps_macs);
	test_add_case(s, "forward_two_queues", forward_two_queues);
	test_add_case(s, "backpressure_holds_instead_of_dropping",
		 backpressure_holds_instead_of_dropping);
	test_add_case(s, "tx_full_hold_backs_up_to_the_nic",
		 tx_full_hold_backs_up_to_the_nic);
	test_add_case(s, "tx_full_drop_counts_what_it_releases",
		 tx_full_drop_counts_what_it_releases);
	test_add_case(s, "losses_add_up_to_what_was_offered",
		 losses_add_up_to_what_was_offered);
	test_add_case(s, "filter_verdicts_counted",
		 filter_verdicts_counted);
	test_add_case(s, "partial_checksums_completed",
		 partial_checksums_completed);
	test_add_case(s, "partial_checksums_kept_when_asked",
		 partial_checksums_kept_when_asked);
	return test_main(s, argc, argv);
}
