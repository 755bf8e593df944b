// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Frame ownership at the application's edge, on the simulated NIC with
 * zero-copy behaviour (where a bad TX descriptor is consumed and its frame
 * never completed): xskx_tx_burst refuses every descriptor that would lose
 * its frame, a double release or a foreign address is refused and counted,
 * the census never wraps, bad sizes and NULL arguments get -EINVAL and a
 * message. After each case every frame is back in the pool.
 */
#include <errno.h>
#include <string.h>

#include "helpers.h"

#define FRAMES 64u
#define FRAME_SIZE 2048u
#define PKT_LEN 60u

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint64_t sent;		/* frames the port put on the wire */
};

/* One zero-copy port, a UMEM of FRAMES frames and a socket on it. */
static void rig_create(struct rig *rig, uint32_t umem_flags, uint32_t sock_flags)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "p0");
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES,
		  .frame_size = FRAME_SIZE, .flags = umem_flags);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = sock_flags,
		  .tx_reserve = FRAMES / 2);

	memset(rig, 0, sizeof(*rig));
	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, &port_opts, &rig->port), 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->port, test_sink_count,
						 &rig->sent), 0);
	ck_assert_int_eq(xskx_umem_create(&rig->umem, &umem_opts), 0);
	sock_opts.port = test_port(rig->port);
	ck_assert_msg(!xskx_socket_open(&rig->sock, rig->umem, &sock_opts), "%s",
		      xskx_last_error());
}

/* Drain TX, close, and insist that every frame came home. */
static void rig_destroy(struct rig *rig)
{
	char why[512];

	for (int i = 0; i < 10; i++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(rig->sock);
	}
	ck_assert_int_eq(xskx_socket_close(rig->sock), 0);
	ck_assert_msg(test_census_all_in_pool(rig->umem, why, sizeof(why)), "%s",
		      why);
	ck_assert_int_eq(xskx_umem_destroy(rig->umem), 0);
	ck_assert_int_eq(test_sim_destroy(rig->sim), 0);
	xskx_set_log(NULL, NULL);
}

/* A packet of len bytes in a freshly allocated frame, at offset bytes in. */
static struct xskx_pkt alloc_pkt(struct rig *rig, uint32_t offset, uint32_t len)
{
	uint64_t frame;

	ck_assert_uint_eq(xskx_frame_alloc(rig->umem, &frame, 1), 1);
	return (struct xskx_pkt){ .addr = frame + offset, .len = len };
}

static uint64_t stat_tx_rejected(struct rig *rig)
{
	struct xskx_stats st;

	ck_assert_int_eq(xskx_socket_stats(rig->sock, &st), 0);
	return st.tx_rejected;
}

/*
 * xskx_tx_burst(pkt) is refused with -EINVAL and one message containing
 * what; the packet stays the application's (it can still be released).
 */
static void expect_refused(struct rig *rig, struct xskx_pkt pkt, bool release,
			   const char *what)
{
	uint64_t rejected = stat_tx_rejected(rig);
	char why[512];
	int ret;

	test_log_reset();
	ret = xskx_tx_burst(rig->sock, &pkt, 1);
	ck_assert_msg(ret == -EINVAL, "%s: xskx_tx_burst returned %d", what, ret);
	ck_assert_msg(strstr(xskx_last_error(), what),
		      "the message does not say \"%s\": %s", what,
		      xskx_last_error());
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_uint_eq(stat_tx_rejected(rig), rejected + 1);
	ck_assert_msg(test_census_ok(rig->umem, release ? 1 : 0, why, sizeof(why)),
		      "%s", why);
	if (release)
		ck_assert_int_eq(xskx_frame_free(rig->umem, &pkt.addr, 1), 0);
}

START_TEST(tx_refuses_len_zero)
{
	struct rig rig;

	rig_create(&rig, 0, 0);
	expect_refused(&rig, alloc_pkt(&rig, 0, 0), true, "len 0");
	rig_destroy(&rig);
}
END_TEST

