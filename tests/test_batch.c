// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The batch API (xskx/batch.h) on the simulated NIC, deterministic: what a
 * user relies on — every packet read where it lies and in order across the
 * ring's wrap, frames recycled, forwarded or sent without one lost (the
 * census after every case), backpressure that keeps what TX cannot take,
 * a chain across the ring's end handed over whole, the counters exact, and
 * every misuse refused with -EBUSY or -EINVAL and a message, losing
 * nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "helpers.h"

#define FRAMES 256u
#define FRAME_SIZE 2048u
#define PKT_LEN 64u
#define RING 8u /* small rings, so that batches meet the wrap */

/*
 * The rig (helpers.h) with FILL still empty: other sockets may join its
 * UMEM, whose frames have headroom bytes in front of the data.
 */
static void rig_open_headroom(struct test_rig *rig, uint32_t mtu,
			      uint32_t sock_flags, uint32_t rx_size,
			      uint32_t tx_size, uint32_t headroom)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "b0", .mtu = mtu);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES,
		  .frame_size = FRAME_SIZE, .headroom = headroom);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = sock_flags,
		  .rx_size = rx_size, .tx_size = tx_size,
		  .tx_reserve = FRAMES / 2);

	test_rig_open(rig, &port_opts, &umem_opts, &sock_opts);
}

static void rig_open_unfilled(struct test_rig *rig, uint32_t mtu,
			      uint32_t sock_flags, uint32_t rx_size,
			      uint32_t tx_size)
{
	rig_open_headroom(rig, mtu, sock_flags, rx_size, tx_size, 0);
}

static void rig_open(struct test_rig *rig, uint32_t mtu, uint32_t sock_flags,
		     uint32_t rx_size, uint32_t tx_size)
{
	rig_open_unfilled(rig, mtu, sock_flags, rx_size, tx_size);
	test_rig_fill(rig);
}

static void rig_create(struct test_rig *rig)
{
	rig_open(rig, 1500, 0, RING, RING);
}

static void inject(struct test_rig *rig, uint32_t seq, uint32_t len)
{
	test_inject_seq(rig->port, seq, len);
}

static struct xskx_stats stats_of(struct test_rig *rig)
{
	struct xskx_stats st;

	ck_assert_int_eq(xskx_socket_stats(rig->sock, &st), 0);
	return st;
}

/* Peek, read and recycle until n packets came, in order, across the wrap. */
START_TEST(recycle_reads_in_order_across_the_wrap)
{
	struct test_rig rig;
	uint32_t next = 0, batches = 0;

	rig_create(&rig);
	for (uint32_t round = 0; round < 40 && next < 100; round++) {
		struct xskx_rx_batch b;
		int n;

		for (uint32_t k = 0; k < 3 && next + k < 100; k++)
			inject(&rig, next + k, PKT_LEN + k);
		ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
		while ((n = xskx_rx_peek(rig.sock, &b, 64)) > 0) {
			/* Never past the ring's end: entries are in a row. */
			ck_assert_uint_le((uint32_t)n, RING);
			for (int i = 0; i < n; i++, next++) {
				ck_assert_uint_eq(
					test_seq_of(xskx_rx_batch_data(
						&b, (uint32_t)i)),
					next);
				ck_assert_uint_eq(xskx_rx_batch_len(&b, (uint32_t)i),
						  PKT_LEN + next % 3);
			}
			ck_assert_int_eq(xskx_rx_recycle(rig.sock, &b), n);
			ck_assert_uint_eq(b.n, 0);
			batches++;
		}
		ck_assert_int_eq(n, 0);
	}
	ck_assert_uint_eq(next, 100);
	ck_assert_uint_eq(stats_of(&rig).rx_packets, 100);
	/* 33 rounds of 64 + 65 + 66 bytes, then one of 64. */
	ck_assert_uint_eq(stats_of(&rig).rx_bytes,
			  33u * (3 * PKT_LEN + 3) + PKT_LEN);
	ck_assert_uint_ge(batches, 33);
	test_rig_destroy(&rig);
}
END_TEST

