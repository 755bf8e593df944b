// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The verdict batch (xskx/verdict.h) on the simulated NIC, deterministic:
 * each verdict does what it says, in the ring's order, every packet counted
 * once; a full TX ring holds or drops as asked; chains are judged whole;
 * empty, single and full-ring batches; every refusal leaves the batch as
 * it was. Every case ends with the census: no frame lost.
 */
#include <errno.h>
#include <string.h>

#include "helpers.h"

#define FRAMES 256u
#define PKT_LEN 64u
#define RING 8u

static void rig_open(struct test_rig *rig, uint32_t mtu, uint32_t flags,
		     uint32_t rx_size, uint32_t tx_size)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "v0", .mtu = mtu);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES,
		  .frame_size = 2048);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = flags,
		  .rx_size = rx_size, .tx_size = tx_size);

	test_rig_open(rig, &port_opts, &umem_opts, &sock_opts);
	test_rig_fill(rig);
}

/* n frames of len bytes numbered first, first + 1, ... (test_seq_of()). */
static void receive(struct test_rig *rig, uint32_t first, uint32_t n,
		    uint32_t len)
{
	for (uint32_t i = 0; i < n; i++)
		test_inject_seq(rig->port, first + i, len);
	ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
}

static void flush(struct test_rig *rig)
{
	ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
}

/* Peek and recycle until RX is empty (a batch stops at the ring's end). */
static uint32_t recycle_all(struct test_rig *rig)
{
	struct xskx_rx_batch b;
	uint32_t total = 0;
	int n;

	for (int i = 0; i < 8 && (n = xskx_rx_peek(rig->sock, &b, 64)) > 0;
	     i++) {
		ck_assert_int_eq(xskx_rx_recycle(rig->sock, &b), n);
		total += (uint32_t)n;
	}
	return total;
}

/* Peek and drop by verdict until RX is empty; the packets dropped. */
static uint32_t drop_all(struct test_rig *rig)
{
	uint8_t v[64];
	struct xskx_rx_verdict_result r = { 0 };
	struct xskx_rx_batch b;
	uint32_t total = 0;
	int n;

	memset(v, XSKX_PKT_DROP, sizeof(v));
	for (int i = 0; i < 8 && (n = xskx_rx_peek(rig->sock, &b, 64)) > 0;
	     i++) {
		ck_assert_int_eq(xskx_rx_verdict(rig->sock, &b, v, NULL, 0, &r),
				 n);
		total += r.dropped;
	}
	return total;
}

/* Pass, drop and keep mixed: each packet where its verdict says, in order. */
START_TEST(verdicts_mixed_in_order)
{
	const uint8_t v[6] = { XSKX_PKT_PASS, XSKX_PKT_DROP, XSKX_PKT_KEEP,
			       XSKX_PKT_PASS, XSKX_PKT_DROP, XSKX_PKT_KEEP };
	struct xskx_pkt keep[8];
	struct xskx_rx_verdict_result r = { .keep = keep, .keep_max = 8 };
	struct xskx_frame_census c;
	struct xskx_stats st;
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_open(&rig, 1500, 0, RING, RING);
	receive(&rig, 0, 6, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 6);
	ck_assert_uint_eq(b.n, 0);
	ck_assert_uint_eq(r.forwarded, 2);
	ck_assert_uint_eq(r.dropped, 2);
	ck_assert_uint_eq(r.kept, 2);
	ck_assert_uint_eq(r.keep_entries, 2);
	ck_assert_uint_eq(r.tx_full_dropped + r.held, 0);
	ck_assert_uint_eq(test_seq_of(keep[0].data), 2);
	ck_assert_uint_eq(test_seq_of(keep[1].data), 5);
	ck_assert_uint_eq(keep[0].len, PKT_LEN);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 2);
	ck_assert_uint_eq(rig.wire_seq[0], 0);
	ck_assert_uint_eq(rig.wire_seq[1], 3);
	ck_assert_int_eq(xskx_socket_stats(rig.sock, &st), 0);
	ck_assert_uint_eq(st.rx_packets, 6);
	ck_assert_uint_eq(st.rx_bytes, 6 * PKT_LEN);
	ck_assert_uint_eq(st.tx_packets, 2);
	ck_assert_uint_eq(st.tx_bytes, 2 * PKT_LEN);
	/* The kept frames are the application's until it gives them back. */
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.app, 2);
	ck_assert_int_eq(xskx_rx_release(rig.sock, keep, 2), 0);
	/* A frame given back twice is refused: they were marked held. */
	ck_assert_int_eq(xskx_rx_release(rig.sock, keep, 1), -EINVAL);
	/* The dropped frames went back to FILL: 8 more arrive, all of them. */
	receive(&rig, 10, RING, PKT_LEN);
	ck_assert_uint_eq(recycle_all(&rig), RING);
	test_rig_destroy(&rig);
}
END_TEST