/* 1793 bytes at XDP_PACKET_HEADROOM end one byte past a 2048-byte frame. */
START_TEST(tx_refuses_data_past_its_frame)
{
	struct rig rig;
	struct xskx_pkt fits;

	rig_create(&rig, 0, 0);
	expect_refused(&rig, alloc_pkt(&rig, 256, 1793), true, "past the end");
	fits = alloc_pkt(&rig, 256, 1792);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &fits, 1), 1);
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 1);
}
END_TEST

START_TEST(tx_refuses_data_past_its_frame_unaligned)
{
	struct rig rig;
	struct xskx_pkt pkt;

	rig_create(&rig, XSKX_UMEM_UNALIGNED, 0);
	/* The offset in the top 16 bits counts as much as one in the address. */
	pkt = alloc_pkt(&rig, 0, 1800);
	pkt.addr |= (uint64_t)256 << XSK_UNALIGNED_BUF_OFFSET_SHIFT;
	expect_refused(&rig, pkt, true, "past the end");
	rig_destroy(&rig);
}
END_TEST

START_TEST(tx_refuses_an_address_outside_the_umem)
{
	struct rig rig;
	struct xskx_pkt outside = { .addr = FRAMES * FRAME_SIZE, .len = PKT_LEN };
	struct xskx_pkt offset_bits = { .addr = (uint64_t)1 << 48, .len = PKT_LEN };

	rig_create(&rig, 0, 0);
	expect_refused(&rig, outside, false, "outside the UMEM");
	expect_refused(&rig, offset_bits, false, "outside the UMEM");
	rig_destroy(&rig);
}
END_TEST

START_TEST(tx_refuses_a_frame_not_held)
{
	struct rig rig;
	struct xskx_pkt pkt;

	rig_create(&rig, 0, 0);
	pkt = alloc_pkt(&rig, 0, PKT_LEN);
	ck_assert_int_eq(xskx_frame_free(rig.umem, &pkt.addr, 1), 0);
	expect_refused(&rig, pkt, false, "not held");
	rig_destroy(&rig);
}
END_TEST

/*
 * The first of two packets in one frame is good and queued; the burst stops
 * at the second. umem_flags and sock_flags pick TX's path: the common one
 * (aligned, no multi-buffer) or the general one.
 */
static void sent_twice_in_one_burst(uint32_t umem_flags, uint32_t sock_flags)
{
	struct rig rig;
	struct xskx_pkt pkts[2];
	char why[512];

	rig_create(&rig, umem_flags, sock_flags);
	pkts[0] = alloc_pkt(&rig, 0, PKT_LEN);
	pkts[1] = pkts[0];
	ck_assert_int_eq(xskx_tx_burst(rig.sock, pkts, 2), 1);
	ck_assert_uint_eq(stat_tx_rejected(&rig), 0);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	expect_refused(&rig, pkts[1], false, "not held");
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 1);
}

START_TEST(tx_refuses_a_frame_sent_twice_in_one_burst)
{
	sent_twice_in_one_burst(0, 0);
}
END_TEST

START_TEST(tx_refuses_a_frame_sent_twice_in_one_burst_unaligned)
{
	sent_twice_in_one_burst(XSKX_UMEM_UNALIGNED, 0);
}
END_TEST

START_TEST(tx_refuses_a_frame_sent_twice_in_one_burst_multi_buffer)
{
	sent_twice_in_one_burst(0, XSKX_SOCKET_MULTI_BUFFER);
}
END_TEST

START_TEST(tx_refuses_fragments_without_multi_buffer)
{
	struct rig rig;
	struct xskx_pkt pkt;

	struct xskx_pkt chain[2];
	char why[512];

	rig_create(&rig, 0, 0);
	pkt = alloc_pkt(&rig, 0, PKT_LEN);
	pkt.options = XDP_PKT_CONTD;
	expect_refused(&rig, pkt, true, "XDP_PKT_CONTD");
	pkt = alloc_pkt(&rig, 0, PKT_LEN);
	pkt.options = 1u << 7;
	expect_refused(&rig, pkt, true, "options");
	/* A whole chain is still a chain: the socket has no multi-buffer. */
	chain[0] = alloc_pkt(&rig, 0, PKT_LEN);
	chain[0].options = XDP_PKT_CONTD;
	chain[1] = alloc_pkt(&rig, 0, PKT_LEN);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, chain, 2), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_SOCKET_MULTI_BUFFER"));
	ck_assert_msg(test_census_ok(rig.umem, 2, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_frame_free(rig.umem, &chain[0].addr, 1), 0);
	ck_assert_int_eq(xskx_frame_free(rig.umem, &chain[1].addr, 1), 0);
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 0);
}
END_TEST