/* The census sees a peeked frame on rx and a reserved one under app. */
START_TEST(census_counts_open_batches)
{
	struct xskx_frame_census c;
	struct xskx_rx_batch rb;
	struct xskx_tx_batch tb;
	struct test_rig rig;

	rig_create(&rig);
	inject(&rig, 1, PKT_LEN);
	inject(&rig, 2, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &rb, 64), 2);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &tb, 3, PKT_LEN), 3);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.rx, 2);
	ck_assert_uint_eq(c.app, 3);
	ck_assert_int_eq(c.unaccounted, 0);
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &rb), 2);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &tb, 0), 0);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.rx, 0);
	ck_assert_uint_eq(c.app, 0);
	ck_assert_int_eq(c.unaccounted, 0);
	test_rig_destroy(&rig);
}
END_TEST

/* l2fwd in place: the wire sees each packet as the application rewrote it. */
START_TEST(forward_sends_the_frames_as_rewritten)
{
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_create(&rig);
	for (uint32_t i = 0; i < 5; i++)
		inject(&rig, i, PKT_LEN + i);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 5);
	for (uint32_t i = 0; i < 5; i++)
		xskx_rx_batch_data(&b, i)[0] = (uint8_t)(0xa0 + i);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &b, rig.sock), 5);
	ck_assert_uint_eq(b.n, 0);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 5);
	for (uint32_t i = 0; i < 5; i++) {
		ck_assert_uint_eq(rig.wire_first[i], 0xa0 + i);
		ck_assert_uint_eq(rig.wire_len[i], PKT_LEN + i);
	}
	ck_assert_uint_eq(stats_of(&rig).tx_packets, 5);
	ck_assert_uint_eq(stats_of(&rig).tx_bytes, 5 * PKT_LEN + 10);
	ck_assert_uint_eq(stats_of(&rig).rx_bytes, 5 * PKT_LEN + 10);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * A TX ring of 4 takes 4 of 6: the other 2 stay in the batch (and on RX)
 * until TX has room again; none is dropped, none sent twice.
 */
START_TEST(forward_keeps_what_tx_cannot_take)
{
	struct xskx_rx_batch b, stale;
	struct test_rig rig;

	rig_open(&rig, 1500, 0, RING, 4);
	for (uint32_t i = 0; i < 6; i++)
		inject(&rig, i, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	stale = b;
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &b, rig.sock), 4);
	ck_assert_uint_eq(b.n, 2);
	ck_assert_uint_eq(test_seq_of(xskx_rx_batch_data(&b, 0)), 4);
	ck_assert_uint_eq(stats_of(&rig).tx_ring_full, 1);
	/* Still open: a new peek or a burst would move RX under it. */
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &stale, 64), -EBUSY);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "open RX batch"));
	/* The copy made before the forward is no longer the batch... */
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &stale), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "not the open one"));
	/* ...not even with its count made to match: its entries are sent. */
	stale.n = b.n;
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &stale), -EINVAL);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &b, rig.sock), 2);
	ck_assert_uint_eq(b.n, 0);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 6);
	test_rig_destroy(&rig);
}
END_TEST

/* Reserve, write, resize one, send some: the rest go back to the pool. */
START_TEST(tx_reserve_and_submit)
{
	struct xskx_frame_census c;
	struct xskx_tx_batch b;
	struct test_rig rig;

	rig_create(&rig);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 64, PKT_LEN), RING);
	for (uint32_t i = 0; i < RING; i++) {
		memset(xskx_tx_batch_data(&b, i), 0, PKT_LEN);
		xskx_tx_batch_data(&b, i)[0] = (uint8_t)(0x10 + i);
	}
	ck_assert_int_eq(xskx_tx_batch_set_len(&b, 1, 200), 0);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 5), 5);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.app, 0);
	ck_assert_int_eq(c.unaccounted, 0);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 5);
	ck_assert_uint_eq(rig.wire_first[0], 0x10);
	ck_assert_uint_eq(rig.wire_first[4], 0x14);
	ck_assert_uint_eq(rig.wire_len[1], 200);
	ck_assert_uint_eq(stats_of(&rig).tx_packets, 5);
	ck_assert_uint_eq(stats_of(&rig).tx_bytes, 4 * PKT_LEN + 200);
	/* Completions come back through the next reserve's reclaim. */
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 2, PKT_LEN), 2);
	ck_assert_uint_eq(stats_of(&rig).tx_completed, 5);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 2), 2);
	test_rig_destroy(&rig);
}
END_TEST