/* Empty, one packet, and a full RX ring dropped whole. */
START_TEST(batches_of_0_1_and_a_full_ring)
{
	uint8_t v[RING];
	struct xskx_rx_verdict_result r = { 0 };
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_open(&rig, 1500, 0, RING, RING);
	/* The whole RX ring in one batch, dropped: FILL gets every frame. */
	receive(&rig, 0, RING, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), (int)RING);
	memset(v, XSKX_PKT_DROP, sizeof(v));
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, NULL, 0, &r),
			 (int)RING);
	ck_assert_uint_eq(r.dropped, RING);
	/*
	 * Many times the UMEM's frames dropped: each goes back to FILL's share,
	 * so that the NIC never runs out of buffers.
	 */
	for (uint32_t round = 0; round < 2 * FRAMES / RING; round++) {
		receive(&rig, 1000 + round * RING, RING, PKT_LEN);
		ck_assert_uint_eq(drop_all(&rig), RING);
	}
	/* Nothing received: the empty batch is judged, nothing happens. */
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 0);
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, NULL, NULL, 0, &r), 0);
	ck_assert_uint_eq(r.forwarded + r.dropped + r.kept, 0);
	receive(&rig, 200, 1, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 1);
	v[0] = XSKX_PKT_PASS;
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 1);
	ck_assert_uint_eq(r.forwarded, 1);
	ck_assert_uint_eq(r.dropped, 0);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 1);
	ck_assert_uint_eq(rig.wire_seq[0], 200);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * A TX ring of 4 and 6 passing packets: by default the call stops at the
 * fifth, which stays in the batch with the sixth; with
 * XSKX_RX_VERDICT_TX_FULL_DROP both are recycled and counted.
 */
START_TEST(tx_full_holds_or_drops)
{
	uint8_t v[6];
	struct xskx_rx_verdict_result r = { 0 };
	struct xskx_rx_batch b;
	struct test_rig rig;

	memset(v, XSKX_PKT_PASS, sizeof(v));
	rig_open(&rig, 1500, 0, 16, 4);
	receive(&rig, 0, 6, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 4);
	ck_assert_uint_eq(r.forwarded, 4);
	ck_assert_uint_eq(r.held, 2);
	ck_assert_uint_eq(b.n, 2);
	ck_assert_uint_eq(test_seq_of(xskx_rx_batch_data(&b, 0)), 4);
	flush(&rig);
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v + 4, rig.sock, 0, &r),
			 2);
	ck_assert_uint_eq(r.held, 0);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 6);
	ck_assert_uint_eq(rig.wire_seq[5], 5);

	receive(&rig, 10, 6, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock,
					 XSKX_RX_VERDICT_TX_FULL_DROP, &r),
			 6);
	ck_assert_uint_eq(r.forwarded, 4);
	ck_assert_uint_eq(r.tx_full_dropped, 2);
	ck_assert_uint_eq(r.held, 0);
	ck_assert_uint_eq(b.n, 0);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 10);
	ck_assert_uint_eq(rig.wire_seq[9], 13);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * Multi-buffer: a chain's verdict is its first entry's; passed, dropped and
 * kept whole (a kept chain's entries in order, XDP_PKT_CONTD on all but
 * the last); TX room for one chain of two holds the second whole.
 */
