// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What only the simulated NIC has, seen through a socket: the two answers
 * to a full RX ring (stop the poll and keep the packet, or drop it), RSS
 * spreading flows over queues, and an XDP program's verdicts.
 */
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>

#include "helpers.h"

#define RX_RING 32u
#define BURST 64u

/* A socket on the NIC's port, with no burst made yet. */
static struct xskx_socket *open_socket(struct test_sim_nic *nic, uint32_t flags,
				       uint32_t queue, uint32_t rx_size,
				       uint32_t fill_frames)
{
	XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic->port),
		  .queue_id = queue, .rx_size = rx_size, .flags = flags,
		  .fill_frames = fill_frames);
	struct xskx_socket *sock;

	ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
		      xskx_last_error());
	return sock;
}

static struct xskx_socket *open_rx(struct test_sim_nic *nic, uint32_t queue,
				   uint32_t rx_size, uint32_t fill_frames)
{
	struct xskx_socket *sock = open_socket(nic, XSKX_SOCKET_NO_TX, queue,
					       rx_size, fill_frames);
	struct xskx_pkt none[1];

	/* Hand FILL to the NIC before anything arrives. */
	ck_assert_int_eq(xskx_rx_burst(sock, none, 1), 0);
	return sock;
}

/* n Ethernet frames numbered from 0 in byte 20, straight onto the port. */
static void inject(struct test_sim_nic *nic, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint8_t frame[64] = { 0x02, 0, 0, 0, 0,	   0x0b, 0x02,
				      0,    0, 0, 0, 0x0a, 0x88, 0xb5 };

		int err;

		frame[20] = (uint8_t)i;
		/* Some tests inject more than the NIC has buffers for. */
		err = xskx_sim_port_inject(nic->port, frame, sizeof(frame));
		ck_assert_msg(!err || err == -ENOBUFS, "inject: %s",
			      xskx_strerror(err));
	}
}

/* Read RX until want packets or the NIC has nothing more; checks their order. */
static uint32_t receive_in_order(struct test_sim_nic *nic,
				 struct xskx_socket *sock, uint32_t want)
{
	struct xskx_pkt pkts[BURST];
	uint32_t got = 0;

	for (int turn = 0; turn < 1000 && got < want; turn++) {
		int n = xskx_rx_burst(sock, pkts, BURST);

		ck_assert_int_ge(n, 0);
		for (int i = 0; i < n; i++)
			ck_assert_msg(pkts[i].data[20] ==
					      (uint8_t)(got + (uint32_t)i),
				      "packet %u arrived as number %u",
				      pkts[i].data[20], got + (uint32_t)i);
		xskx_rx_release(sock, pkts, (uint32_t)n);
		got += (uint32_t)n;
		ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
	}
	return got;
}

/* Poll a few rounds without reading RX. */
static void poll_unread(struct test_sim_nic *nic)
{
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
}

START_TEST(full_rx_ring_stops_the_poll_and_keeps_the_packets)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts,
		  .rx_full_policy = XSKX_SIM_RX_FULL_STOP);
	struct xskx_sim_port_stats ps;
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	sock = open_rx(&nic, 0, RX_RING, 0);
	inject(&nic, 2 * RX_RING);
	poll_unread(&nic);

	/*
	 * The poll stops at the first packet that finds RX full, keeps it,
	 * and the queue sleeps until the application wakes it (need_wakeup):
	 * the later polls do not run it. One rx_ring_full, one stop.
	 */
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_ring_full, 1);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.napi_stops, 1);
	ck_assert_uint_eq(ps.rx_missed, 0);
	/* Nothing lost: the rest comes once RX has room again. */
	ck_assert_uint_eq(receive_in_order(&nic, sock, 2 * RX_RING),
			  2 * RX_RING);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_redirect, 2 * RX_RING);
	ck_assert_uint_eq(ps.rx_missed, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

START_TEST(full_rx_ring_drops_with_the_drop_policy)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts,
		  .rx_full_policy = XSKX_SIM_RX_FULL_DROP);
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	sock = open_rx(&nic, 0, RX_RING, 0);
	inject(&nic, 2 * RX_RING);
	poll_unread(&nic);

	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_ring_full, RX_RING);
	ck_assert_uint_eq(receive_in_order(&nic, sock, 2 * RX_RING), RX_RING);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/* One queue of a multi-queue port with a UMEM of its own, as xskx advises. */
struct queue_rx {
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint32_t got;
};

