// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An L2 forwarder on the simulated NIC, the way xdpsock -l runs one: a
 * traffic source feeds port "in", its packets reach socket "rx", the
 * application hands the very same frames to socket "tx" on port "out" (the
 * two sockets share one UMEM: no copy), and "out" transmits them to a
 * counting sink. Afterwards every packet is accounted for (sent = received +
 * counted drops, and no drops at all) and every frame too. Each case runs
 * on the burst API and again on the batch API (xskx/batch.h).
 */
#include <string.h>
#include <time.h>

#include "helpers.h"

#define L2FWD_PACKETS 1000000u
#define L2FWD_THREADED_PACKETS 200000u
#define L2FWD_BATCH 64u
#define L2FWD_FRAMES 4096u
/* Census check every this many forwarded packets. */
#define L2FWD_CENSUS_EVERY 65536u
/* Loop bounds: turns per packet are about 1/64 when all goes well. */
#define L2FWD_MAX_TURNS_PER_PKT 4u
#define L2FWD_TIME_LIMIT_S 60
#define L2FWD_NAP_NS 20000L

struct l2fwd {
	struct xskx_sim *sim;
	struct xskx_sim_port *in, *out;
	struct xskx_umem *umem;
	struct xskx_socket *rx, *tx;
	uint64_t sink_packets; /* written by the NIC (thread), read atomically */
	uint64_t sink_stack;
	/* The source's sequence numbers at the sink: read after the NIC stops. */
	uint64_t sink_next_seq;
	uint64_t sink_out_of_order;
	struct xskx_pkt
		pending[L2FWD_BATCH]; /* received, not yet accepted by tx */
	uint32_t npending;
	/* The batch API instead: the batch peeked, not yet all forwarded. */
	bool use_batch;
	struct xskx_rx_batch batch;
	uint64_t forwarded;
	struct timespec deadline;
};

/* sim.h's source: a 64-bit big-endian sequence number after the UDP header. */
#define SOURCE_SEQ_OFFSET (14 + 20 + 8)

static uint64_t read_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Counts what port "out" transmits, and checks it comes in the source's order. */
static void count_sink(enum xskx_sim_sink_kind kind, const uint8_t *data,
		       uint32_t len, uint32_t queue, void *ctx)
{
	struct l2fwd *l = ctx;

	(void)queue;
	if (kind != XSKX_SIM_SINK_TX) {
		__atomic_fetch_add(&l->sink_stack, 1, __ATOMIC_RELAXED);
		return;
	}
	if (len < SOURCE_SEQ_OFFSET + 8 ||
	    read_be64(data + SOURCE_SEQ_OFFSET) != l->sink_next_seq)
		l->sink_out_of_order++;
	l->sink_next_seq++;
	__atomic_fetch_add(&l->sink_packets, 1, __ATOMIC_RELAXED);
}

static void l2fwd_setup(struct l2fwd *l, enum xskx_sim_mode mode,
			uint64_t packets, bool use_batch)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = mode);
	XSKX_OPTS(xskx_sim_port_opts, in_opts, .name = "in");
	XSKX_OPTS(xskx_sim_port_opts, out_opts, .name = "out");
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = 64,
		  .count = packets, .burst = L2FWD_BATCH);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = L2FWD_FRAMES,
		  .frame_size = xskx_frame_size_for_mtu(1500, 0));
	XSKX_OPTS(xskx_socket_opts, rx_opts, .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, tx_opts, .flags = XSKX_SOCKET_NO_RX);

	memset(l, 0, sizeof(*l));
	l->use_batch = use_batch;
	clock_gettime(CLOCK_MONOTONIC, &l->deadline);
	l->deadline.tv_sec += L2FWD_TIME_LIMIT_S;
	ck_assert_int_eq(xskx_sim_create(&l->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(l->sim, &in_opts, &l->in), 0);
	ck_assert_int_eq(xskx_sim_port_create(l->sim, &out_opts, &l->out), 0);
	ck_assert_int_eq(xskx_sim_port_add_source(l->in, &source), 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(l->out, count_sink, l), 0);
	ck_assert_msg(!xskx_umem_create(&l->umem, &umem_opts), "%s",
		      xskx_last_error());
	rx_opts.port = test_port(l->in);
	tx_opts.port = test_port(l->out);
	ck_assert_msg(!xskx_socket_open(&l->rx, l->umem, &rx_opts), "%s",
		      xskx_last_error());
	ck_assert_msg(!xskx_socket_open(&l->tx, l->umem, &tx_opts), "%s",
		      xskx_last_error());
}