START_TEST(tx_lengths_refused)
{
	/* The UMEM has no headroom of its own: a frame is all room. */
	const uint32_t room = FRAME_SIZE;
	struct xskx_tx_batch b;
	struct test_rig rig;

	rig_create(&rig);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 4, 0), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "len 0"));
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 4, room + 1), -EINVAL);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 4, room), 4);
	ck_assert_int_eq(xskx_tx_batch_set_len(&b, 0, 0), -EINVAL);
	ck_assert_int_eq(xskx_tx_batch_set_len(&b, 0, room + 1), -EINVAL);
	ck_assert_int_eq(xskx_tx_batch_set_len(&b, 4, 60), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "outside the batch"));
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 5), -EINVAL);
	/* Refusals change nothing: all 4 still go out, full size. */
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 4), 4);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 4);
	ck_assert_uint_eq(rig.wire_len[3], room);
	test_rig_destroy(&rig);
}
END_TEST

/* Poll until the port sent want packets in all, at most 10 rounds. */
static void wire_reaches(struct test_rig *rig, uint64_t want)
{
	for (int i = 0; i < 10 && rig->wire < want; i++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(rig->sock);
	}
	ck_assert_uint_eq(rig->wire, want);
}

/*
 * A TX batch's descriptors lie on the ring, in a public struct: a length,
 * address or option written there directly would have the peer drop the
 * packet and keep its frame. Submit refuses such a batch, naming the
 * entry, and sends nothing; the batch stays open, and frames not sent go
 * back to the pool as they were reserved, whatever their descriptors say.
 */
START_TEST(tx_submit_refuses_a_batch_written_into)
{
	struct xskx_tx_batch b;
	struct xskx_stats st;
	struct test_rig rig;

	rig_create(&rig);
	/* 5 sent first, so that the next batch runs across the ring's end. */
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 5, PKT_LEN), 5);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 5), 5);
	wire_reaches(&rig, 5);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 6, PKT_LEN), 6);
	/* Entry 4 is past the wrap: a length beyond the frame. */
	b.ring[(b.idx + 4) & b.mask].len = FRAME_SIZE + 1;
	test_log_reset();
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 6), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "entry 4 "), "%s",
		      xskx_last_error());
	ck_assert_uint_eq(test_log_count(), 1);
	wire_reaches(&rig, 5);
	/* Still open: the entries before it go. */
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 4), 4);
	wire_reaches(&rig, 9);

	/* Another frame's address, and a length of 0. */
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 3, PKT_LEN), 3);
	b.ring[(b.idx + 1) & b.mask].addr += FRAME_SIZE;
	b.ring[(b.idx + 2) & b.mask].len = 0;
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 3), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "entry 1 "), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 1), 1);
	wire_reaches(&rig, 10);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 1, PKT_LEN), 1);
	b.ring[b.idx & b.mask].len = 0;
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 1), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "entry 0 "), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 0), 0);
	wire_reaches(&rig, 10);

	/* A chain's flag on a batch of single frames; put right, it goes. */
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 2, PKT_LEN), 2);
	b.ring[b.idx & b.mask].options = XDP_PKT_CONTD;
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 2), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "entry 0 "), "%s",
		      xskx_last_error());
	b.ring[b.idx & b.mask].options = 0;
	b.ring[(b.idx + 1) & b.mask].len = PKT_LEN + 1;
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 2), 2);
	wire_reaches(&rig, 12);
	ck_assert_uint_eq(rig.wire_len[11], PKT_LEN + 1);

	/* Counted as sent: the lengths that went. */
	st = stats_of(&rig);
	ck_assert_uint_eq(st.tx_packets, 12);
	ck_assert_uint_eq(st.tx_bytes, 12 * PKT_LEN + 1);
	ck_assert_uint_eq(st.tx_invalid_descs, 0);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * Submit checks a batch's lengths against the room in one bound, their
 * OR less one each; with a room that is not a power of two (a frame of
 * 2048 less 256 of headroom: 1792), lengths all in range can OR to more
 * than it (1023 | 1791), and the batch is then checked entry by entry:
 * sent, not refused. One length past the room, written on the ring,
 * still is.
 */