/*
 * A chain with a bad fragment is refused whole, and so is one that the
 * burst leaves open; the packets before it go out.
 */
START_TEST(tx_refuses_a_chain_whole)
{
	struct rig rig;
	struct xskx_pkt pkts[4];
	char why[512];

	rig_create(&rig, 0, XSKX_SOCKET_MULTI_BUFFER);
	pkts[0] = alloc_pkt(&rig, 0, PKT_LEN);
	pkts[1] = alloc_pkt(&rig, 0, PKT_LEN);
	pkts[1].options = XDP_PKT_CONTD;
	pkts[2] = alloc_pkt(&rig, 0, 0);	/* the bad fragment */
	pkts[3] = alloc_pkt(&rig, 0, PKT_LEN);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, pkts, 4), 1);
	ck_assert_msg(test_census_ok(rig.umem, 3, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &pkts[1], 3), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "len 0"));
	ck_assert_uint_eq(stat_tx_rejected(&rig), 1);
	ck_assert_msg(test_census_ok(rig.umem, 3, why, sizeof(why)), "%s", why);
	/* A chain the burst leaves open. */
	pkts[2].len = PKT_LEN;
	pkts[2].options = XDP_PKT_CONTD;
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &pkts[1], 2), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "chain"));
	ck_assert_msg(test_census_ok(rig.umem, 3, why, sizeof(why)), "%s", why);
	pkts[2].options = 0;
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &pkts[1], 3), 3);
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 3);
}
END_TEST

/*
 * xskx_tx_burst_status() reports a bad packet at any index from the call
 * that meets it: the good packets before it accepted, the bad one named by
 * its index, counted once, and still the caller's with the rest.
 * umem_flags and sock_flags pick TX's path, as above.
 */
static void status_names_the_refused_packet(uint32_t umem_flags,
					    uint32_t sock_flags)
{
	struct rig rig;
	struct xskx_pkt pkts[4];
	uint32_t accepted = 99;
	char why[512];

	rig_create(&rig, umem_flags, sock_flags);
	pkts[0] = alloc_pkt(&rig, 0, PKT_LEN);
	pkts[1] = alloc_pkt(&rig, 0, PKT_LEN);
	pkts[2] = alloc_pkt(&rig, 0, 0);	/* the bad one */
	pkts[3] = alloc_pkt(&rig, 0, PKT_LEN);
	test_log_reset();
	ck_assert_int_eq(xskx_tx_burst_status(rig.sock, pkts, 4, &accepted),
			 -EINVAL);
	ck_assert_uint_eq(accepted, 2);
	ck_assert_msg(strstr(xskx_last_error(), "pkts[2]") &&
			      strstr(xskx_last_error(), "len 0"),
		      "the message names neither the index nor the fault: %s",
		      xskx_last_error());
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_uint_eq(stat_tx_rejected(&rig), 1);
	ck_assert_msg(test_census_ok(rig.umem, 2, why, sizeof(why)), "%s", why);
	/* Fixed, the rest goes: nothing was left for this call to report. */
	pkts[2].len = PKT_LEN;
	accepted = 99;
	ck_assert_int_eq(xskx_tx_burst_status(rig.sock, &pkts[2], 2, &accepted),
			 0);
	ck_assert_uint_eq(accepted, 2);
	ck_assert_uint_eq(stat_tx_rejected(&rig), 1);
	/* A bad pkts[0]: nothing accepted, the error at once as well. */
	pkts[0] = alloc_pkt(&rig, 0, 0);
	ck_assert_int_eq(xskx_tx_burst_status(rig.sock, pkts, 1, &accepted),
			 -EINVAL);
	ck_assert_uint_eq(accepted, 0);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "pkts[0]"));
	ck_assert_int_eq(xskx_frame_free(rig.umem, &pkts[0].addr, 1), 0);
	ck_assert_int_eq(xskx_tx_burst_status(rig.sock, NULL, 0, NULL), -EINVAL);
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 4);
}