static bool past_deadline(const struct l2fwd *l)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > l->deadline.tv_sec ||
	       (now.tv_sec == l->deadline.tv_sec &&
		now.tv_nsec > l->deadline.tv_nsec);
}

/*
 * The batch API: peek when the last batch is all forwarded, then forward
 * what tx takes; the rest waits on the RX ring. Returns packets moved.
 */
static uint32_t forward_batch_once(struct l2fwd *l)
{
	int n = 0, sent;

	if (!l->batch.n) {
		n = xskx_rx_peek(l->rx, &l->batch, L2FWD_BATCH);
		ck_assert_msg(n >= 0, "xskx_rx_peek: %s", xskx_strerror(n));
	}
	sent = xskx_rx_forward(l->rx, &l->batch, l->tx);
	ck_assert_msg(sent >= 0, "xskx_rx_forward: %s", xskx_strerror(sent));
	l->forwarded += (uint64_t)sent;
	return (uint32_t)n + (uint32_t)sent;
}

/* Receive into the pending batch, then forward what tx accepts. Returns packets moved. */
static uint32_t forward_once(struct l2fwd *l)
{
	int n;
	int accepted;

	if (l->use_batch)
		return forward_batch_once(l);
	n = xskx_rx_burst(l->rx, l->pending + l->npending,
			      L2FWD_BATCH - l->npending);
	ck_assert_msg(n >= 0, "xskx_rx_burst: %s", xskx_strerror(n));
	l->npending += (uint32_t)n;
	if (!l->npending)
		return 0;
	accepted = xskx_tx_burst(l->tx, l->pending, l->npending);
	ck_assert_msg(accepted >= 0, "xskx_tx_burst: %s",
		      xskx_strerror(accepted));
	l->npending -= (uint32_t)accepted;
	memmove(l->pending, l->pending + accepted,
		l->npending * sizeof(l->pending[0]));
	l->forwarded += (uint64_t)accepted;
	return (uint32_t)n + (uint32_t)accepted;
}

static void assert_census(struct l2fwd *l, uint32_t app)
{
	struct xskx_frame_census c;
	char why[384];

	ck_assert_msg(test_census_ok(l->umem, app, why, sizeof(why)),
		      "after %llu packets forwarded: %s",
		      (unsigned long long)l->forwarded, why);
	ck_assert_int_eq(xskx_umem_census(l->umem, &c), 0);
	ck_assert_msg(c.nic_counted,
		      "the simulated NIC did not count its frames");
}

static void run_deterministic(struct l2fwd *l, uint64_t packets)
{
	uint64_t max_turns =
		packets * L2FWD_MAX_TURNS_PER_PKT / L2FWD_BATCH + 10000;
	uint64_t next_census = L2FWD_CENSUS_EVERY;
	uint32_t idle = 0;

	for (uint64_t turn = 0; idle < 3; turn++) {
		int polled = xskx_sim_poll(l->sim);
		uint32_t moved;

		ck_assert_msg(
			turn < max_turns,
			"still forwarding after %llu turns (%llu forwarded)",
			(unsigned long long)turn,
			(unsigned long long)l->forwarded);
		ck_assert_msg(polled >= 0, "xskx_sim_poll: %s",
			      xskx_strerror(polled));
		moved = forward_once(l);
		if (l->forwarded >= next_census) {
			/* A batch's packets are on RX, a burst's the application's. */
			assert_census(l, l->npending);
			next_census += L2FWD_CENSUS_EVERY;
		}
		idle = !polled && !moved && !l->npending && !l->batch.n &&
				       !xskx_sim_sources_active(l->sim) ?
			       idle + 1 :
			       0;
	}
}