START_TEST(tx_submit_lengths_in_range_or_above_the_room)
{
	const uint32_t room = FRAME_SIZE - 256;
	struct xskx_tx_batch b;
	struct test_rig rig;

	rig_open_headroom(&rig, 1500, 0, RING, RING, 256);
	ck_assert_int_eq(xskx_rx_burst(rig.sock, NULL, 0), 0);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 3, 1024), 3);
	ck_assert_uint_eq(b.room, room);
	ck_assert_int_eq(xskx_tx_batch_set_len(&b, 1, room), 0);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 3), 3);
	wire_reaches(&rig, 3);
	ck_assert_uint_eq(rig.wire_len[1], room);
	ck_assert_uint_eq(stats_of(&rig).tx_bytes, 2 * 1024 + room);

	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 2, 1024), 2);
	b.ring[b.idx & b.mask].len = room + 1;
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 2), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "entry 0 "), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 0), 0);
	test_rig_destroy(&rig);
}
END_TEST

/* One batch per ring at a time; the burst calls wait for it to close. */
START_TEST(open_batches_refuse_the_other_calls)
{
	struct xskx_rx_batch rb;
	struct xskx_tx_batch tb, tb2;
	struct xskx_pkt pkt;
	struct test_rig rig;

	rig_create(&rig);
	inject(&rig, 7, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &rb, 64), 1);
	ck_assert_int_eq(xskx_rx_burst(rig.sock, &pkt, 1), -EBUSY);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "xskx_rx_recycle()"));
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &tb, 2, PKT_LEN), 2);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &tb2, 2, PKT_LEN), -EBUSY);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &pkt, 1), -EBUSY);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "xskx_tx_submit()"));
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &rb, rig.sock), -EBUSY);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &tb, 0), 0);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &rb, rig.sock), 1);
	/* A closed batch: a second give-back is a no-op. */
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &rb), 0);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &tb, 0), 0);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &tb, 1), -EINVAL);
	test_rig_destroy(&rig);
}
END_TEST

/* Closing a socket with both batches open loses no frame. */
START_TEST(close_with_open_batches)
{
	struct xskx_rx_batch rb;
	struct xskx_tx_batch tb;
	struct test_rig rig;

	rig_create(&rig);
	for (uint32_t i = 0; i < 3; i++)
		inject(&rig, i, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &rb, 64), 3);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &tb, 5, PKT_LEN), 5);
	test_rig_destroy(&rig);
}
END_TEST

START_TEST(null_and_foreign_arguments)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = XSKX_SOCKET_NO_RX);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "b1");
	struct xskx_sim_port *port2;
	struct xskx_socket *other;
	struct xskx_umem *umem2;
	struct xskx_rx_batch rb;
	struct xskx_tx_batch tb;
	struct test_rig rig;

	rig_create(&rig);
	ck_assert_int_eq(xskx_rx_peek(NULL, &rb, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, NULL, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_recycle(NULL, &rb), -EINVAL);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &rb, NULL), -EINVAL);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, NULL, 1, PKT_LEN), -EINVAL);
	ck_assert_int_eq(xskx_tx_batch_set_len(NULL, 0, 1), -EINVAL);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, NULL, 0), -EINVAL);
	/* Forwarding hands over the frame: out must be on the same UMEM. */
	ck_assert_int_eq(xskx_umem_create(&umem2, &umem_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig.sim, &port_opts, &port2), 0);
	sock_opts.port = test_port(port2);
	ck_assert_msg(!xskx_socket_open(&other, umem2, &sock_opts), "%s",
		      xskx_last_error());
	inject(&rig, 1, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &rb, 64), 1);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &rb, other), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "another UMEM"));
	/* A socket without RX has no RX batch. */
	ck_assert_int_eq(xskx_rx_peek(other, &rb, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &rb), 1);
	ck_assert_int_eq(xskx_tx_reserve(other, &tb, 1, PKT_LEN), 1);
	ck_assert_int_eq(xskx_tx_submit(other, &tb, 0), 0);
	ck_assert_int_eq(xskx_socket_close(other), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem2), 0);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * Multi-buffer with an RX ring of 8: chains of 3 fragments meet the ring's
 * end, where one runs across it. Each arrives whole, fragments in order.
 */
