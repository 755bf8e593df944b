// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The programs' loss accounting (examples/common/loss.c, which xskx-bench,
 * xskx-l2fwd and xskx-fw all print and write as JSON) names the queues
 * where packets found no socket: a simulated port with four queues and a
 * socket on queue 0, a source spread over all four by RSS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "json.h"
#include "loss.h"

enum {
	QUEUES = 4,
	PACKETS = 512,
	BURST = 64
};

/* PACKETS packets spread over the queues, queue 0's read: how many. */
static uint64_t run_source(struct xskx_sim *sim, struct xskx_sim_port *port,
			   struct xskx_socket *sock)
{
	XSKX_OPTS(xskx_sim_source_opts, source, .count = PACKETS, .flows = 64);
	struct xskx_pkt pkts[BURST];
	uint64_t got = 0;

	ck_assert_int_eq(xskx_sim_port_add_source(port, &source), 0);
	for (int turn = 0; turn < 10000; turn++) {
		int n;

		ck_assert_int_ge(xskx_sim_poll(sim), 0);
		n = xskx_rx_burst(sock, pkts, BURST);
		ck_assert_int_ge(n, 0);
		xskx_rx_release(sock, pkts, (uint32_t)n);
		got += (uint64_t)n;
		if (!n && !xskx_sim_sources_active(sim))
			break;
	}
	return got;
}

START_TEST(losses_name_the_queues_without_a_socket)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "lossq",
		  .queues = QUEUES);
	struct xskx_sim_port *sim_port;
	struct xskx_pkt pkts[1];
	struct loss_sock sock_counts = { 0 };
	struct xskx_socket *sock;
	struct loss_port lp;
	struct xskx_umem *umem;
	struct xskx_sim *sim;
	uint64_t got = 0, unserved = 0;
	struct json j;
	struct loss l;
	char *out = NULL;
	size_t out_size = 0;
	FILE *f;

	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &sim_port), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, NULL), 0);
	{
		XSKX_OPTS(xskx_socket_opts, so, .port = test_port(sim_port),
			  .flags = XSKX_SOCKET_NO_TX);

		ck_assert_msg(!xskx_socket_open(&sock, umem, &so), "%s",
			      xskx_last_error());
	}
	ck_assert_int_eq(xskx_rx_burst(sock, pkts, 1), 0);
	/* Counted before the baseline: not this run's. */
	run_source(sim, sim_port, sock);
	loss_port_begin(&lp, NULL, sim_port, test_port(sim_port));
	got = run_source(sim, sim_port, sock);
	ck_assert_int_eq(loss_sock_publish(&sock_counts, sock), 0);
	loss_port_read(&lp, &sock_counts, 0, &l);
	ck_assert_uint_eq(l.no_socket[0], 0);
	for (int q = 1; q < QUEUES; q++) {
		ck_assert_uint_gt(l.no_socket[q], 0);
		unserved += l.no_socket[q];
	}
	/*
	 * With the socket's, every packet of this run; part of xdp_passed,
	 * which on the simulated NIC counts from the port's creation.
	 */
	ck_assert_uint_eq(got + unserved, PACKETS);
	ck_assert_uint_ge(l.xdp_passed, unserved);

	f = open_memstream(&out, &out_size);
	ck_assert_ptr_nonnull(f);
	loss_print_text(f, &l, 0);
	fputc('\n', f);
	json_begin(&j, f, "test", "summary");
	loss_json(&j, "loss", &l);
	json_end(&j);
	fclose(f);
	ck_assert_msg(strstr(out, "; no socket on queue 1: ") &&
			      strstr(out, ", queue 3: ") &&
			      !strstr(out, "queue 0:"),
		      "text: %s", out);
	ck_assert_msg(strstr(out, "\"no_socket\": [") &&
			      strstr(out, "\"queue\": 2,"),
		      "JSON: %s", out);
	free(out);

	ck_assert_int_eq(xskx_socket_close(sock), 0);
	test_sim_teardown(sim, umem);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("loss_no_socket");
	TCase *tc = tcase_create("losses_name_the_queues_without_a_socket");

	tcase_add_test(tc, losses_name_the_queues_without_a_socket);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