static void nap(void)
{
	struct timespec ts = { .tv_nsec = L2FWD_NAP_NS };

	nanosleep(&ts, NULL);
}

static void run_threaded(struct l2fwd *l, uint64_t packets)
{
	uint64_t max_turns = packets * L2FWD_MAX_TURNS_PER_PKT + 100000;

	ck_assert_int_eq(xskx_sim_start(l->sim), 0);
	for (uint64_t turn = 0;
	     __atomic_load_n(&l->sink_packets, __ATOMIC_RELAXED) < packets;
	     turn++) {
		ck_assert_msg(
			turn < max_turns && !past_deadline(l),
			"still forwarding after %llu turns: %llu forwarded, %llu at the sink",
			(unsigned long long)turn,
			(unsigned long long)l->forwarded,
			(unsigned long long)__atomic_load_n(&l->sink_packets,
							    __ATOMIC_RELAXED));
		if (!forward_once(l))
			nap();
	}
}

/* Reclaim until every frame handed to tx has completed; kick if TX sleeps. */
static void drain_completions(struct l2fwd *l, bool threaded)
{
	struct xskx_rings rings;
	struct xskx_stats stats;

	ck_assert_int_eq(xskx_socket_rings(l->tx, &rings), 0);
	for (uint32_t turn = 0;; turn++) {
		xskx_tx_reclaim(l->tx);
		ck_assert_int_eq(xskx_socket_stats(l->tx, &stats), 0);
		if (stats.tx_completed == stats.tx_packets)
			return;
		ck_assert_msg(turn < 100000 && !past_deadline(l),
			      "%llu of %llu transmitted frames never completed",
			      (unsigned long long)(stats.tx_packets -
						   stats.tx_completed),
			      (unsigned long long)stats.tx_packets);
		if (test_needs_wakeup(rings.tx))
			ck_assert_int_eq(xskx_socket_kick_tx(l->tx), 0);
		if (threaded)
			nap();
		else
			ck_assert_int_ge(xskx_sim_poll(l->sim), 0);
	}
}

/* sent = received + counted drops, and by design no drops at all. */
static void assert_every_packet_accounted(struct l2fwd *l, uint64_t packets)
{
	struct xskx_sim_port_stats in, out;
	struct xskx_stats rx, tx;
	uint64_t sent, received, drops;

	ck_assert_int_eq(xskx_sim_port_stats(l->in, &in), 0);
	ck_assert_int_eq(xskx_sim_port_stats(l->out, &out), 0);
	ck_assert_int_eq(xskx_socket_stats(l->rx, &rx), 0);
	ck_assert_int_eq(xskx_socket_stats(l->tx, &tx), 0);
	sent = in.source_packets;
	received = l->sink_packets;
	drops = in.rx_missed + in.xdp_drop + rx.rx_dropped +
		tx.tx_invalid_descs + out.wire_drops;

	ck_assert_msg(sent == packets,
		      "the source sent %llu packets, expected %llu",
		      (unsigned long long)sent, (unsigned long long)packets);
	ck_assert_msg(received == out.tx_packets,
		      "the sink saw %llu packets, port out says it sent %llu",
		      (unsigned long long)received,
		      (unsigned long long)out.tx_packets);
	ck_assert_msg(
		sent == received + drops,
		"sent %llu != received %llu + drops %llu (rx_missed %llu, xdp_drop %llu, rx_dropped %llu, tx_invalid_descs %llu, wire_drops %llu)",
		(unsigned long long)sent, (unsigned long long)received,
		(unsigned long long)drops, (unsigned long long)in.rx_missed,
		(unsigned long long)in.xdp_drop,
		(unsigned long long)rx.rx_dropped,
		(unsigned long long)tx.tx_invalid_descs,
		(unsigned long long)out.wire_drops);
	ck_assert_msg(
		!drops,
		"%llu packets dropped; a source paced by the hardware ring and an RX ring that stops the poll when full should lose none (rx_ring_full %llu, napi_stops %llu)",
		(unsigned long long)drops, (unsigned long long)rx.rx_ring_full,
		(unsigned long long)in.napi_stops);
	ck_assert_msg(
		rx.rx_packets == packets && tx.tx_packets == packets &&
			l->forwarded == packets,
		"rx_packets %llu, tx_packets %llu, forwarded %llu, expected %llu each",
		(unsigned long long)rx.rx_packets,
		(unsigned long long)tx.tx_packets,
		(unsigned long long)l->forwarded, (unsigned long long)packets);
	ck_assert_uint_eq(__atomic_load_n(&l->sink_stack, __ATOMIC_RELAXED), 0);
	ck_assert_msg(!l->sink_out_of_order,
		      "%llu packets left port out out of the source's order",
		      (unsigned long long)l->sink_out_of_order);
}