START_TEST(rss_spreads_flows_over_queues_and_keeps_each_on_one)
{
	enum {
		QUEUES = 4,
		FLOWS = 64,
		PACKETS = 4096
	};
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .queues = QUEUES);
	XSKX_OPTS(xskx_sim_source_opts, source, .count = PACKETS,
		  .flows = FLOWS);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 2048);
	struct queue_rx rxq[QUEUES];
	struct xskx_pkt pkts[BURST];
	int flow_queue[FLOWS];
	uint32_t total = 0;
	struct test_sim_nic nic;
	char why[384];

	memset(flow_queue, -1, sizeof(flow_queue));
	test_sim_nic_create(&nic, &port_opts, NULL);
	for (uint32_t q = 0; q < QUEUES; q++) {
		XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic.port),
			  .queue_id = q, .flags = XSKX_SOCKET_NO_TX);

		rxq[q].got = 0;
		ck_assert_int_eq(xskx_umem_create(&rxq[q].umem, &umem_opts), 0);
		ck_assert_msg(!xskx_socket_open(&rxq[q].sock, rxq[q].umem,
						&opts),
			      "%s", xskx_last_error());
		ck_assert_int_eq(xskx_rx_burst(rxq[q].sock, pkts, 1), 0);
	}
	ck_assert_int_eq(xskx_sim_port_add_source(nic.port, &source), 0);

	for (int turn = 0; turn < 10000 && total < PACKETS; turn++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		for (int q = 0; q < QUEUES; q++) {
			int n = xskx_rx_burst(rxq[q].sock, pkts, BURST);

			ck_assert_int_ge(n, 0);
			for (int i = 0; i < n; i++) {
				/* UDP source port: 1024 + flow (sim.h's source). */
				int flow = (pkts[i].data[34] << 8 |
					    pkts[i].data[35]) -
					   1024;

				ck_assert(flow >= 0 && flow < FLOWS);
				ck_assert_msg(
					flow_queue[flow] < 0 ||
						flow_queue[flow] == q,
					"flow %d arrived on queues %d and %d",
					flow, flow_queue[flow], q);
				flow_queue[flow] = q;
			}
			xskx_rx_release(rxq[q].sock, pkts, (uint32_t)n);
			rxq[q].got += (uint32_t)n;
			total += (uint32_t)n;
		}
	}
	ck_assert_uint_eq(total, PACKETS);
	for (int q = 0; q < QUEUES; q++) {
		ck_assert_msg(rxq[q].got > 0,
			      "queue %d received none of %d flows", q, FLOWS);
		ck_assert_int_eq(xskx_socket_close(rxq[q].sock), 0);
		ck_assert_msg(test_census_all_in_pool(rxq[q].umem, why,
						      sizeof(why)),
			      "queue %d: %s", q, why);
		ck_assert_int_eq(xskx_umem_destroy(rxq[q].umem), 0);
	}
	test_sim_nic_destroy(&nic);
}
END_TEST

START_TEST(xdp_pass_goes_to_the_stack_not_the_socket)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts);
	struct xskx_sim_port_stats ps;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	ck_assert_int_eq(xskx_sim_port_set_xdp(nic.port, test_xdp_pass, NULL),
			 0);
	sock = open_rx(&nic, 0, 0, 0);
	inject(&nic, 5);
	ck_assert_uint_eq(receive_in_order(&nic, sock, 5), 0);
	ck_assert_uint_eq(nic.stack_packets, 5);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_pass, 5);
	ck_assert_uint_eq(ps.xdp_redirect, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/* The lengths a resizing XDP hook gives the packets it sees, in turn. */
struct resize {
	const uint32_t *lens;
	uint32_t next;
	uint32_t first_tailroom;
};

static enum xskx_xdp_verdict resize_in_turn(struct xskx_sim_xdp_buff *xdp,
					    void *ctx)
{
	struct resize *rz = ctx;

	if (!rz->next)
		rz->first_tailroom = xdp->tailroom;
	xdp->len = rz->lens[rz->next++];
	return XSKX_XDP_REDIRECT;
}

/*
 * bpf_xdp_adjust_tail()'s bounds on 64-byte packets in 4096-byte frames
 * (data 256 bytes in: 3776 bytes of tailroom): cut by 4, grown by 4, cut to
 * an Ethernet header, grown to the frame's end are delivered at those
 * lengths; one byte shorter than a header or past the frame's end aborts.
 */
START_TEST(an_xdp_hook_resizes_packets_within_their_frame)
{
	static const uint32_t lens[] = { 60, 68, 14, 13, 4096 - 256, 4097 - 256 };
	static const uint32_t delivered[] = { 60, 68, 14, 4096 - 256 };
	XSKX_OPTS(xskx_sim_port_opts, port_opts);
	struct resize rz = { .lens = lens };
	struct xskx_sim_port_stats ps;
	struct xskx_pkt pkts[BURST];
	struct xskx_socket *sock;
	struct test_sim_nic nic;
	int n;

	test_sim_nic_create(&nic, &port_opts, NULL);
	ck_assert_int_eq(xskx_sim_port_set_xdp_buff(nic.port, resize_in_turn,
						    &rz),
			 0);
	sock = open_rx(&nic, 0, 0, 0);
	inject(&nic, 6);
	poll_unread(&nic);
	ck_assert_uint_eq(rz.next, 6);
	ck_assert_uint_eq(rz.first_tailroom, 4096 - 256 - 64);
	n = xskx_rx_burst(sock, pkts, BURST);
	ck_assert_int_eq(n, 4);
	for (int i = 0; i < n; i++)
		ck_assert_uint_eq(pkts[i].len, delivered[i]);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, (uint32_t)n), 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_redirect, 4);
	ck_assert_uint_eq(ps.xdp_drop, 2);
	/* The other setter takes the hook away. */
	ck_assert_int_eq(xskx_sim_port_set_xdp(nic.port, NULL, NULL), 0);
	inject(&nic, 1);
	ck_assert_uint_eq(receive_in_order(&nic, sock, 1), 1);
	ck_assert_uint_eq(rz.next, 6);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * A NIC stopped on a full RX ring raises FILL's wakeup flag, but has
 * nothing to add while RX still holds packets: the burst that takes them
 * does not kick (the rest come after, with the kick of an empty burst).
 */