/*
 * 20 packets of 3 fragments each into port, read with peek and recycled on
 * sock: whole chains, in order, though with an RX ring of 8 one runs
 * across the ring's end every few packets.
 */
static void chains_arrive_whole(struct test_rig *rig,
				struct xskx_sim_port *port,
				struct xskx_socket *sock)
{
	/* 5000 bytes: 1792 + 1792 + 1416 in 2048-byte frames. */
	const uint32_t len = 5000, frags = 3;
	uint32_t packets = 0, seq = 0;

	for (uint32_t round = 0; round < 20; round++) {
		struct xskx_rx_batch b;
		int n;

		test_inject_seq(port, round, len);
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		while ((n = xskx_rx_peek(sock, &b, 64)) > 0) {
			uint32_t total = 0;

			ck_assert_int_eq(n % frags, 0);
			for (int i = 0; i < n; i++) {
				if (i % frags == 0)
					ck_assert_uint_eq(
						test_seq_of(xskx_rx_batch_data(
							&b, (uint32_t)i)),
						seq++);
				ck_assert_uint_eq(!(xskx_rx_batch_options(&b, (uint32_t)i) &
						    XDP_PKT_CONTD),
						  i % frags == frags - 1);
				total += xskx_rx_batch_len(&b, (uint32_t)i);
			}
			ck_assert_uint_eq(total, len * ((uint32_t)n / frags));
			packets += (uint32_t)n / frags;
			ck_assert_int_eq(xskx_rx_recycle(sock, &b), n);
		}
		ck_assert_int_eq(n, 0);
	}
	ck_assert_uint_eq(packets, 20);
}

START_TEST(chain_across_the_ring_end_arrives_whole)
{
	struct test_rig rig;

	rig_open(&rig, 9000, XSKX_SOCKET_MULTI_BUFFER, RING, RING);
	chains_arrive_whole(&rig, rig.port, rig.sock);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * A socket that shares a multi-buffer UMEM receives chains as its first
 * socket does (the kernel's shared-UMEM rule), though it did not ask for
 * multi-buffer itself: a chain across its ring's end arrives whole too.
 */
START_TEST(sharer_of_a_multi_buffer_umem_gets_chains_whole)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "b1", .mtu = 9000);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .rx_size = RING,
		  .tx_size = RING, .tx_reserve = FRAMES / 2);
	struct xskx_sim_port *port;
	struct xskx_socket_info info;
	struct xskx_socket *sharer;
	struct test_rig rig;

	rig_open_unfilled(&rig, 9000, XSKX_SOCKET_MULTI_BUFFER, RING, RING);
	ck_assert_int_eq(xskx_sim_port_create(rig.sim, &port_opts, &port), 0);
	sock_opts.port = test_port(port);
	ck_assert_msg(!xskx_socket_open(&sharer, rig.umem, &sock_opts), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(sharer, &info), 0);
	ck_assert(info.multi_buffer);
	ck_assert_int_eq(xskx_rx_burst(sharer, NULL, 0), 0);
	chains_arrive_whole(&rig, port, sharer);
	ck_assert_int_eq(xskx_socket_close(sharer), 0);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * Recycled frames go straight back to FILL while the queue's share has
 * room for them (the frames being recycled counted as given back), not
 * through the pool: the pool holds what it held before the packets came.
 */
START_TEST(recycle_keeps_the_share_on_fill)
{
	struct xskx_frame_census before, after;
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_create(&rig);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &before), 0);
	ck_assert_uint_gt(before.fill + before.nic, 3);
	for (uint32_t i = 0; i < 3; i++)
		inject(&rig, i, PKT_LEN);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 3);
	ck_assert_int_eq(xskx_rx_recycle(rig.sock, &b), 3);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &after), 0);
	ck_assert_uint_eq(after.pool, before.pool);
	ck_assert_uint_eq(after.fill + after.nic, before.fill + before.nic);
	test_rig_destroy(&rig);
}
END_TEST