START_TEST(tx_burst_status_names_the_refused_packet)
{
	status_names_the_refused_packet(0, 0);
}
END_TEST

START_TEST(tx_burst_status_names_the_refused_packet_unaligned)
{
	status_names_the_refused_packet(XSKX_UMEM_UNALIGNED, 0);
}
END_TEST

START_TEST(tx_burst_status_names_the_refused_packet_multi_buffer)
{
	status_names_the_refused_packet(0, XSKX_SOCKET_MULTI_BUFFER);
}
END_TEST

/* The case: none of these may cost a frame on a zero-copy peer. */
START_TEST(bad_tx_loses_no_frame)
{
	struct rig rig;
	struct xskx_pkt pkt;

	rig_create(&rig, 0, 0);
	pkt = alloc_pkt(&rig, 0, 0);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, &pkt, 1), -EINVAL);
	ck_assert_int_eq(xskx_frame_free(rig.umem, &pkt.addr, 1), 0);
	rig_destroy(&rig);
	ck_assert_uint_eq(rig.sent, 0);
}
END_TEST

static void inject_and_receive(struct rig *rig, struct xskx_pkt *pkt)
{
	uint8_t frame[PKT_LEN] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2 };
	int got = 0;

	ck_assert_int_eq(xskx_rx_burst(rig->sock, pkt, 1), 0);
	ck_assert_int_eq(xskx_sim_port_inject(rig->port, frame, sizeof(frame)), 0);
	for (int turn = 0; turn < 10 && !got; turn++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		got = xskx_rx_burst(rig->sock, pkt, 1);
	}
	ck_assert_int_eq(got, 1);
}

START_TEST(double_release_is_refused_and_counted)
{
	struct xskx_frame_census c;
	struct rig rig;
	struct xskx_pkt pkt;
	uint32_t pool;

	rig_create(&rig, 0, 0);
	inject_and_receive(&rig, &pkt);
	ck_assert_int_eq(xskx_rx_release(rig.sock, &pkt, 1), 0);
	pool = xskx_umem_pool_count(rig.umem);
	test_log_reset();
	ck_assert_int_eq(xskx_rx_release(rig.sock, &pkt, 1), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "not held"));
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_uint_eq(xskx_umem_pool_count(rig.umem), pool);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.double_frees, 1);
	ck_assert_uint_eq(c.app, 0);
	ck_assert_int_eq(c.unaccounted, 0);
	ck_assert_uint_eq(c.total, FRAMES);
	/* Counted once, the UMEM is otherwise whole: clear the count's effect. */
	ck_assert_int_eq(xskx_socket_close(rig.sock), 0);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.pool, FRAMES);
	ck_assert_int_eq(xskx_umem_destroy(rig.umem), 0);
	ck_assert_int_eq(test_sim_destroy(rig.sim), 0);
}
END_TEST

/* A foreign address never reaches the pool, so never FILL either. */
START_TEST(foreign_release_is_refused_and_counted)
{
	struct xskx_frame_census c;
	struct rig rig;
	struct xskx_pkt pkts[2];

	rig_create(&rig, 0, 0);
	inject_and_receive(&rig, &pkts[0]);
	pkts[1] = (struct xskx_pkt){ .addr = (uint64_t)FRAMES * FRAME_SIZE + 256 };
	/* The good one goes back all the same. */
	ck_assert_int_eq(xskx_rx_release(rig.sock, pkts, 2), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "outside the UMEM"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "index 1"));
	ck_assert_int_eq(xskx_umem_census(rig.umem, &c), 0);
	ck_assert_uint_eq(c.foreign_frees, 1);
	ck_assert_uint_eq(c.double_frees, 0); /* foreign, not released twice */
	ck_assert_uint_eq(c.app, 0);
	ck_assert_uint_eq(c.total, FRAMES);
	ck_assert_int_eq(c.unaccounted, 0);
	ck_assert_int_eq(xskx_socket_close(rig.sock), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(rig.umem), FRAMES);
	ck_assert_int_eq(xskx_umem_destroy(rig.umem), 0);
	ck_assert_int_eq(test_sim_destroy(rig.sim), 0);
}
END_TEST