START_TEST(no_kick_from_a_burst_that_received_packets)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts,
		  .rx_full_policy = XSKX_SIM_RX_FULL_STOP);
	struct xskx_pkt pkts[BURST];
	struct xskx_stats stats;
	struct xskx_socket *sock;
	uint64_t kicks;
	uint32_t got = 0;
	struct test_sim_nic nic;
	int n;

	test_sim_nic_create(&nic, &port_opts, NULL);
	sock = open_rx(&nic, 0, RX_RING, 0);
	inject(&nic, 2 * RX_RING);
	poll_unread(&nic);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	kicks = stats.rx_kicks;
	n = xskx_rx_burst(sock, pkts, BURST);
	ck_assert_int_eq(n, RX_RING);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_kicks, kicks);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, (uint32_t)n), 0);
	got = (uint32_t)n;
	for (int turn = 0; turn < 100 && got < 2 * RX_RING; turn++) {
		n = xskx_rx_burst(sock, pkts, BURST);
		ck_assert_int_ge(n, 0);
		ck_assert_int_eq(xskx_rx_release(sock, pkts, (uint32_t)n), 0);
		got += (uint32_t)n;
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	}
	ck_assert_uint_eq(got, 2 * RX_RING);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/* Nothing queued on TX, nothing to wake the peer for: no sendto. */
START_TEST(empty_tx_bursts_do_not_kick)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	/* Both rings on a copy-mode port: its TX flag stays up. */
	sock = open_socket(&nic, 0, 0, 0, 0);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_kicks, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Copy mode completes an invalid TX descriptor whatever its address; one
 * outside the UMEM is no frame: reclaimed as a bad completion, never as a
 * completed packet. (Written on the raw ring: the burst API refuses it.)
 */
START_TEST(bad_completion_is_not_a_completed_packet)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	struct xskx_rings rings;
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct xdp_desc *d;
	uint32_t idx = 0;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	/* Both rings on a copy-mode port: its TX flag stays up. */
	sock = open_socket(&nic, 0, 0, 0, 0);
	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, 1, &idx), 1);
	d = xsk_ring_prod__tx_desc(rings.tx, idx);
	d->addr = xskx_umem_size(nic.umem) + 4096;
	d->len = 64;
	d->options = 0;
	xsk_ring_prod__submit(rings.tx, 1);
	test_log_capture();
	ck_assert_int_eq(xskx_socket_kick_tx(sock), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 1);
	ck_assert_uint_eq(stats.tx_bad_completions, 1);
	ck_assert_uint_eq(stats.tx_completed, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Copy mode takes a frame from FILL per packet as it arrives (the kernel's
 * __xsk_rcv): with 8 frames on FILL and 20 packets, 8 are delivered and each
 * of the other 12 is one rx_dropped and one rx_fill_ring_empty_descs —
 * exactly, and no other counter moves.
 */
START_TEST(copy_mode_counts_each_packet_that_finds_fill_empty_once)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	struct xskx_sim_port_stats ps;
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	sock = open_socket(&nic, XSKX_SOCKET_NO_TX, 0, 0, 8);
	inject(&nic, 20);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_dropped, 12);
	ck_assert_uint_eq(stats.rx_fill_ring_empty_descs, 12);
	ck_assert_uint_eq(stats.rx_ring_full, 0);
	ck_assert_uint_eq(stats.rx_invalid_descs, 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.rx_packets, 20);
	ck_assert_uint_eq(ps.xdp_redirect, 8);
	ck_assert_uint_eq(ps.xdp_redirect_err, 12);
	ck_assert_uint_eq(receive_in_order(&nic, sock, 8), 8);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_packets, 8);
	ck_assert_uint_eq(stats.rx_bytes, 8 * 64);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Zero-copy counts a refill of the hardware ring that found FILL empty once
 * per attempt (xp_alloc_batch): one at bind, one per poll that a kick asks
 * for; packets arriving meanwhile find no buffer (rx_missed) and are no
 * socket's drop.
 */
START_TEST(zero_copy_counts_each_refill_that_finds_fill_empty_once)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts);
	struct xskx_sim_port_stats ps;
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	sock = open_socket(&nic, XSKX_SOCKET_NO_TX, 0, 0, 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_fill_ring_empty_descs, 1);
	inject(&nic, 5);
	poll_unread(&nic);
	ck_assert_int_eq(xskx_socket_kick_rx(sock), 0);
	poll_unread(&nic);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.rx_fill_ring_empty_descs, 2);
	ck_assert_uint_eq(stats.rx_dropped, 0);
	ck_assert_uint_eq(stats.rx_ring_full, 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.rx_missed, 5);
	ck_assert_uint_eq(ps.xdp_redirect, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/* A packet of 64 bytes in a frame of the application's. */
static struct xskx_pkt held_pkt(struct test_sim_nic *nic, uint32_t options)
{
	uint64_t frame;

	ck_assert_uint_eq(xskx_frame_alloc(nic->umem, &frame, 1), 1);
	return (struct xskx_pkt){ .addr = frame, .len = 64, .options = options };
}

/*
 * The NIC in copy mode, on a UMEM of umem_opts (NULL: the defaults), and a
 * socket of flags on it whose bursts kick only once tx_kick_batch packets
 * wait (0: every burst kicks).
 */
static struct xskx_socket *
open_copy_mode(struct test_sim_nic *nic, const struct xskx_umem_opts *umem_opts,
	       uint32_t flags, uint32_t tx_kick_batch)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	XSKX_OPTS(xskx_socket_opts, opts, .flags = flags,
		  .tx_kick_batch = tx_kick_batch);
	struct xskx_socket *sock;

	test_sim_nic_create(nic, &port_opts, umem_opts);
	opts.port = test_port(nic->port);
	ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
		      xskx_last_error());
	return sock;
}

