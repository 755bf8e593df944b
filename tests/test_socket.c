// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sockets on the simulated NIC: the bind rules of KERNEL_RULES.md ("bind"),
 * each with its errno and one message naming the culprit, and the burst
 * API's promises that scenarios do not single out: partial acceptance on a
 * full TX ring, forwarding without a copy, kicks only when asked.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_port *xport; /* the library's port on it */
	struct xskx_umem *umem;
	uint64_t sink_packets;
};

static void count_sink(enum xskx_sim_sink_kind kind, const uint8_t *data,
		       uint32_t len, uint32_t queue, void *ctx)
{
	struct rig *rig = ctx;

	(void)kind;
	(void)data;
	(void)len;
	(void)queue;
	rig->sink_packets++;
}

/* A deterministic simulated NIC with one port, a sink on it, and a UMEM. */
static void rig_create(struct rig *rig, bool zero_copy)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "p0",
		  .no_zero_copy = !zero_copy);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 1024);

	memset(rig, 0, sizeof(*rig));
	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, &port_opts, &rig->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->port, count_sink, rig), 0);
	ck_assert_int_eq(xskx_port_open_sim(&rig->xport, rig->port, NULL), 0);
	ck_assert_msg(!xskx_umem_create(&rig->umem, &umem_opts), "%s",
		      xskx_last_error());
}

static void rig_destroy(struct rig *rig)
{
	char why[384];

	ck_assert_msg(test_census_all_in_pool(rig->umem, why, sizeof(why)),
		      "%s", why);
	ck_assert_int_eq(xskx_umem_destroy(rig->umem), 0);
	ck_assert_int_eq(xskx_port_close(rig->xport), 0);
	ck_assert_int_eq(xskx_sim_destroy(rig->sim), 0);
	xskx_set_log(NULL, NULL);
}

/*
 * Options for a socket on the rig's port, built in place: a struct returned
 * or assigned by value may carry non-zero padding, which the library refuses
 * as an unknown field of a newer header (xskx/opts.h).
 */
static void sim_opts_for(struct xskx_socket_opts *opts, struct rig *rig,
			 uint32_t flags)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->port = rig->xport;
	opts->flags = flags;
}

static struct xskx_socket *open_ok(struct xskx_umem *umem,
				   const struct xskx_socket_opts *opts)
{
	struct xskx_socket *sock = NULL;
	int err = xskx_socket_open(&sock, umem, opts);

	ck_assert_msg(!err, "xskx_socket_open: %s: %s", xskx_strerror(err),
		      xskx_last_error());
	return sock;
}

/* xskx_socket_open(opts) fails with err and one message that names what. */
static void expect_open_error(struct xskx_umem *umem,
			      const struct xskx_socket_opts *opts, int err,
			      const char *what)
{
	struct xskx_socket *sock = NULL;
	int ret;

	test_log_reset();
	ret = xskx_socket_open(&sock, umem, opts);
	if (!ret)
		xskx_socket_close(sock);
	ck_assert_msg(ret == err, "expected %d (%s) for %s, got %d (%s)", err,
		      xskx_strerror(err), what, ret, xskx_strerror(ret));
	ck_assert_msg(strstr(xskx_last_error(), what),
		      "the error message does not name %s: \"%s\"", what,
		      xskx_last_error());
	ck_assert_msg(test_log_count() == 1,
		      "%s logged %u messages, expected one", what,
		      test_log_count());
}

START_TEST(open_reports_its_binding)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket_info info;
	struct xskx_socket *sock;
	char why[384];

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_socket_info(sock, &info), 0);
	ck_assert_str_eq(info.backend, "sim");
	ck_assert(info.zero_copy);
	ck_assert(info.need_wakeup);
	ck_assert(!info.multi_buffer);
	ck_assert_uint_eq(info.queue_id, 0);
	ck_assert_int_eq(xskx_socket_fd(sock), -EOPNOTSUPP);
	ck_assert_ptr_eq(xskx_socket_umem(sock), rig.umem);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(socket_needs_a_port)
{
	struct rig rig;
	struct xskx_socket_opts opts;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	opts.port = NULL;
	expect_open_error(rig.umem, &opts, -EINVAL, "opts.port");
	rig_destroy(&rig);
}
END_TEST