/* A function given NULL says -EINVAL and names itself; nothing crashes. */
START_TEST(null_arguments_are_refused)
{
	struct rig rig;
	struct xskx_pkt pkt = { 0 };
	struct xskx_frame_census c;
	uint64_t addr = 0;

	rig_create(&rig, 0, 0);
	test_log_reset();
	ck_assert_int_eq(xskx_umem_census(rig.umem, NULL), -EINVAL);
	ck_assert_int_eq(xskx_umem_census(NULL, &c), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "xskx_umem_census"));
	ck_assert_int_eq(xskx_rx_burst(NULL, &pkt, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_burst(rig.sock, NULL, 1), -EINVAL);
	ck_assert_int_eq(xskx_tx_burst(NULL, &pkt, 1), -EINVAL);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_release(NULL, &pkt, 1), -EINVAL);
	ck_assert_int_eq(xskx_rx_release(rig.sock, NULL, 1), -EINVAL);
	ck_assert_int_eq(xskx_frame_free(NULL, &addr, 1), -EINVAL);
	ck_assert_uint_eq(xskx_frame_alloc(NULL, &addr, 1), 0);
	ck_assert_int_eq(xskx_socket_stats(NULL, NULL), -EINVAL);
	ck_assert_int_eq(xskx_socket_info(rig.sock, NULL), -EINVAL);
	ck_assert_int_eq(xskx_socket_rings(NULL, NULL), -EINVAL);
	ck_assert_int_eq(xskx_socket_poll(NULL, 0, 0), -EINVAL);
	ck_assert_int_eq(xskx_socket_kick_rx(NULL), -EINVAL);
	ck_assert_int_eq(xskx_socket_kick_tx(NULL), -EINVAL);
	ck_assert_int_eq(xskx_socket_fd(NULL), -EINVAL);
	ck_assert_ptr_null(xskx_socket_umem(NULL));
	ck_assert_int_eq(xskx_tx_reclaim(NULL), -EINVAL);
	ck_assert_uint_eq(xskx_umem_frame_count(NULL), 0);
	ck_assert_ptr_null(xskx_umem_area(NULL));
	ck_assert_uint_eq(test_log_count(), 21);
	/* Empty bursts need no array. */
	ck_assert_int_eq(xskx_rx_release(rig.sock, NULL, 0), 0);
	ck_assert_int_eq(xskx_frame_free(rig.umem, NULL, 0), 0);
	rig_destroy(&rig);
}
END_TEST

/* 2^31 entries is refused up front, naming the largest size allowed. */
START_TEST(absurd_ring_sizes_are_refused)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .fill_size = 1u << 31);
	struct xskx_socket_opts sock_opts;
	struct xskx_socket *sock = NULL;
	struct xskx_umem *umem = NULL;
	struct rig rig;
	char largest[16];

	snprintf(largest, sizeof(largest), "%u", XSKX_RING_MAX_SIZE);
	test_log_capture();
	ck_assert_int_eq(xskx_umem_create(&umem, &umem_opts), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "fill_size"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), largest));
	rig_create(&rig, 0, 0);
	memset(&sock_opts, 0, sizeof(sock_opts));
	sock_opts.sz = sizeof(sock_opts);
	sock_opts.port = test_port(rig.port);
	sock_opts.queue_id = 0;
	sock_opts.rx_size = 1u << 31;
	ck_assert_int_eq(xskx_socket_open(&sock, rig.umem, &sock_opts), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "rx_size"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), largest));
	rig_destroy(&rig);
	/* The largest size itself is allowed (rings are made at bind). */
	umem_opts.fill_size = XSKX_RING_MAX_SIZE;
	umem_opts.comp_size = XSKX_RING_MAX_SIZE;
	ck_assert_msg(xskx_umem_create(&umem, &umem_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

/* A port with queues queues and a UMEM of frames frames: the sharing rules. */
static void shared_umem_create(struct xskx_sim **sim, struct xskx_sim_port **port,
			       struct xskx_umem **umem, uint32_t queues,
			       uint32_t frames)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .queues = queues);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = frames,
		  .frame_size = 2048);

	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(*sim, &port_opts, port), 0);
	ck_assert_int_eq(xskx_umem_create(umem, &umem_opts), 0);
}