/* A TX-only socket on the NIC's port with a TX ring of tx_size entries. */
static struct xskx_socket *open_tx_socket(struct test_sim_nic *nic,
					  uint32_t tx_size)
{
	XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic->port),
		  .tx_size = tx_size, .flags = XSKX_SOCKET_NO_RX);
	struct xskx_socket *sock;

	ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
		      xskx_last_error());
	return sock;
}

/*
 * A bad completion between two good ones, on a UMEM of frame_count frames:
 * the reclaim copies COMPLETION in stretches and checks a bound on the
 * addresses once (their OR on a UMEM a power of two in size, their
 * highest otherwise, lib/rings/completion.c), so the one outside must
 * still send the batch down the careful path: two completed, one bad.
 */
static void bad_completion_between_good_ones(uint32_t frame_count)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = frame_count);
	struct xskx_rings rings;
	struct xskx_stats stats;
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	uint32_t idx = 0;
	struct test_sim_nic nic;

	/*
	 * No wakeup before four are queued: all three complete at once. The
	 * socket has RX, so that the reclaim recycles completed frames to its
	 * FILL (the path that checks the bound), not to the pool.
	 */
	sock = open_copy_mode(&nic, &umem_opts, 0, 4);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, 1, &idx), 1);
	*xsk_ring_prod__tx_desc(rings.tx, idx) = (struct xdp_desc){
		.addr = xskx_umem_size(nic.umem) + 4096, .len = 64
	};
	xsk_ring_prod__submit(rings.tx, 1);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_int_eq(xskx_socket_kick_tx(sock), 0);
	ck_assert_int_eq(xskx_tx_reclaim(sock), 2);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 1);
	ck_assert_uint_eq(stats.tx_bad_completions, 1);
	ck_assert_uint_eq(stats.tx_completed, 2);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}

START_TEST(bad_completion_between_good_ones_is_found)
{
	/* 4096 frames: a power of two in size; 3000: not. */
	bad_completion_between_good_ones(4096);
	bad_completion_between_good_ones(3000);
}
END_TEST

/*
 * A wakeup answered "try again" (the link is down: ENETDOWN) is counted in
 * kick_retries, once per kick, and the burst's packet stays queued for the
 * next one.
 */
START_TEST(a_kick_answered_try_again_is_counted)
{
	struct xskx_sim_faults down = { .link_down = true }, up = { 0 };
	struct xskx_stats st;
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;

	sock = open_copy_mode(&nic, NULL, XSKX_SOCKET_NO_RX, 0);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &down), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_kicks, 1);
	ck_assert_uint_eq(st.kick_retries, 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &up), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 1);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_kicks, 2);
	ck_assert_uint_eq(st.kick_retries, 1);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Copy mode sends at most its budget per sendto. The library raises it to
 * the TX ring's size (XDP_MAX_TX_SKB_BUDGET, as on the kernel): one kick
 * sends a whole burst of 256. On a port with XSKX_PORT_KERNEL_TX_BUDGET the
 * kick sends the default 32 and is answered "try again".
 */
static void one_kick_sends(bool features, uint32_t want_sent,
			   uint64_t want_retries)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	XSKX_OPTS(xskx_port_opts, lib_opts,
		  .flags = features ? 0 : XSKX_PORT_KERNEL_TX_BUDGET);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_RX);
	struct xskx_sim_port_stats port;
	struct xskx_pkt pkts[256];
	struct xskx_socket *sock;
	struct xskx_port *lib_port;
	struct xskx_stats st;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	ck_assert_int_eq(xskx_port_open_sim(&lib_port, nic.port, &lib_opts), 0);
	so.port = lib_port;
	ck_assert_msg(!xskx_socket_open(&sock, nic.umem, &so), "%s",
		      xskx_last_error());
	for (uint32_t i = 0; i < 256; i++)
		pkts[i] = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, 256), 256);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &port), 0);
	ck_assert_uint_eq(port.tx_packets, want_sent);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_kicks, 1);
	ck_assert_uint_eq(st.kick_retries, want_retries);
	for (int i = 0; i < 100 && st.tx_completed < 256; i++) {
		xskx_tx_reclaim(sock);
		ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	}
	ck_assert_uint_eq(st.tx_completed, 256);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_port_close(lib_port), 0);
	test_sim_nic_destroy(&nic);
}

START_TEST(copy_mode_sends_the_whole_tx_ring_per_kick)
{
	one_kick_sends(true, 256, 0);
	one_kick_sends(false, 32, 1);
}
END_TEST

/*
 * A wakeup that fails hard after the burst queued its packet: the burst
 * returns the packet it took, and the error comes from the next burst on
 * the socket, once, even when that burst needs no wakeup.
 */
START_TEST(a_hard_wakeup_error_comes_with_the_next_burst)
{
	struct xskx_sim_faults broken = { .wakeup_error = -ENXIO }, fine = { 0 };
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;

	sock = open_copy_mode(&nic, NULL, XSKX_SOCKET_NO_RX, 0);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), -ENXIO);
	ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 1);
	broken.wakeup_error = 6;
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), -EINVAL);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * The deferred error is the socket's, not the TX ring's: after a TX burst
 * whose wakeup failed hard, the next call on the socket returns it, whether
 * it is the burst API's RX call or the batch API's (both start on one RX
 * run, lib/rings/rx.h), once.
 */