/*
 * xskx_socket_open_queue(): the port and queue as arguments, opts NULL for
 * every default; opts that name another port or queue are refused, naming
 * both; opts that agree are fine.
 */
START_TEST(open_queue_takes_the_port_as_an_argument)
{
	XSKX_OPTS(xskx_sim_port_opts, other_opts, .name = "p1");
	struct xskx_sim_port *other_nic;
	struct xskx_port *other;
	struct xskx_socket_info info;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock = NULL;
	struct rig rig;

	rig_create(&rig, true);
	ck_assert_int_eq(xskx_sim_port_create(rig.sim, &other_opts, &other_nic),
			 0);
	ck_assert_int_eq(xskx_port_open_sim(&other, other_nic, NULL), 0);
	test_log_reset();
	ck_assert_int_eq(xskx_socket_open_queue(&sock, NULL, 0, rig.umem, NULL),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "port"));
	sim_opts_for(&opts, &rig, 0);
	opts.port = other;
	ck_assert_int_eq(xskx_socket_open_queue(&sock, rig.xport, 0, rig.umem,
						&opts),
			 -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "'p1'") &&
			      strstr(xskx_last_error(), "'p0'"),
		      "%s", xskx_last_error());
	opts.port = NULL;
	opts.queue_id = 3;
	ck_assert_int_eq(xskx_socket_open_queue(&sock, rig.xport, 0, rig.umem,
						&opts),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "queue_id is 3"));
	ck_assert_ptr_null(sock);
	ck_assert_uint_eq(test_log_count(), 3);

	ck_assert_msg(!xskx_socket_open_queue(&sock, rig.xport, 0, rig.umem,
					      NULL),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(sock, &info), 0);
	ck_assert_uint_eq(info.queue_id, 0);
	ck_assert_str_eq(info.backend, "sim");
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	/* opts that agree with the arguments. */
	opts.port = rig.xport;
	opts.queue_id = 0;
	ck_assert_msg(!xskx_socket_open_queue(&sock, rig.xport, 0, rig.umem,
					      &opts),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_port_close(other), 0);
	rig_destroy(&rig);
}
END_TEST

/* One port per device and process: a second is refused, naming the first. */
START_TEST(port_is_one_per_device)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_port *again = NULL;
	struct xskx_port_info info;
	struct xskx_socket *sock;

	rig_create(&rig, true);
	test_log_reset();
	ck_assert_int_eq(xskx_port_open_sim(&again, rig.port, NULL), -EBUSY);
	ck_assert_ptr_null(again);
	ck_assert_msg(strstr(xskx_last_error(), "'p0'"), "%s", xskx_last_error());
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_port_info(rig.xport, &info), 0);
	ck_assert_str_eq(info.backend, "sim");
	ck_assert_str_eq(info.name, "p0");
	ck_assert_uint_eq(info.sockets, 1);
	ck_assert(info.zero_copy);
	ck_assert_uint_eq(info.rx_metadata,
			  XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH);
	ck_assert_uint_eq(info.rx_meta_bound, 0);
	/* Closing a port with a socket on it would strand the socket. */
	ck_assert_int_eq(xskx_port_close(rig.xport), -EBUSY);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_port_info(rig.xport, &info), 0);
	ck_assert_uint_eq(info.sockets, 0);
	rig_destroy(&rig);
}
END_TEST

/*
 * Output structs are sized: a caller built against an older, smaller struct
 * gets the fields it knows and nothing written past them; a newer, larger
 * one gets zeroes past what the library knows.
 */