/* Every socket closed: all frames home, then the UMEM and the NIC go. */
static void shared_umem_destroy(struct xskx_sim *sim, struct xskx_umem *umem)
{
	ck_assert_uint_eq(xskx_umem_pool_count(umem), xskx_umem_frame_count(umem));
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(test_sim_destroy(sim), 0);
	xskx_set_log(NULL, NULL);
}

/*
 * A UMEM too small for its receiving queues and tx_reserve is refused with
 * the numbers; one frame more is enough.
 */
START_TEST(too_small_a_umem_is_refused_with_the_numbers)
{
	struct xskx_socket *a = NULL, *b = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 2, 8);
	{
		XSKX_OPTS(xskx_socket_opts, o, .port = test_port(port),
			  .flags = XSKX_SOCKET_NO_TX, .fill_max = 4);

		ck_assert_int_eq(xskx_socket_open(&a, umem, &o), 0);
		o.queue_id = 1;
		o.fill_max = 5;
		ck_assert_int_eq(xskx_socket_open(&b, umem, &o), -EINVAL);
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "need 9"));
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "at least 9 frames"));
		o.fill_max = 4;
		ck_assert_int_eq(xskx_socket_open(&b, umem, &o), 0);
		o.fill_max = 9;
		ck_assert_int_eq(xskx_socket_open(&b, umem, &o), -EINVAL);
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "fill_max 9"));
	}
	ck_assert_int_eq(xskx_socket_close(b), 0);
	ck_assert_int_eq(xskx_socket_close(a), 0);
	shared_umem_destroy(sim, umem);
}
END_TEST

/*
 * A single frame for a socket with RX and TX: receiving would hold it and
 * leave xskx_frame_alloc() nothing (the default tx_reserve, half of the
 * frames, rounds up): refused with the numbers; two frames are enough.
 */
START_TEST(one_frame_for_rx_and_tx_is_refused_with_the_numbers)
{
	XSKX_OPTS(xskx_socket_opts, o, .rx_size = 1, .tx_size = 1);
	struct xskx_socket *sock = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 1, 1);
	o.port = test_port(port);
	ck_assert_int_eq(xskx_socket_open(&sock, umem, &o), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "1 frames are too few") &&
			      strstr(xskx_last_error(), "tx_reserve 1") &&
			      strstr(xskx_last_error(), "at least 2 frames"),
		      "%s", xskx_last_error());
	shared_umem_destroy(sim, umem);
	shared_umem_create(&sim, &port, &umem, 1, 2);
	o.port = test_port(port);
	ck_assert_msg(!xskx_socket_open(&sock, umem, &o), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	shared_umem_destroy(sim, umem);
}
END_TEST

/*
 * Rings longer than the UMEM's frames can fill (64 frames under the
 * default 2048 entries): the socket opens, with one warning naming the
 * frames, each such ring, and the sizes that would do. Rings of 64 (or
 * RX and TX of 64 on a UMEM whose FILL and COMPLETION another socket
 * brought) draw none.
 */