START_TEST(a_hard_wakeup_error_comes_with_the_next_rx_call)
{
	struct xskx_sim_faults broken = { .wakeup_error = -ENXIO }, fine = { 0 };
	struct xskx_socket *sock;
	struct xskx_rx_batch batch;
	struct xskx_pkt pkts[4];
	struct test_sim_nic nic;
	int got;

	sock = open_copy_mode(&nic, NULL, 0, 0);
	pkts[0] = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, 1), 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 4), -ENXIO);
	got = xskx_rx_burst(sock, pkts, 4);
	ck_assert_int_ge(got, 0);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, (uint32_t)got), 0);

	pkts[0] = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, 1), 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_rx_peek(sock, &batch, 4), -ENXIO);
	ck_assert_int_ge(xskx_rx_peek(sock, &batch, 4), 0);
	ck_assert_int_ge(xskx_rx_recycle(sock, &batch), 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * xskx_sim_port_inject() says whether the NIC took the packet: a
 * zero-copy queue with no buffer posted yet misses it (-ENOBUFS, rx_missed
 * 1, no message); once FILL is posted and the NIC polled, it takes the next
 * (0) and the socket receives it.
 */
START_TEST(inject_says_whether_the_nic_took_the_packet)
{
	uint8_t frame[64] = { 0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a };
	struct xskx_sim_port_stats st;
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;
	int got = 0;

	test_sim_nic_create(&nic, NULL, NULL);
	sock = open_socket(&nic, XSKX_SOCKET_NO_TX, 0, 0, 0);
	test_log_capture();
	ck_assert_int_eq(xskx_sim_port_inject(nic.port, frame, sizeof(frame)),
			 -ENOBUFS);
	/* A drop, counted, is not a mistake of the caller's: no message. */
	ck_assert_uint_eq(test_log_count(), 0);
	xskx_set_log(NULL, NULL);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &st), 0);
	ck_assert_uint_eq(st.rx_missed, 1);
	ck_assert_int_eq(xskx_rx_burst(sock, NULL, 0), 0);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_sim_port_inject(nic.port, frame, sizeof(frame)),
			 0);
	for (int i = 0; i < 10 && !got; i++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		got = xskx_rx_burst(sock, &pkt, 1);
		ck_assert_int_ge(got, 0);
	}
	ck_assert_int_eq(got, 1);
	ck_assert_int_eq(xskx_rx_release(sock, &pkt, 1), 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &st), 0);
	ck_assert_uint_eq(st.rx_missed, 1);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * xskx_socket_poll_many(): a receiver that never made a burst has nothing
 * on FILL, and the wait refills it (the packet injected next finds a
 * buffer); on the deterministic NIC a wait with nothing ready returns 0 at
 * once, even without a timeout; once the packet is in, both entries say
 * what they are ready for.
 */
START_TEST(poll_many_refills_and_reports_each_socket)
{
	uint8_t frame[64] = { 0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a };
	struct xskx_poll_socket socks[2];
	struct xskx_socket *rx, *tx;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, NULL, NULL);
	rx = open_socket(&nic, XSKX_SOCKET_NO_TX, 0, 0, 0);
	tx = open_socket(&nic, XSKX_SOCKET_NO_RX, 0, 0, 0);
	socks[0] = (struct xskx_poll_socket){ .sock = rx, .events = POLLIN };
	socks[1] = (struct xskx_poll_socket){ .sock = tx, .events = POLLOUT,
					      .revents = POLLERR };
	ck_assert_int_eq(xskx_socket_poll_many(socks, 1, -1), 0);
	ck_assert_int_eq(socks[0].revents, 0);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_sim_port_inject(nic.port, frame, sizeof(frame)),
			 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_socket_poll_many(socks, 2, 0), 2);
	ck_assert_int_eq(socks[0].revents, POLLIN);
	ck_assert_int_eq(socks[1].revents, POLLOUT);
	ck_assert_int_eq(xskx_rx_burst(rx, &pkt, 1), 1);
	ck_assert_int_eq(xskx_rx_release(rx, &pkt, 1), 0);
	ck_assert_int_eq(xskx_socket_poll_many(socks, 1, 0), 0);
	ck_assert_int_eq(xskx_socket_poll_many(NULL, 1, 0), -EINVAL);
	ck_assert_int_eq(xskx_socket_poll_many(socks, 0, 0), -EINVAL);
	ck_assert_int_eq(xskx_socket_poll_many(socks, XSKX_POLL_MANY_MAX + 1, 0),
			 -EINVAL);
	socks[1].sock = NULL;
	ck_assert_int_eq(xskx_socket_poll_many(socks, 2, 0), -EINVAL);
	ck_assert_int_eq(xskx_socket_close(tx), 0);
	ck_assert_int_eq(xskx_socket_close(rx), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * xskx_tx_burst_status() returns a hard wakeup error from the call whose
 * kick failed, with the packet it accepted, and leaves nothing for the
 * next call.
 */
START_TEST(a_hard_wakeup_error_comes_from_the_status_call)
{
	struct xskx_sim_faults broken = { .wakeup_error = -ENXIO }, fine = { 0 };
	struct xskx_socket *sock;
	uint32_t accepted = 0;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;

	sock = open_copy_mode(&nic, NULL, XSKX_SOCKET_NO_RX, 0);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_burst_status(sock, &pkt, 1, &accepted), -ENXIO);
	ck_assert_uint_eq(accepted, 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_tx_burst_status(sock, NULL, 0, &accepted), 0);
	ck_assert_uint_eq(accepted, 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 1);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * xskx_tx_reclaim() kicks a copy-mode TX that still holds a packet (here
 * one tx_kick_batch left waiting): a hard wakeup error is its result, not
 * the next burst's; once the port works again it reclaims the packet.
 */
START_TEST(a_hard_wakeup_error_comes_from_reclaim)
{
	struct xskx_sim_faults broken = { .wakeup_error = -ENXIO }, fine = { 0 };
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;
	int got = 0;

	sock = open_copy_mode(&nic, NULL, XSKX_SOCKET_NO_RX, 4);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_reclaim(sock), -ENXIO);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	/* Nothing was left for the next call. */
	ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), 0);
	for (int i = 0; i < 10 && !got; i++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		got = xskx_tx_reclaim(sock);
		ck_assert_int_ge(got, 0);
	}
	ck_assert_int_eq(got, 1);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * The batch API's TX calls return a hard wakeup error themselves, their
 * packets queued on TX all the same: xskx_tx_submit() with its batch
 * closed, xskx_rx_forward() with the entry it forwarded out of its batch.
 * Nothing is left for the next call, and once the port works again both
 * packets are sent and completed.
 */