static void l2fwd_teardown(struct l2fwd *l)
{
	char why[384];

	ck_assert_int_eq(xskx_socket_close(l->rx), 0);
	ck_assert_int_eq(xskx_socket_close(l->tx), 0);
	ck_assert_msg(test_census_all_in_pool(l->umem, why, sizeof(why)),
		      "after closing the sockets: %s", why);
	ck_assert_int_eq(xskx_umem_destroy(l->umem), 0);
	ck_assert_int_eq(test_sim_destroy(l->sim), 0);
}

static void l2fwd_deterministic(bool use_batch)
{
	struct l2fwd l;

	l2fwd_setup(&l, XSKX_SIM_DETERMINISTIC, L2FWD_PACKETS, use_batch);
	run_deterministic(&l, L2FWD_PACKETS);
	drain_completions(&l, false);
	assert_census(&l, 0);
	assert_every_packet_accounted(&l, L2FWD_PACKETS);
	l2fwd_teardown(&l);
}

static void l2fwd_threaded(bool use_batch)
{
	struct l2fwd l;

	l2fwd_setup(&l, XSKX_SIM_THREADED, L2FWD_THREADED_PACKETS, use_batch);
	run_threaded(&l, L2FWD_THREADED_PACKETS);
	drain_completions(&l, true);
	ck_assert_int_eq(xskx_sim_stop(l.sim), 0);
	assert_census(&l, 0);
	assert_every_packet_accounted(&l, L2FWD_THREADED_PACKETS);
	l2fwd_teardown(&l);
}

START_TEST(l2fwd_1m_deterministic)
{
	l2fwd_deterministic(false);
}
END_TEST

START_TEST(l2fwd_1m_deterministic_batch)
{
	l2fwd_deterministic(true);
}
END_TEST

START_TEST(l2fwd_threaded_burst)
{
	l2fwd_threaded(false);
}
END_TEST

START_TEST(l2fwd_threaded_batch)
{
	l2fwd_threaded(true);
}
END_TEST

static Suite *l2fwd_suite(void)
{
	Suite *s = suite_create("l2fwd");
	TCase *det = tcase_create("L2FWD_1M");
	TCase *det_batch = tcase_create("L2FWD_1M_BATCH");
	TCase *thr = tcase_create("L2FWD_THREADED");
	TCase *thr_batch = tcase_create("L2FWD_THREADED_BATCH");

	tcase_set_timeout(det, 2 * L2FWD_TIME_LIMIT_S);
	tcase_add_test(det, l2fwd_1m_deterministic);
	suite_add_tcase(s, det);
	tcase_set_timeout(det_batch, 2 * L2FWD_TIME_LIMIT_S);
	tcase_add_test(det_batch, l2fwd_1m_deterministic_batch);
	suite_add_tcase(s, det_batch);
	tcase_set_timeout(thr, 2 * L2FWD_TIME_LIMIT_S);
	tcase_add_test(thr, l2fwd_threaded_burst);
	suite_add_tcase(s, thr);
	tcase_set_timeout(thr_batch, 2 * L2FWD_TIME_LIMIT_S);
	tcase_add_test(thr_batch, l2fwd_threaded_batch);
	suite_add_tcase(s, thr_batch);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(l2fwd_suite(), argc, argv);
}