START_TEST(rings_the_frames_cannot_fill_are_warned_with_the_numbers)
{
	XSKX_OPTS(xskx_socket_opts, o);
	struct xskx_socket *sock = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 1, 64);
	o.port = test_port(port);
	test_log_reset();
	ck_assert_msg(!xskx_socket_open(&sock, umem, &o), "%s",
		      xskx_last_error());
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_msg(strstr(test_log_last(), "64 frames") &&
			      strstr(test_log_last(),
				     "FILL 2048, COMPLETION 2048, RX 2048, TX 2048") &&
			      strstr(test_log_last(), "rings of 64 entries") &&
			      strstr(test_log_last(), "at least 2048 frames"),
		      "%s", test_log_last());
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	/* The socket's own rings fit: only FILL and COMPLETION are named. */
	o.rx_size = 64;
	o.tx_size = 64;
	test_log_reset();
	ck_assert_int_eq(xskx_socket_open(&sock, umem, &o), 0);
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_msg(strstr(test_log_last(), "(FILL 2048, COMPLETION 2048)"),
		      "%s", test_log_last());
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	shared_umem_destroy(sim, umem);
	{
		XSKX_OPTS(xskx_umem_opts, fitting, .frame_count = 64,
			  .frame_size = 2048, .fill_size = 64,
			  .comp_size = 64);

		test_log_capture();
		ck_assert_int_eq(xskx_sim_create(&sim, NULL), 0);
		ck_assert_int_eq(xskx_sim_port_create(sim, NULL, &port), 0);
		ck_assert_int_eq(xskx_umem_create(&umem, &fitting), 0);
		o.port = test_port(port);
		test_log_reset();
		ck_assert_int_eq(xskx_socket_open(&sock, umem, &o), 0);
		ck_assert_msg(test_log_count() == 0, "%s", test_log_last());
		ck_assert_int_eq(xskx_socket_close(sock), 0);
		shared_umem_destroy(sim, umem);
	}
}
END_TEST

/*
 * Frames a queue posted stay with the peer when its receiving socket closes
 * while a TX-only socket keeps its FILL ring: they are not counted as free
 * for a socket opened on another queue, which is refused rather than left
 * to starve.
 */
START_TEST(frames_of_a_closed_receiver_are_not_shared_again)
{
	struct xskx_socket *rx = NULL, *tx_only = NULL, *late = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 2, 8);
	{
		XSKX_OPTS(xskx_socket_opts, o, .port = test_port(port),
			  .flags = XSKX_SOCKET_NO_TX);
		XSKX_OPTS(xskx_socket_opts, t, .port = test_port(port),
			  .flags = XSKX_SOCKET_NO_RX);

		ck_assert_int_eq(xskx_socket_open(&rx, umem, &o), 0);
		ck_assert_int_eq(xskx_socket_open(&tx_only, umem, &t), 0);
		/* The only receiving queue: its first burst posts all 8. */
		ck_assert_int_eq(xskx_rx_burst(rx, NULL, 0), 0);
		ck_assert_uint_eq(xskx_umem_pool_count(umem), 0);
		ck_assert_int_eq(xskx_socket_close(rx), 0);
		o.queue_id = 1;
		ck_assert_int_eq(xskx_socket_open(&late, umem, &o), -EBUSY);
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "8 of its 8"));
	}
	ck_assert_int_eq(xskx_socket_close(tx_only), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 8);
	shared_umem_destroy(sim, umem);
}
END_TEST

/*
 * Frames a closed receiver left with the peer are not in the budget the
 * shares divide either: 4 of 8 frames orphaned on queue 0, the two queues
 * opened next get 2 each, so the first to fill cannot take the second's.
 */
