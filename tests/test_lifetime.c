// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Object lifetimes: destroying anything that something else still uses is
 * refused with -EBUSY and one message naming the user, and the user keeps
 * working afterwards; or, where the library can end the use itself (a
 * socket's open batches), it does so without losing a frame. One case per
 * pair: machine and library port, machine and socket, port and socket,
 * UMEM and socket, socket and its batches.
 */
#include <errno.h>
#include <string.h>
#include <xskx/batch.h>

#include "helpers.h"

#define FRAMES 256u
#define PKT_LEN 64u

/* An Ethernet header (locally administered MACs) and zeros. */
static const uint8_t frame[PKT_LEN] = { 0x02, 0, 0, 0, 0, 2,
					0x02, 0, 0, 0, 0, 1, 0x88, 0xb5 };

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *sim_port;
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint64_t wire; /* packets the port transmitted */
};

/* A deterministic machine, a port "life0" with a sink, a library port. */
static void rig_machine(struct rig *rig)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "life0");

	memset(rig, 0, sizeof(*rig));
	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(
		xskx_sim_port_create(rig->sim, &port_opts, &rig->sim_port), 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->sim_port, test_sink_count,
						&rig->wire),
			 0);
	ck_assert_msg(!xskx_port_open_sim(&rig->port, rig->sim_port, NULL),
		      "%s", xskx_last_error());
}

/* The machine, a UMEM and a socket on queue 0 with FILL filled. */
static void rig_create(struct rig *rig)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .rx_size = 64, .tx_size = 64,
		  .tx_reserve = FRAMES / 2);

	rig_machine(rig);
	ck_assert_int_eq(xskx_umem_create(&rig->umem, &umem_opts), 0);
	sock_opts.port = rig->port;
	ck_assert_msg(!xskx_socket_open(&rig->sock, rig->umem, &sock_opts),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_rx_burst(rig->sock, NULL, 0), 0);
}

/* Close in order and insist that every frame came home. */
static void rig_destroy(struct rig *rig)
{
	char why[384];

	for (int i = 0; i < 10 && rig->sock; i++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(rig->sock);
	}
	if (rig->sock)
		ck_assert_int_eq(xskx_socket_close(rig->sock), 0);
	if (rig->umem) {
		ck_assert_msg(test_census_all_in_pool(rig->umem, why,
						      sizeof(why)),
			      "%s", why);
		ck_assert_int_eq(xskx_umem_destroy(rig->umem), 0);
	}
	ck_assert_int_eq(xskx_port_close(rig->port), 0);
	ck_assert_int_eq(xskx_sim_destroy(rig->sim), 0);
	xskx_set_log(NULL, NULL);
}

/* call's result is -EBUSY, with one message that names each of what. */
static void expect_busy(int ret, const char *call, const char *what1,
			const char *what2)
{
	ck_assert_msg(ret == -EBUSY, "%s returned %d (%s), expected -EBUSY",
		      call, ret, xskx_strerror(ret));
	ck_assert_msg(test_log_count() == 1, "%s logged %u messages, not one",
		      call, test_log_count());
	ck_assert_msg(strstr(xskx_last_error(), what1), "%s: \"%s\" names no %s",
		      call, xskx_last_error(), what1);
	ck_assert_msg(!what2 || strstr(xskx_last_error(), what2),
		      "%s: \"%s\" names no %s", call, xskx_last_error(), what2);
}

/* One packet in through the port and back out of the socket's TX. */
static void socket_still_works(struct rig *rig)
{
	uint64_t wire = rig->wire;
	struct xskx_pkt pkt;

	ck_assert_int_eq(xskx_sim_port_inject(rig->sim_port, frame,
					      sizeof(frame)),
			 0);
	ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
	ck_assert_int_eq(xskx_rx_burst(rig->sock, &pkt, 1), 1);
	ck_assert_uint_eq(pkt.len, sizeof(frame));
	ck_assert_int_eq(xskx_tx_burst(rig->sock, &pkt, 1), 1);
	for (int i = 0; i < 10 && rig->wire == wire; i++)
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
	ck_assert_uint_eq(rig->wire, wire + 1);
}

/*
 * A machine with a library port open on one of its ports: destroying it
 * would free what the port points into (xskx_port_close() was then a
 * use-after-free).
 */
START_TEST(machine_with_a_port_open)
{
	struct rig rig;
	struct xskx_port_info info;

	rig_machine(&rig);
	test_log_reset();
	expect_busy(xskx_sim_destroy(rig.sim), "xskx_sim_destroy", "'life0'",
		    "xskx_port_close");
	/* The port is whole: it answers, and closes. */
	ck_assert_int_eq(xskx_port_info(rig.port, &info), 0);
	ck_assert_str_eq(info.name, "life0");
	ck_assert_int_eq(xskx_port_close(rig.port), 0);
	/* Closed: the machine goes. */
	ck_assert_int_eq(xskx_sim_destroy(rig.sim), 0);
	xskx_set_log(NULL, NULL);
}
END_TEST

START_TEST(machine_with_a_socket_open)
{
	struct rig rig;

	rig_create(&rig);
	test_log_reset();
	expect_busy(xskx_sim_destroy(rig.sim), "xskx_sim_destroy", "socket",
		    NULL);
	socket_still_works(&rig);
	rig_destroy(&rig);
}
END_TEST

START_TEST(port_with_a_socket_open)
{
	struct rig rig;

	rig_create(&rig);
	test_log_reset();
	expect_busy(xskx_port_close(rig.port), "xskx_port_close", "'life0'",
		    "socket");
	socket_still_works(&rig);
	rig_destroy(&rig);
}
END_TEST

START_TEST(umem_with_a_socket_open)
{
	struct rig rig;

	rig_create(&rig);
	test_log_reset();
	expect_busy(xskx_umem_destroy(rig.umem), "xskx_umem_destroy",
		    "1 socket still uses the UMEM, the one on queue 0 of port 'life0'",
		    "xskx_socket_close() it");
	socket_still_works(&rig);
	rig_destroy(&rig);
}
END_TEST

/*
 * A socket with both batches open closes them (xskx/batch.h): the peeked
 * packets' frames and the reserved ones go back with the socket's others,
 * and nothing is sent that was not submitted.
 */
START_TEST(socket_with_open_batches)
{
	struct xskx_rx_batch rb;
	struct xskx_tx_batch tb;
	struct xskx_frame_census census;
	struct rig rig;

	rig_create(&rig);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(xskx_sim_port_inject(rig.sim_port, frame,
						      sizeof(frame)),
				 0);
	ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_int_eq(xskx_rx_peek(rig.sock, &rb, 64), 3);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &tb, 5, PKT_LEN), 5);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &census), 0);
	ck_assert_uint_eq(census.app, 5);
	ck_assert_int_eq(xskx_socket_close(rig.sock), 0);
	rig.sock = NULL;
	for (int i = 0; i < 10; i++)
		ck_assert_int_ge(xskx_sim_poll(rig.sim), 0);
	ck_assert_uint_eq(rig.wire, 0);
	ck_assert_int_eq(xskx_umem_census(rig.umem, &census), 0);
	ck_assert_uint_eq(census.app, 0);
	ck_assert_uint_eq(census.pool, FRAMES);
	rig_destroy(&rig);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("lifetime");
	TCase *tc = tcase_create("lifetime");

	tcase_add_test(tc, machine_with_a_port_open);
	tcase_add_test(tc, machine_with_a_socket_open);
	tcase_add_test(tc, port_with_a_socket_open);
	tcase_add_test(tc, umem_with_a_socket_open);
	tcase_add_test(tc, socket_with_open_batches);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