START_TEST(a_hard_wakeup_error_comes_from_the_batch_call)
{
	struct xskx_sim_faults broken = { .wakeup_error = -ENXIO }, fine = { 0 };
	struct xskx_sim_port_stats ps;
	struct xskx_socket *sock;
	struct xskx_tx_batch tx;
	struct xskx_rx_batch rx;
	struct xskx_stats st = { 0 };
	struct test_sim_nic nic;
	int got = 0;

	sock = open_copy_mode(&nic, NULL, 0, 0);
	ck_assert_int_eq(xskx_tx_reserve(sock, &tx, 1, 64), 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_tx_submit(sock, &tx, 1), -ENXIO);
	ck_assert_uint_eq(tx.n, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), 0);

	/* FILL posted, then one packet received into a batch. */
	ck_assert_int_eq(xskx_rx_burst(sock, NULL, 0), 0);
	poll_unread(&nic);
	inject(&nic, 1);
	for (int i = 0; i < 10 && !got; i++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		got = xskx_rx_peek(sock, &rx, 4);
		ck_assert_int_ge(got, 0);
	}
	ck_assert_int_eq(got, 1);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &broken), 0);
	ck_assert_int_eq(xskx_rx_forward(sock, &rx, sock), -ENXIO);
	ck_assert_uint_eq(rx.n, 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(nic.port, &fine), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, NULL, 0), 0);

	for (int i = 0; i < 10 && st.tx_completed < 2; i++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		ck_assert_int_ge(xskx_tx_reclaim(sock), 0);
		ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	}
	ck_assert_uint_eq(st.tx_completed, 2);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.tx_packets, 2);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * A zero-copy driver polling TX without wakeups (no need_wakeup) counts
 * tx_ring_empty_descs when it first finds the ring empty, not on every poll
 * after: once at bind, once more after the packet it sent.
 */
START_TEST(tx_ring_empty_counted_once_per_time_found_empty)
{
	struct xskx_stats st;
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, NULL, NULL);
	sock = open_socket(&nic, XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_WAKEUP, 0,
			   0, 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_ring_empty_descs, 1);
	pkt = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	for (int i = 0; i < 5; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 1);
	/* Transmitted on no wire: the sink saw it as TX, not as the stack's. */
	ck_assert_uint_eq(nic.stack_packets, 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_ring_empty_descs, 2);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Zero-copy: one bad fragment makes its whole chain invalid, and every
 * descriptor of the chain counts in tx_invalid_descs (3 here); none is
 * completed, so the frames stay the application's. (Raw ring: the burst
 * API refuses such a chain itself.)
 */
START_TEST(zero_copy_counts_every_descriptor_of_an_invalid_chain)
{
	struct xskx_pkt chain[3];
	struct xskx_rings rings;
	struct xskx_stats st;
	struct xskx_socket *sock;
	uint32_t idx = 0;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, NULL, NULL);
	sock = open_socket(&nic, XSKX_SOCKET_NO_RX | XSKX_SOCKET_MULTI_BUFFER, 0,
			   0, 0);
	chain[0] = held_pkt(&nic, XDP_PKT_CONTD);
	chain[1] = held_pkt(&nic, XDP_PKT_CONTD);
	chain[1].len = 0;
	chain[2] = held_pkt(&nic, 0);
	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, 3, &idx), 3);
	for (uint32_t i = 0; i < 3; i++)
		*xsk_ring_prod__tx_desc(rings.tx, idx + i) = (struct xdp_desc){
			.addr = chain[i].addr, .len = chain[i].len,
			.options = chain[i].options };
	xsk_ring_prod__submit(rings.tx, 3);
	ck_assert_int_eq(xskx_socket_kick_tx(sock), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.tx_invalid_descs, 3);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_int_eq(xskx_frame_free(nic.umem, &chain[i].addr, 1), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * A refill batch is at most half of FILL, so the NIC always has half a ring
 * while the other half is refilled: with an 8-entry FILL ring and a batch of
 * 8 asked for, 4 packets taken in copy mode are refilled at the next burst.
 */
START_TEST(refill_batch_is_at_most_half_of_fill)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .no_zero_copy = true);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 64, .fill_size = 8);
	XSKX_OPTS(xskx_socket_opts, opts, .flags = XSKX_SOCKET_NO_TX,
		  .refill_batch = 8);
	struct xskx_pkt pkts[8];
	struct xskx_stats st;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, &port_opts, NULL);
	ck_assert_int_eq(xskx_umem_destroy(nic.umem), 0);
	ck_assert_int_eq(xskx_umem_create(&nic.umem, &umem_opts), 0);
	opts.port = test_port(nic.port);
	ck_assert_int_eq(xskx_socket_open(&sock, nic.umem, &opts), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 0), 0);
	inject(&nic, 4);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 8), 4);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, 4), 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &st), 0);
	ck_assert_uint_eq(st.fill_refills, 2);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * A socket of 64 frames on queue 0 of a two-queue simulated NIC with a
 * refill batch of 1, so
 * that every release meets the refill's threshold: where released frames
 * go is then up to the share and the TX reserve alone.
 */