START_TEST(chains_judged_whole)
{
	const uint32_t len = 5000; /* 3 fragments of 2048-byte frames */
	uint8_t v[9] = { XSKX_PKT_PASS, XSKX_PKT_DROP, XSKX_PKT_DROP,
			 XSKX_PKT_DROP, XSKX_PKT_PASS, XSKX_PKT_PASS,
			 XSKX_PKT_KEEP, XSKX_PKT_DROP, XSKX_PKT_DROP };
	struct xskx_pkt keep[3];
	struct xskx_rx_verdict_result r = { .keep = keep, .keep_max = 3 };
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_open(&rig, 9000, XSKX_SOCKET_MULTI_BUFFER, 16, 16);
	receive(&rig, 0, 3, len);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 9);
	/* A kept chain needs room for all its entries in res->keep. */
	r.keep_max = 2;
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(),
				     "take 3 entries and res->keep has 2"));
	ck_assert_uint_eq(b.n, 9);
	r.keep_max = 3;
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 9);
	ck_assert_uint_eq(r.forwarded, 1);
	ck_assert_uint_eq(r.dropped, 1);
	ck_assert_uint_eq(r.kept, 1);
	ck_assert_uint_eq(r.keep_entries, 3);
	ck_assert_uint_eq(test_seq_of(keep[0].data), 2);
	ck_assert_uint_eq(keep[0].options & XDP_PKT_CONTD, XDP_PKT_CONTD);
	ck_assert_uint_eq(keep[1].options & XDP_PKT_CONTD, XDP_PKT_CONTD);
	ck_assert_uint_eq(keep[2].options & XDP_PKT_CONTD, 0);
	ck_assert_uint_eq(keep[0].len + keep[1].len + keep[2].len, len);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 1);
	ck_assert_uint_eq(rig.wire_seq[0], 0);
	ck_assert_uint_eq(rig.wire_len[0], len);
	ck_assert_int_eq(xskx_rx_release(rig.sock, keep, 3), 0);
	test_rig_destroy(&rig);

	/* TX room for 4 descriptors: the second chain waits whole. */
	rig_open(&rig, 9000, XSKX_SOCKET_MULTI_BUFFER, 16, 4);
	receive(&rig, 0, 2, len);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	memset(v, XSKX_PKT_PASS, sizeof(v));
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 3);
	ck_assert_uint_eq(r.held, 3);
	flush(&rig);
	/* Now every packet left passes and TX has room: one chain, not 3. */
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 3);
	ck_assert_uint_eq(r.forwarded, 1);
	ck_assert_uint_eq(r.held, 0);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 2);
	ck_assert_uint_eq(rig.wire_len[1], len);
	test_rig_destroy(&rig);
}
END_TEST

/* The socket a refused call sends to. */
enum refusal_out {
	OUT_SELF,
	OUT_NULL,
	OUT_OTHER_UMEM
};

/* What is wrong with a call the verdict batch refuses. */
struct refusal {
	const char *wrong;
	uint8_t v[4];	  /* the verdicts */
	bool no_verdicts; /* verdicts NULL instead */
	uint32_t flags;
	enum refusal_out out;
	bool stale;	     /* a copy of the batch, one entry on */
	int err;	     /* the call's result */
	const char *culprit; /* what its message must name */
};

