// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Queues without a socket on the simulated NIC: RSS spreads a source's
 * flows over every queue, a socket listens on one, and the packets of the
 * others are counted per queue (xskx_port_rx_no_socket(), the port's
 * info) and named once in the log with the fix, as xskx's XDP program
 * counts them on the kernel (tests/veth: veth_no_socket.c).
 */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "helpers.h"

enum {
	QUEUES = 4,
	FLOWS = 64,
	PACKETS = 1024,
	BURST = 64,
};

/* A 4-queue port "nosock0"; returns the receiving socket on queue 0. */
static struct xskx_socket *nic_open(struct test_sim_nic *nic, bool zero_copy)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "nosock0",
		  .queues = QUEUES, .no_zero_copy = !zero_copy);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 2048);
	struct xskx_socket *sock;
	struct xskx_pkt none[1];

	test_sim_nic_create(nic, &port_opts, &umem_opts);
	{
		XSKX_OPTS(xskx_socket_opts, opts, .port = test_port(nic->port),
			  .queue_id = 0, .flags = XSKX_SOCKET_NO_TX);

		ck_assert_msg(!xskx_socket_open(&sock, nic->umem, &opts), "%s",
			      xskx_last_error());
	}
	ck_assert_int_eq(xskx_rx_burst(sock, none, 1), 0);
	return sock;
}

/* Run the source dry, reading queue 0: what queue 0's socket received. */
static uint64_t run_source(struct test_sim_nic *nic, struct xskx_socket *sock)
{
	XSKX_OPTS(xskx_sim_source_opts, source, .count = PACKETS,
		  .flows = FLOWS);
	struct xskx_pkt pkts[BURST];
	uint64_t got = 0;

	ck_assert_int_eq(xskx_sim_port_add_source(nic->port, &source), 0);
	for (int turn = 0; turn < 10000; turn++) {
		int n;

		ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
		n = xskx_rx_burst(sock, pkts, BURST);
		ck_assert_int_ge(n, 0);
		xskx_rx_release(sock, pkts, (uint32_t)n);
		got += (uint64_t)n;
		if (!n && !xskx_sim_sources_active(nic->sim))
			break;
	}
	return got;
}

static void nic_close(struct test_sim_nic *nic, struct xskx_socket *sock)
{
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_nic_destroy(nic);
}

static void counted_per_queue(bool zero_copy)
{
	struct xskx_port_info info;
	uint64_t counts[QUEUES], sum = 0, got;
	struct xskx_sim_port_stats ps;
	struct test_sim_nic nic;
	struct xskx_socket *sock;

	test_log_capture();
	sock = nic_open(&nic, zero_copy);
	got = run_source(&nic, sock);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), counts,
						QUEUES),
			 QUEUES);
	ck_assert_uint_eq(counts[0], 0);
	for (int q = 1; q < QUEUES; q++) {
		ck_assert_msg(counts[q] > 0,
			      "queue %d: none counted of %d flows", q, FLOWS);
		sum += counts[q];
	}
	/* Every packet either reached the socket or was counted, once. */
	ck_assert_uint_eq(got + sum, PACKETS);
	ck_assert_uint_eq(nic.stack_packets, sum);
	ck_assert_int_eq(xskx_sim_port_stats(nic.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_pass, sum);

	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_msg(strstr(test_log_last(), "'nosock0'") &&
			      strstr(test_log_last(), "queue 1 (") &&
			      strstr(test_log_last(), ", 3 (") &&
			      !strstr(test_log_last(), " 0 (") &&
			      strstr(test_log_last(), "ethtool -L nosock0") &&
			      strstr(test_log_last(), "ethtool -X nosock0") &&
			      strstr(test_log_last(), "ethtool -N nosock0"),
		      "message: %s", test_log_last());

	/* Once: info and a second reading report without logging again. */
	ck_assert_int_eq(xskx_port_info(test_port(nic.port), &info), 0);
	ck_assert_uint_eq(info.rx_no_socket, sum);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), counts, 2),
			 QUEUES);
	ck_assert_uint_eq(test_log_count(), 1);
	nic_close(&nic, sock);
	ck_assert_uint_eq(test_log_count(), 1);
	xskx_set_log(NULL, NULL);
}