/*
 * Frames of 3000 bytes (unaligned chunks) are no power of two: recycling
 * goes through the pool, and the queue's share must still come back, or
 * FILL would stop being refilled and packets stop arriving.
 */
START_TEST(recycle_through_the_pool)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "u0");
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 32,
		  .frame_size = 3000, .flags = XSKX_UMEM_UNALIGNED);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .rx_size = RING,
		  .flags = XSKX_SOCKET_NO_TX);
	uint32_t received = 0, next = 0;
	struct test_rig rig;

	memset(&rig, 0, sizeof(rig));
	ck_assert_int_eq(xskx_sim_create(&rig.sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig.sim, &port_opts, &rig.port), 0);
	ck_assert_int_eq(xskx_umem_create(&rig.umem, &umem_opts), 0);
	sock_opts.port = test_port(rig.port);
	ck_assert_msg(!xskx_socket_open(&rig.sock, rig.umem, &sock_opts), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_rx_burst(rig.sock, NULL, 0), 0);
	/* 200 packets through 32 frames: each frame goes round six times. */
	for (uint32_t round = 0; round < 100 && received < 200; round++) {
		struct xskx_rx_batch b;
		int n;

		inject(&rig, next++, PKT_LEN);
		inject(&rig, next++, PKT_LEN);
		ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
		while ((n = xskx_rx_peek(rig.sock, &b, 64)) > 0) {
			for (int i = 0; i < n; i++)
				ck_assert_uint_eq(
					test_seq_of(xskx_rx_batch_data(
						&b, (uint32_t)i)),
					received + (uint32_t)i);
			received += (uint32_t)n;
			ck_assert_int_eq(xskx_rx_recycle(rig.sock, &b), n);
		}
	}
	ck_assert_uint_eq(received, 200);
	test_rig_destroy(&rig);
}
END_TEST

/* TX room for 4 of two 3-fragment chains: one chain goes, whole. */
START_TEST(forward_never_splits_a_chain)
{
	const uint32_t len = 5000; /* 3 fragments of 2048-byte frames */
	struct xskx_rx_batch b;
	struct test_rig rig;

	rig_open(&rig, 9000, XSKX_SOCKET_MULTI_BUFFER, 16, 4);
	inject(&rig, 0, len);
	inject(&rig, 1, len);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &b, 64), 6);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &b, rig.sock), 3);
	ck_assert_uint_eq(test_seq_of(xskx_rx_batch_data(&b, 0)), 1);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_forward(rig.sock, &b, rig.sock), 3);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 2);
	ck_assert_uint_eq(rig.wire_len[0], len);
	ck_assert_uint_eq(rig.wire_len[1], len);
	test_rig_destroy(&rig);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");

	tcase_add_test(tc, recycle_reads_in_order_across_the_wrap);
	tcase_add_test(tc, census_counts_open_batches);
	tcase_add_test(tc, forward_sends_the_frames_as_rewritten);
	tcase_add_test(tc, forward_keeps_what_tx_cannot_take);
	tcase_add_test(tc, tx_reserve_and_submit);
	tcase_add_test(tc, tx_lengths_refused);
	tcase_add_test(tc, tx_submit_refuses_a_batch_written_into);
	tcase_add_test(tc, tx_submit_lengths_in_range_or_above_the_room);
	tcase_add_test(tc, open_batches_refuse_the_other_calls);
	tcase_add_test(tc, close_with_open_batches);
	tcase_add_test(tc, null_and_foreign_arguments);
	tcase_add_test(tc, chain_across_the_ring_end_arrives_whole);
	tcase_add_test(tc, sharer_of_a_multi_buffer_umem_gets_chains_whole);
	tcase_add_test(tc, recycle_keeps_the_share_on_fill);
	tcase_add_test(tc, recycle_through_the_pool);
	tcase_add_test(tc, forward_never_splits_a_chain);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