START_TEST(output_structs_take_their_size)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	unsigned char buf[sizeof(struct xskx_stats) + 16];
	size_t old_size = offsetof(struct xskx_stats, rx_packets);

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(xskx_socket_stats_sized(sock, (struct xskx_stats *)buf,
						 old_size), 0);
	for (size_t i = old_size; i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 0xa5, "byte %zu past the old size written", i);
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(xskx_socket_stats_sized(sock, (struct xskx_stats *)buf,
						 sizeof(buf)), 0);
	for (size_t i = sizeof(struct xskx_stats); i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 0, "byte %zu past the library's struct not zeroed", i);
	ck_assert_int_eq(xskx_socket_stats_sized(sock, (struct xskx_stats *)buf, 0),
			 -EINVAL);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(ring_sizes_must_be_powers_of_two)
{
	struct rig rig;
	struct xskx_socket_opts opts;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	opts.rx_size = 1000;
	expect_open_error(rig.umem, &opts, -EINVAL, "rx_size");
	opts.rx_size = 0;
	opts.tx_size = 3;
	expect_open_error(rig.umem, &opts, -EINVAL, "tx_size");
	rig_destroy(&rig);
}
END_TEST

START_TEST(neither_rx_nor_tx)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock = NULL;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_TX);
	test_log_reset();
	ck_assert_int_eq(xskx_socket_open(&sock, rig.umem, &opts), -EINVAL);
	ck_assert_uint_eq(test_log_count(), 1);
	/* The message names the options at fault, not only the symptom. */
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_SOCKET_NO_RX"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_SOCKET_NO_TX"));
	rig_destroy(&rig);
}
END_TEST

START_TEST(queue_out_of_range)
{
	struct rig rig;
	struct xskx_socket_opts opts;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	opts.queue_id = 1;
	expect_open_error(rig.umem, &opts, -EINVAL, "queue");
	rig_destroy(&rig);
}
END_TEST

START_TEST(unknown_flag)
{
	struct rig rig;
	struct xskx_socket_opts opts;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 1u << 12);
	expect_open_error(rig.umem, &opts, -EINVAL, "flags");
	rig_destroy(&rig);
}
END_TEST

START_TEST(queue_held_by_another_umem_is_busy)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 256);
	struct rig rig;
	struct xskx_umem *other;
	struct xskx_socket_opts opts;
	struct xskx_socket *first, *second;

	rig_create(&rig, true);
	ck_assert_int_eq(xskx_umem_create(&other, &umem_opts), 0);
	sim_opts_for(&opts, &rig, 0);
	first = open_ok(rig.umem, &opts);
	expect_open_error(other, &opts, -EBUSY, "queue");

	/* Closing releases the queue at once. */
	ck_assert_int_eq(xskx_socket_close(first), 0);
	second = open_ok(other, &opts);
	ck_assert_int_eq(xskx_socket_close(second), 0);
	ck_assert_int_eq(xskx_umem_destroy(other), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(same_umem_same_queue_shares)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *first, *second;
	char why[384];

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	first = open_ok(rig.umem, &opts);
	second = open_ok(rig.umem, &opts);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_socket_close(second), 0);
	ck_assert_int_eq(xskx_socket_close(first), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(zero_copy_where_the_port_has_it)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket_info info;
	struct xskx_socket *sock;

	rig_create(&rig, false);
	sim_opts_for(&opts, &rig, 0);
	opts.copy_mode = XSKX_ZEROCOPY_FORCE;
	expect_open_error(rig.umem, &opts, -EOPNOTSUPP, "p0");

	opts.copy_mode = XSKX_COPY_AUTO;
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_socket_info(sock, &info), 0);
	ck_assert(!info.zero_copy);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	opts.copy_mode = XSKX_COPY_FORCE;
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_socket_info(sock, &info), 0);
	ck_assert(!info.zero_copy);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(no_wakeup_is_reported)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket_info info;
	struct xskx_socket *sock;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_WAKEUP);
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_socket_info(sock, &info), 0);
	ck_assert(!info.need_wakeup);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

/* A caller compiled against a newer xskx whose opts struct grew a field. */
struct newer_socket_opts {
	struct xskx_socket_opts known;
	uint64_t future_field;
};