START_TEST(orphaned_frames_are_left_out_of_the_shares)
{
	XSKX_OPTS(xskx_socket_opts, o, .flags = XSKX_SOCKET_NO_TX, .fill_max = 4);
	XSKX_OPTS(xskx_socket_opts, t, .flags = XSKX_SOCKET_NO_RX);
	struct xskx_socket *rx = NULL, *tx_only = NULL, *q1 = NULL, *q2 = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 3, 8);
	o.port = t.port = test_port(port);
	ck_assert_int_eq(xskx_socket_open(&rx, umem, &o), 0);
	ck_assert_int_eq(xskx_socket_open(&tx_only, umem, &t), 0);
	ck_assert_int_eq(xskx_rx_burst(rx, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 4);
	ck_assert_int_eq(xskx_socket_close(rx), 0);
	o.fill_max = 0;
	o.queue_id = 1;
	ck_assert_int_eq(xskx_socket_open(&q1, umem, &o), 0);
	o.queue_id = 2;
	ck_assert_int_eq(xskx_socket_open(&q2, umem, &o), 0);
	ck_assert_int_eq(xskx_rx_burst(q1, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 2);
	ck_assert_int_eq(xskx_rx_burst(q2, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 0);
	ck_assert_int_eq(xskx_socket_close(q2), 0);
	ck_assert_int_eq(xskx_socket_close(q1), 0);
	ck_assert_int_eq(xskx_socket_close(tx_only), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 8);
	shared_umem_destroy(sim, umem);
}
END_TEST

/*
 * Frames on a closing socket's RX ring go back to the pool, and no longer
 * count against its queue's share: a socket opened on the same queue (the
 * FILL ring kept open by a TX-only socket) can post them again.
 */
START_TEST(frames_on_a_closed_rx_ring_leave_the_share)
{
	XSKX_OPTS(xskx_socket_opts, o, .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, t, .flags = XSKX_SOCKET_NO_RX);
	uint8_t frame[PKT_LEN] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2 };
	struct xskx_socket *a = NULL, *tx_only = NULL, *b = NULL;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_sim *sim;

	shared_umem_create(&sim, &port, &umem, 1, 64);
	o.port = t.port = test_port(port);
	ck_assert_int_eq(xskx_socket_open(&a, umem, &o), 0);
	ck_assert_int_eq(xskx_socket_open(&tx_only, umem, &t), 0);
	ck_assert_int_eq(xskx_rx_burst(a, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 0);
	for (int i = 0; i < 40; i++)
		ck_assert_int_eq(xskx_sim_port_inject(port, frame, sizeof(frame)), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(sim), 0);
	/* 40 packets wait on a's RX ring; closing a gives their frames back. */
	ck_assert_int_eq(xskx_socket_close(a), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 40);
	ck_assert_int_eq(xskx_socket_open(&b, umem, &o), 0);
	ck_assert_int_eq(xskx_rx_burst(b, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 0);
	ck_assert_int_eq(xskx_socket_close(b), 0);
	ck_assert_int_eq(xskx_socket_close(tx_only), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 64);
	shared_umem_destroy(sim, umem);
}
END_TEST

static Suite *ownership_suite(void)
{
	Suite *s = suite_create("ownership");
	TCase *tc = tcase_create("ownership");

	tcase_add_test(tc, tx_refuses_len_zero);
	tcase_add_test(tc, tx_refuses_data_past_its_frame);
	tcase_add_test(tc, tx_refuses_data_past_its_frame_unaligned);
	tcase_add_test(tc, tx_refuses_an_address_outside_the_umem);
	tcase_add_test(tc, tx_refuses_a_frame_not_held);
	tcase_add_test(tc, tx_refuses_a_frame_sent_twice_in_one_burst);
	tcase_add_test(tc, tx_refuses_a_frame_sent_twice_in_one_burst_unaligned);
	tcase_add_test(tc, tx_refuses_a_frame_sent_twice_in_one_burst_multi_buffer);
	tcase_add_test(tc, tx_refuses_fragments_without_multi_buffer);
	tcase_add_test(tc, tx_refuses_a_chain_whole);
	tcase_add_test(tc, bad_tx_loses_no_frame);
	tcase_add_test(tc, tx_burst_status_names_the_refused_packet);
	tcase_add_test(tc, tx_burst_status_names_the_refused_packet_unaligned);
	tcase_add_test(tc, tx_burst_status_names_the_refused_packet_multi_buffer);
	tcase_add_test(tc, double_release_is_refused_and_counted);
	tcase_add_test(tc, foreign_release_is_refused_and_counted);
	tcase_add_test(tc, null_arguments_are_refused);
	tcase_add_test(tc, absurd_ring_sizes_are_refused);
	tcase_add_test(tc, too_small_a_umem_is_refused_with_the_numbers);
	tcase_add_test(tc, one_frame_for_rx_and_tx_is_refused_with_the_numbers);
	tcase_add_test(tc, rings_the_frames_cannot_fill_are_warned_with_the_numbers);
	tcase_add_test(tc, frames_of_a_closed_receiver_are_not_shared_again);
	tcase_add_test(tc, orphaned_frames_are_left_out_of_the_shares);
	tcase_add_test(tc, frames_on_a_closed_rx_ring_leave_the_share);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(ownership_suite(), argc, argv);
}