START_TEST(zero_copy_queues_count_what_found_no_socket)
{
	counted_per_queue(true);
}
END_TEST

START_TEST(copy_mode_queues_count_what_found_no_socket)
{
	counted_per_queue(false);
}
END_TEST

/* Closing the receiving socket says it to a program that never asked. */
START_TEST(closing_the_socket_names_the_queues)
{
	struct test_sim_nic nic;
	struct xskx_socket *sock;

	test_log_capture();
	sock = nic_open(&nic, true);
	run_source(&nic, sock);
	ck_assert_uint_eq(test_log_count(), 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_msg(strstr(test_log_last(), "no xskx socket listens"),
		      "message: %s", test_log_last());
	test_sim_nic_destroy(&nic);
	xskx_set_log(NULL, NULL);
}
END_TEST

/* The deny list's hook is xskx's program too: it counts as the default. */
START_TEST(the_deny_list_counts_what_it_lets_through)
{
	struct xskx_filter_entry entry = { .field = XSKX_FILTER_SRC };
	uint64_t counts[QUEUES], sum = 0, got;
	struct test_sim_nic nic;
	struct xskx_socket *sock;

	sock = nic_open(&nic, true);
	/* Denies nothing the source sends (it sends from 192.0.2.1). */
	ck_assert_int_eq(xskx_prefix_parse("203.0.113.0/24", &entry.prefix), 0);
	ck_assert_int_eq(xskx_filter_set(test_port(nic.port), &entry, 1), 0);
	got = run_source(&nic, sock);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), counts,
						QUEUES),
			 QUEUES);
	ck_assert_uint_eq(counts[0], 0);
	for (int q = 1; q < QUEUES; q++)
		sum += counts[q];
	ck_assert_uint_gt(sum, 0);
	ck_assert_uint_eq(got + sum, PACKETS);
	nic_close(&nic, sock);
}
END_TEST

/* A hook of yours decides for itself: nothing counted, nothing said. */
START_TEST(a_hook_of_yours_counts_nothing)
{
	uint64_t counts[QUEUES];
	struct test_sim_nic nic;
	struct xskx_socket *sock;

	test_log_capture();
	sock = nic_open(&nic, true);
	ck_assert_int_eq(xskx_sim_port_set_xdp(nic.port, test_xdp_pass, NULL),
			 0);
	ck_assert_uint_eq(run_source(&nic, sock), 0);
	ck_assert_uint_eq(nic.stack_packets, PACKETS);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), counts,
						QUEUES),
			 QUEUES);
	for (int q = 0; q < QUEUES; q++)
		ck_assert_uint_eq(counts[q], 0);
	/* Back to xskx's own: counting again. */
	ck_assert_int_eq(xskx_sim_port_set_xdp(nic.port, NULL, NULL), 0);
	run_source(&nic, sock);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), counts,
						QUEUES),
			 QUEUES);
	ck_assert_uint_gt(counts[1] + counts[2] + counts[3], 0);
	nic_close(&nic, sock);
	xskx_set_log(NULL, NULL);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
	uint64_t counts[1];
	struct test_sim_nic nic;
	struct xskx_socket *sock;

	sock = nic_open(&nic, true);
	ck_assert_int_eq(xskx_port_rx_no_socket(NULL, counts, 1), -EINVAL);
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), NULL, 1),
			 -EINVAL);
	/* No array: just the queue count. */
	ck_assert_int_eq(xskx_port_rx_no_socket(test_port(nic.port), NULL, 0),
			 QUEUES);
	nic_close(&nic, sock);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("no_socket");
	TCase *tc = tcase_create("no_socket");

	tcase_add_test(tc, zero_copy_queues_count_what_found_no_socket);
	tcase_add_test(tc, copy_mode_queues_count_what_found_no_socket);
	tcase_add_test(tc, closing_the_socket_names_the_queues);
	tcase_add_test(tc, the_deny_list_counts_what_it_lets_through);
	tcase_add_test(tc, a_hook_of_yours_counts_nothing);
	tcase_add_test(tc, bad_arguments_are_refused);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