START_TEST(opts_with_unknown_tail)
{
	struct rig rig;
	struct newer_socket_opts newer;

	rig_create(&rig, true);
	memset(&newer, 0, sizeof(newer));
	sim_opts_for(&newer.known, &rig, 0);
	newer.known.sz = sizeof(newer);
	newer.future_field = 7;
	expect_open_error(rig.umem, &newer.known, -E2BIG, "xskx_socket_opts");
	rig_destroy(&rig);
}
END_TEST

/*
 * The bytes after the last field the library knows (here the struct's own
 * tail padding) may be a newer library's field: not zero is refused, with
 * the byte named; XSKX_OPTS zeroes them.
 */
/*
 * Bytes past the last field the library knows — the struct's padding, or
 * the fields of a newer header the caller was built with — must be zero.
 */
START_TEST(opts_padding_past_the_last_field)
{
	XSKX_OPTS(xskx_socket_opts, zeroed);
	struct {
		struct xskx_socket_opts opts;
		unsigned char newer[8];
	} big;
	/* The end of the last field this library knows. */
	size_t end = offsetof(struct xskx_socket_opts,
			      xskx_socket_opts__last_field) +
		     sizeof(big.opts.xskx_socket_opts__last_field);
	struct rig rig;
	char byte[32];

	for (size_t i = end; i < sizeof(zeroed); i++)
		ck_assert_uint_eq(((unsigned char *)&zeroed)[i], 0);
	rig_create(&rig, true);
	memset(&big, 0, sizeof(big));
	sim_opts_for(&big.opts, &rig, 0);
	big.opts.sz = sizeof(big);
	memset((unsigned char *)&big + end, 0x5a, sizeof(big) - end);
	snprintf(byte, sizeof(byte), "byte %zu", end);
	expect_open_error(rig.umem, &big.opts, -E2BIG, byte);
	rig_destroy(&rig);
}
END_TEST

START_TEST(busy_while_a_socket_is_open)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_umem_destroy(rig.umem), -EBUSY);
	ck_assert_int_eq(xskx_sim_destroy(rig.sim), -EBUSY);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

/*
 * A TX-only socket on a receiving queue takes no share of the UMEM's
 * frames, so closing it gives none back: the other queue's share stays
 * what it was (half the UMEM), and the queue the TX-only socket was on
 * still fills its own half.
 */
START_TEST(closing_a_tx_only_socket_keeps_the_shares)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "two", .queues = 2);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 256);
	XSKX_OPTS(xskx_socket_opts, opts, .tx_reserve = XSKX_TX_RESERVE_NONE);
	struct xskx_socket *rx0, *rx1, *tx0;
	struct xskx_sim_port *sp;
	struct xskx_port *port;
	struct xskx_sim *sim;
	struct xskx_umem *umem;
	char why[384];

	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &sp), 0);
	ck_assert_int_eq(xskx_port_open_sim(&port, sp, NULL), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, &umem_opts), 0);
	opts.port = port;
	rx0 = open_ok(umem, &opts);
	opts.queue_id = 1;
	rx1 = open_ok(umem, &opts);
	opts.queue_id = 0;
	opts.flags = XSKX_SOCKET_NO_RX;
	tx0 = open_ok(umem, &opts);
	/* Queue 1 fills its share; queue 0 has not yet. */
	ck_assert_int_eq(xskx_rx_burst(rx1, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 128);
	ck_assert_int_eq(xskx_socket_close(tx0), 0);
	ck_assert_int_eq(xskx_rx_burst(rx1, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 128);
	ck_assert_int_eq(xskx_rx_burst(rx0, NULL, 0), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem), 0);
	ck_assert_int_eq(xskx_socket_close(rx0), 0);
	ck_assert_int_eq(xskx_socket_close(rx1), 0);
	ck_assert_msg(test_census_all_in_pool(umem, why, sizeof(why)), "%s",
		      why);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(port), 0);
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);
	xskx_set_log(NULL, NULL);
}
END_TEST

/* One test packet: just an Ethernet header and a counter byte. */
static void inject(struct rig *rig, uint8_t tag)
{
	uint8_t frame[64] = { 0x02, 0, 0, 0, 0,	   0x0b, 0x02,
			      0,    0, 0, 0, 0x0a, 0x88, 0xb5 };

	frame[20] = tag;
	ck_assert_int_eq(xskx_sim_port_inject(rig->port, frame, sizeof(frame)),
			 0);
}