#define P XSKX_PKT_PASS
#define D XSKX_PKT_DROP
#define K XSKX_PKT_KEEP
static const struct refusal refusals[] = {
	{ "a verdict neither pass, drop nor keep",
	  { P, 3, D, D },
	  .err = -EINVAL,
	  .culprit = "verdict 3 for entry 1" },
	{ "an unknown flag",
	  { P, D, D, D },
	  .flags = 2,
	  .err = -EINVAL,
	  .culprit = "flags 0x2" },
	{ "no socket to send to",
	  { P, D, D, D },
	  .out = OUT_NULL,
	  .err = -EINVAL,
	  .culprit = "out is NULL" },
	{ "more kept entries than res->keep holds",
	  { P, D, K, K },
	  .err = -EINVAL,
	  .culprit = "take 2 entries and res->keep has 1" },
	{ "no verdicts", .no_verdicts = true, .err = -EINVAL,
	  .culprit = "must not be NULL" },
	{ "a batch that is not the open one",
	  { P, D, K, D },
	  .stale = true,
	  .err = -EINVAL,
	  .culprit = "not the open one" },
	/* Refused, not copied into the other UMEM's frames. */
	{ "a socket on another UMEM",
	  { P, D, K, D },
	  .out = OUT_OTHER_UMEM,
	  .err = -EINVAL,
	  .culprit = "another UMEM" },
};
#undef P
#undef D
#undef K

/*
 * Each refusal returns its error, names its culprit and leaves the batch as
 * it was: judged after them all, every packet goes where its verdict says.
 */
START_TEST(refusals_leave_the_batch)
{
	const uint8_t v[4] = { XSKX_PKT_PASS, XSKX_PKT_DROP, XSKX_PKT_KEEP,
			       XSKX_PKT_DROP };
	struct xskx_pkt keep[1];
	struct xskx_rx_verdict_result r = { .keep = keep, .keep_max = 1 };
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "v1");
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES,
		  .frame_size = 2048);
	XSKX_OPTS(xskx_socket_opts, sock_opts);
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *other, *outs[3] = { NULL };
	struct xskx_rx_batch b, stale;
	struct test_rig rig;

	rig_open(&rig, 1500, 0, RING, RING);
	ck_assert_int_eq(xskx_sim_port_create(rig.sim, &port_opts, &port), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, &umem_opts), 0);
	sock_opts.port = test_port(port);
	ck_assert_int_eq(xskx_socket_open(&other, umem, &sock_opts), 0);
	receive(&rig, 0, 4, PKT_LEN);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 4);
	stale = b;
	stale.desc++;
	outs[OUT_SELF] = rig.sock;
	outs[OUT_OTHER_UMEM] = other;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *t = &refusals[i];
		struct xskx_rx_batch *batch = t->stale ? &stale : &b;
		uint32_t n = batch->n;

		ck_assert_msg(xskx_rx_verdict(rig.sock, batch,
					      t->no_verdicts ? NULL : t->v,
					      outs[t->out], t->flags,
					      &r) == t->err,
			      "%s: not %d", t->wrong, t->err);
		ck_assert_msg(strstr(xskx_last_error(), t->culprit),
			      "%s: the message does not name %s: %s", t->wrong,
			      t->culprit, xskx_last_error());
		ck_assert_msg(batch->n == n, "%s: the batch changed", t->wrong);
	}
	ck_assert_int_eq(xskx_socket_close(other), 0);
	xskx_umem_destroy(umem);
	/* Still whole: judged now, nothing was lost on the way. */
	ck_assert_int_eq(xskx_rx_verdict(rig.sock, &b, v, rig.sock, 0, &r), 4);
	ck_assert_uint_eq(r.forwarded + r.dropped + r.kept, 4);
	flush(&rig);
	ck_assert_uint_eq(rig.wire, 1);
	ck_assert_int_eq(xskx_rx_release(rig.sock, keep, 1), 0);
	test_rig_destroy(&rig);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("verdict");

	tcase_add_test(tc, verdicts_mixed_in_order);
	tcase_add_test(tc, batches_of_0_1_and_a_full_ring);
	tcase_add_test(tc, tx_full_holds_or_drops);
	tcase_add_test(tc, chains_judged_whole);
	tcase_add_test(tc, refusals_leave_the_batch);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