static struct xskx_socket *recycle_rig(struct test_sim_nic *nic, uint32_t flags,
				       uint32_t fill_max, uint32_t tx_reserve)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 64);
	XSKX_OPTS(xskx_socket_opts, opts, .flags = flags, .refill_batch = 1,
		  .fill_max = fill_max, .tx_reserve = tx_reserve);
	struct xskx_socket *sock;
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .queues = 2);

	test_sim_nic_create(nic, &port_opts, NULL);
	ck_assert_int_eq(xskx_umem_destroy(nic->umem), 0);
	ck_assert_int_eq(xskx_umem_create(&nic->umem, &umem_opts), 0);
	opts.port = test_port(nic->port);
	ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_rx_burst(sock, NULL, 0), 0);
	return sock;
}

/*
 * Released frames go straight onto FILL only while the pool holds the TX
 * reserve: with 16 reserved, 48 on FILL and 8 of the 16 allocated for TX,
 * four released frames go to the pool, and no refill takes them from it.
 */
START_TEST(release_refills_the_tx_reserve_first)
{
	struct xskx_pkt pkts[4];
	uint64_t frames[8];
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	sock = recycle_rig(&nic, 0, 0, 16);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 16);
	ck_assert_uint_eq(xskx_frame_alloc(nic.umem, frames, 8), 8);
	inject(&nic, 4);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 4), 4);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, 4), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 12);
	ck_assert_int_eq(xskx_frame_free(nic.umem, frames, 8), 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Released frames go straight onto FILL only within the queue's share: a
 * burst that refilled FILL to its fill_max of 16 leaves no room, so the
 * one frame released goes to the pool.
 */
START_TEST(release_stays_within_the_share)
{
	struct xskx_pkt pkt;
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	sock = recycle_rig(&nic, XSKX_SOCKET_NO_TX, 16, 0);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 48);
	inject(&nic, 1);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, &pkt, 1), 1);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 47);
	ck_assert_int_eq(xskx_rx_release(sock, &pkt, 1), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 48);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Every frame of the rig's UMEM is out with the peer again (on FILL, in
 * the NIC): a socket joining on queue 1 finds none free for its share.
 * Then the rig goes.
 */
static void assert_all_posted(struct test_sim_nic *nic,
			      struct xskx_socket *sock)
{
	XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic->port),
		  .queue_id = 1, .flags = XSKX_SOCKET_NO_TX);
	struct xskx_socket *late;

	ck_assert_uint_eq(xskx_umem_pool_count(nic->umem), 0);
	ck_assert_int_eq(xskx_socket_open(&late, nic->umem, &opts), -EBUSY);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(nic);
}

/*
 * Frames released straight onto FILL are out with the peer again: after 8
 * received and released on queue 0, whose FILL holds all 64 frames, a
 * socket joining on queue 1 finds none free for its share.
 */
START_TEST(recycled_frames_count_as_posted)
{
	struct xskx_socket *sock;
	struct xskx_pkt pkts[8];
	struct test_sim_nic nic;

	sock = recycle_rig(&nic, XSKX_SOCKET_NO_TX, 0, 0);
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), 0);
	inject(&nic, 8);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 8), 8);
	ck_assert_int_eq(xskx_rx_release(sock, pkts, 8), 0);
	assert_all_posted(&nic, sock);
}
END_TEST

/*
 * A frame refused on its way straight back to FILL leaves no slot behind:
 * released twice in one call, it goes onto FILL once, and the census still
 * finds every one of the 64 frames exactly once.
 */
START_TEST(a_refused_frame_never_reaches_fill)
{
	struct xskx_frame_census census;
	struct xskx_pkt pkts[2], twice[2];
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	sock = recycle_rig(&nic, XSKX_SOCKET_NO_TX, 0, 0);
	inject(&nic, 2);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 2), 2);
	twice[0] = twice[1] = pkts[0];
	ck_assert_int_eq(xskx_rx_release(sock, twice, 2), -EINVAL);
	ck_assert_int_eq(xskx_rx_release(sock, &pkts[1], 1), 0);
	ck_assert_int_eq(xskx_umem_census(nic.umem, &census), 0);
	ck_assert_uint_eq(census.double_frees, 1);
	ck_assert_uint_eq(census.total, 64);
	ck_assert_uint_eq(census.app, 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

/*
 * Completed frames reclaimed straight onto FILL are out with the peer again:
 * a forwarder's 8 packets sent and completed on queue 0, whose FILL held
 * all 64 frames, leave none free for a socket joining on queue 1.
 */
START_TEST(completed_frames_count_as_posted)
{
	struct xskx_socket *sock;
	struct xskx_pkt pkts[8];
	struct test_sim_nic nic;

	sock = recycle_rig(&nic, 0, 0, XSKX_TX_RESERVE_NONE);
	inject(&nic, 8);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 8), 8);
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, 8), 8);
	for (int i = 0; i < 5; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_uint_eq(xskx_tx_reclaim(sock), 8);
	assert_all_posted(&nic, sock);
}
END_TEST