/*
 * The first receive burst hands FILL to the NIC (kicking it, as FILL's
 * need_wakeup flag asks after bind); a packet that arrives before is missed,
 * as on a zero-copy NIC with no buffer posted.
 */
static void hand_fill_to_nic(struct xskx_socket *sock)
{
	struct xskx_pkt none[1];

	ck_assert_int_eq(xskx_rx_burst(sock, none, 1), 0);
}

static int receive(struct rig *rig, struct xskx_socket *sock,
		   struct xskx_pkt *pkts, uint32_t want)
{
	int got = 0;

	for (int turn = 0; turn < 100 && (uint32_t)got < want; turn++) {
		int n;

		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		n = xskx_rx_burst(sock, pkts + got, want - (uint32_t)got);
		ck_assert_int_ge(n, 0);
		got += n;
	}
	return got;
}

START_TEST(received_packet_is_the_injected_one)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_pkt pkt;
	char why[384];

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_TX);
	sock = open_ok(rig.umem, &opts);
	hand_fill_to_nic(sock);
	inject(&rig, 42);
	ck_assert_int_eq(receive(&rig, sock, &pkt, 1), 1);
	ck_assert_uint_eq(pkt.len, 64);
	ck_assert_uint_eq(pkt.data[20], 42);
	ck_assert_ptr_eq(pkt.data, xskx_umem_addr_data(xskx_umem_area(rig.umem),
						       pkt.addr));
	ck_assert_msg(test_census_ok(rig.umem, 1, why, sizeof(why)), "%s", why);
	xskx_rx_release(sock, &pkt, 1);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

/* Fill n packets of 64 bytes in fresh frames. */
static uint32_t make_tx_pkts(struct xskx_umem *umem, struct xskx_pkt *pkts,
			     uint32_t n)
{
	uint64_t frames[128];
	uint32_t got;

	ck_assert_uint_le(n, 128);
	got = xskx_frame_alloc(umem, frames, n);

	for (uint32_t i = 0; i < got; i++) {
		uint64_t addr = xskx_umem_tx_addr(umem, frames[i]);

		memset(xskx_umem_addr_data(xskx_umem_area(umem), addr), (int)i,
		       64);
		pkts[i] = (struct xskx_pkt){ .addr = addr, .len = 64 };
	}
	return got;
}

START_TEST(full_tx_ring_accepts_fewer_and_leaves_the_rest)
{
	struct xskx_sim_faults stalled = { .tx_stalled = true },
			       running = { 0 };
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_pkt pkts[100];
	struct xskx_stats stats;
	uint64_t frames[100];
	char why[384];
	int accepted;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_RX);
	opts.tx_size = 64;
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_sim_port_set_faults(rig.port, &stalled), 0);

	ck_assert_uint_eq(make_tx_pkts(rig.umem, pkts, 100), 100);
	/* A burst that fills the ring exactly is not cut short... */
	accepted = xskx_tx_burst(sock, pkts, 64);
	ck_assert_int_eq(accepted, 64);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_ring_full, 0);
	/* ...the next one, on a full ring, is, once. */
	accepted = xskx_tx_burst(sock, pkts + 64, 36);
	ck_assert_int_eq(accepted, 0);
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_ring_full, 1);
	ck_assert_uint_eq(stats.tx_packets, 64);
	ck_assert_msg(test_census_ok(rig.umem, 36, why, sizeof(why)), "%s",
		      why);

	/* The 36 left over are still the caller's to give back. */
	for (int i = 0; i < 36; i++)
		frames[i] = pkts[64 + i].addr;
	xskx_frame_free(rig.umem, frames, 36);

	ck_assert_int_eq(xskx_sim_port_set_faults(rig.port, &running), 0);
	for (int turn = 0; turn < 100 && stats.tx_completed < 64; turn++) {
		ck_assert_int_eq(xskx_socket_kick_tx(sock), 0);
		ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
		xskx_tx_reclaim(sock);
		ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	}
	ck_assert_uint_eq(stats.tx_completed, 64);
	ck_assert_uint_eq(rig.sink_packets, 64);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

/*
 * A multi-buffer packet longer than the whole TX ring could never be
 * accepted: the burst says so instead of returning 0 forever.
 */
START_TEST(chain_longer_than_tx_ring_is_refused)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_pkt pkts[8];
	uint64_t frames[8];

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_RX | XSKX_SOCKET_MULTI_BUFFER);
	opts.tx_size = 4;
	sock = open_ok(rig.umem, &opts);
	ck_assert_uint_eq(make_tx_pkts(rig.umem, pkts, 8), 8);
	for (int i = 0; i < 7; i++)
		pkts[i].options = XDP_PKT_CONTD;
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, 8), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "tx_size"), "%s",
		      xskx_last_error());
	for (int i = 0; i < 8; i++)
		frames[i] = pkts[i].addr;
	xskx_frame_free(rig.umem, frames, 8);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

/* A burst on a socket opened without that ring: -EINVAL naming the flag. */
START_TEST(burst_without_its_ring_is_refused)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *rx_only, *tx_only;
	struct xskx_pkt pkt;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_TX);
	rx_only = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_tx_burst(rx_only, &pkt, 0), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "XSKX_SOCKET_NO_TX"), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(rx_only), 0);

	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_RX);
	tx_only = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_rx_burst(tx_only, &pkt, 1), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "XSKX_SOCKET_NO_RX"), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(tx_only), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(forwarding_a_received_frame_copies_nothing)
{
	struct xskx_sim_faults stalled = { .tx_stalled = true },
			       running = { 0 };
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_rings rings;
	struct xskx_pkt pkt;
	struct xskx_stats stats;
	const struct xdp_desc *desc;
	char why[384];

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	hand_fill_to_nic(sock);
	inject(&rig, 7);
	ck_assert_int_eq(receive(&rig, sock, &pkt, 1), 1);

	/* Hold the NIC's TX so the descriptor can be read on the ring. */
	ck_assert_int_eq(xskx_sim_port_set_faults(rig.port, &stalled), 0);
	ck_assert_int_eq(xskx_tx_burst(sock, &pkt, 1), 1);
	ck_assert_uint_eq(xskx_ring_prod_queued(rings.tx), 1);
	desc = xsk_ring_prod__tx_desc(rings.tx, *rings.tx->producer - 1);
	ck_assert_uint_eq(desc->addr, pkt.addr);
	ck_assert_uint_eq(desc->len, pkt.len);

	ck_assert_int_eq(xskx_sim_port_set_faults(rig.port, &running), 0);
	memset(&stats, 0, sizeof(stats));
	for (int turn = 0; turn < 100 && !stats.tx_completed; turn++) {
		ck_assert_int_eq(xskx_socket_kick_tx(sock), 0);
		ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
		xskx_tx_reclaim(sock);
		ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	}
	ck_assert_uint_eq(stats.tx_completed, 1);
	ck_assert_uint_eq(rig.sink_packets, 1);
	ck_assert_msg(test_census_ok(rig.umem, 0, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

#define BURSTS 10u

/*
 * Send BURSTS bursts of 8 packets, each followed by an empty receive burst,
 * and let the NIC carry them; returns the socket's stats. The frames are
 * taken first: this is about kicks, not about how many frames RX leaves.
 */
static struct xskx_stats send_bursts(struct rig *rig, struct xskx_socket *sock)
{
	struct xskx_pkt pkts[BURSTS * 8], none[8];
	struct xskx_stats stats;

	ck_assert_uint_eq(make_tx_pkts(rig->umem, pkts, BURSTS * 8),
			  BURSTS * 8);
	for (uint32_t b = 0; b < BURSTS; b++) {
		ck_assert_int_eq(xskx_tx_burst(sock, pkts + 8 * b, 8), 8);
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		ck_assert_int_eq(xskx_rx_burst(sock, none, 8), 0);
	}
	for (int turn = 0; turn < 100; turn++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(sock);
	}
	ck_assert_int_eq(xskx_socket_stats(sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_completed, BURSTS * 8);
	return stats;
}

/*
 * Without need_wakeup the NIC polls on its own and never raises FILL's flag,
 * so receiving never kicks. (TX's flag is another matter: the kernel raises
 * it when the TX ring is made and only a need_wakeup driver lowers it.)
 */
START_TEST(without_need_wakeup_rx_never_kicks)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_stats stats;

	rig_create(&rig, true);
	sim_opts_for(&opts, &rig, XSKX_SOCKET_NO_WAKEUP);
	sock = open_ok(rig.umem, &opts);
	stats = send_bursts(&rig, sock);
	ck_assert_uint_eq(stats.rx_kicks, 0);
	ck_assert_uint_eq(rig.sink_packets, BURSTS * 8);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(busy_poll_kicks_every_burst)
{
	struct rig rig;
	struct xskx_socket_opts opts;
	struct xskx_socket *sock;
	struct xskx_stats stats;

	XSKX_OPTS(xskx_port_opts, busy, .flags = XSKX_PORT_BUSY_POLL);

	rig_create(&rig, true);
	/* Busy polling is the port's: reopen it so. */
	ck_assert_int_eq(xskx_port_close(rig.xport), 0);
	ck_assert_int_eq(xskx_port_open_sim(&rig.xport, rig.port, &busy), 0);
	sim_opts_for(&opts, &rig, 0);
	sock = open_ok(rig.umem, &opts);
	stats = send_bursts(&rig, sock);
	/*
	 * One kick per burst, TX and RX alike; the reclaims after do not kick
	 * (the zero-copy NIC sent everything and lowered TX's flag).
	 */
	ck_assert_msg(stats.tx_kicks == BURSTS && stats.rx_kicks == BURSTS,
		      "tx_kicks %llu rx_kicks %llu, expected %u each",
		      (unsigned long long)stats.tx_kicks,
		      (unsigned long long)stats.rx_kicks, BURSTS);
	ck_assert_uint_eq(rig.sink_packets, BURSTS * 8);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	rig_destroy(&rig);
}
END_TEST

static Suite *socket_suite(void)
{
	Suite *s = suite_create("socket");
	TCase *bind = tcase_create("bind");
	TCase *burst = tcase_create("burst");

	tcase_add_test(bind, open_reports_its_binding);
	tcase_add_test(bind, socket_needs_a_port);
	tcase_add_test(bind, open_queue_takes_the_port_as_an_argument);
	tcase_add_test(bind, port_is_one_per_device);
	tcase_add_test(bind, output_structs_take_their_size);
	tcase_add_test(bind, ring_sizes_must_be_powers_of_two);
	tcase_add_test(bind, neither_rx_nor_tx);
	tcase_add_test(bind, queue_out_of_range);
	tcase_add_test(bind, unknown_flag);
	tcase_add_test(bind, queue_held_by_another_umem_is_busy);
	tcase_add_test(bind, same_umem_same_queue_shares);
	tcase_add_test(bind, zero_copy_where_the_port_has_it);
	tcase_add_test(bind, no_wakeup_is_reported);
	tcase_add_test(bind, opts_with_unknown_tail);
	tcase_add_test(bind, opts_padding_past_the_last_field);
	tcase_add_test(bind, busy_while_a_socket_is_open);
	suite_add_tcase(s, bind);

	tcase_add_test(burst, received_packet_is_the_injected_one);
	tcase_add_test(burst, full_tx_ring_accepts_fewer_and_leaves_the_rest);
	tcase_add_test(burst, forwarding_a_received_frame_copies_nothing);
	tcase_add_test(burst, chain_longer_than_tx_ring_is_refused);
	tcase_add_test(burst, burst_without_its_ring_is_refused);
	tcase_add_test(burst, without_need_wakeup_rx_never_kicks);
	tcase_add_test(burst, busy_poll_kicks_every_burst);
	tcase_add_test(burst, closing_a_tx_only_socket_keeps_the_shares);
	suite_add_tcase(s, burst);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(socket_suite(), argc, argv);
}