/*
 * A TX burst whose slots run past the end of the ring goes out whole: on
 * an 8-entry TX ring, 6 packets, then 6 more once the first are completed
 * (slots 6 to 11: two before the end, four from the start).
 */
START_TEST(a_tx_burst_across_the_ring_end_goes_whole)
{
	struct xskx_pkt pkts[6];
	struct xskx_socket *sock;
	struct test_sim_nic nic;

	test_sim_nic_create(&nic, NULL, NULL);
	sock = open_tx_socket(&nic, 8);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 6; i++)
			pkts[i] = held_pkt(&nic, 0);
		ck_assert_int_eq(xskx_tx_burst(sock, pkts, 6), 6);
		for (int i = 0; i < 5; i++)
			ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		ck_assert_uint_eq(xskx_tx_reclaim(sock), 6);
	}
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(&nic);
}
END_TEST

static enum xskx_xdp_verdict xdp_send_back(uint8_t *data, uint32_t len,
					   uint32_t queue, void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	(void)ctx;
	return XSKX_XDP_TX;
}

/*
 * A packet a port sends over its wire to a far end that is down counts as
 * one wire drop of the sender's (XDP_TX on a queue without a socket sends
 * it), and the far end sees nothing of it.
 */
START_TEST(wire_drops_count_what_the_far_end_refused)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts);
	struct xskx_sim_faults down = { .link_down = true };
	struct xskx_sim_port_stats near, far;
	struct xskx_sim_port *a, *b;
	struct xskx_sim *sim;
	uint8_t frame[60] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1,
			      0x88, 0xb5 };

	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &a), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &b), 0);
	ck_assert_int_eq(xskx_sim_wire(a, b), 0);
	ck_assert_int_eq(xskx_sim_port_set_xdp(a, xdp_send_back, NULL), 0);
	ck_assert_int_eq(xskx_sim_port_set_faults(b, &down), 0);

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(xskx_sim_port_inject(a, frame, sizeof(frame)),
				 0);
	ck_assert_int_eq(xskx_sim_port_stats(a, &near), 0);
	ck_assert_int_eq(xskx_sim_port_stats(b, &far), 0);
	ck_assert_uint_eq(near.xdp_tx, 2);
	ck_assert_uint_eq(near.tx_packets, 2);
	ck_assert_uint_eq(near.wire_drops, 2);
	ck_assert_uint_eq(far.xdp_pass + far.xdp_drop + far.rx_missed, 0);
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);
}
END_TEST

static Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("sim");

	tcase_add_test(tc, full_rx_ring_stops_the_poll_and_keeps_the_packets);
	tcase_add_test(tc, full_rx_ring_drops_with_the_drop_policy);
	tcase_add_test(tc, rss_spreads_flows_over_queues_and_keeps_each_on_one);
	tcase_add_test(tc, xdp_pass_goes_to_the_stack_not_the_socket);
	tcase_add_test(tc, an_xdp_hook_resizes_packets_within_their_frame);
	tcase_add_test(tc, no_kick_from_a_burst_that_received_packets);
	tcase_add_test(tc, empty_tx_bursts_do_not_kick);
	tcase_add_test(tc, bad_completion_is_not_a_completed_packet);
	tcase_add_test(tc, bad_completion_between_good_ones_is_found);
	tcase_add_test(tc, copy_mode_counts_each_packet_that_finds_fill_empty_once);
	tcase_add_test(tc, zero_copy_counts_each_refill_that_finds_fill_empty_once);
	tcase_add_test(tc, a_kick_answered_try_again_is_counted);
	tcase_add_test(tc, copy_mode_sends_the_whole_tx_ring_per_kick);
	tcase_add_test(tc, a_hard_wakeup_error_comes_with_the_next_burst);
	tcase_add_test(tc, a_hard_wakeup_error_comes_with_the_next_rx_call);
	tcase_add_test(tc, a_hard_wakeup_error_comes_from_the_status_call);
	tcase_add_test(tc, inject_says_whether_the_nic_took_the_packet);
	tcase_add_test(tc, poll_many_refills_and_reports_each_socket);
	tcase_add_test(tc, a_hard_wakeup_error_comes_from_reclaim);
	tcase_add_test(tc, a_hard_wakeup_error_comes_from_the_batch_call);
	tcase_add_test(tc, tx_ring_empty_counted_once_per_time_found_empty);
	tcase_add_test(tc, zero_copy_counts_every_descriptor_of_an_invalid_chain);
	tcase_add_test(tc, refill_batch_is_at_most_half_of_fill);
	tcase_add_test(tc, release_refills_the_tx_reserve_first);
	tcase_add_test(tc, release_stays_within_the_share);
	tcase_add_test(tc, recycled_frames_count_as_posted);
	tcase_add_test(tc, a_refused_frame_never_reaches_fill);
	tcase_add_test(tc, completed_frames_count_as_posted);
	tcase_add_test(tc, a_tx_burst_across_the_ring_end_goes_whole);
	tcase_add_test(tc, wire_drops_count_what_the_far_end_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(sim_suite(), argc, argv);
}
