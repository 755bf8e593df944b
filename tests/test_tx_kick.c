// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Coalesced TX wakeups (xskx_socket_opts.tx_kick_batch, tx_kick_usec) on a
 * copy-mode port of the simulated NIC, where, as in the kernel's copy mode,
 * packets leave only inside a wakeup: no wakeup until tx_kick_batch
 * packets wait, a call that queues none (or a full ring, or
 * xskx_tx_reclaim()) flushes what waits, with tx_kick_usec the first
 * packet's wait decides instead, and every packet leaves in the end. The
 * oracle is the port's sink and the socket's tx_kicks.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "helpers.h"

#define FRAMES 256u
#define PKT_LEN 60u
#define TX_SIZE 64u

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint64_t wire; /* packets the port transmitted */
};

static int rig_open(struct rig *rig, uint32_t kick_batch, uint32_t kick_usec)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "k0",
		  .no_zero_copy = true);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = XSKX_SOCKET_NO_RX,
		  .tx_size = TX_SIZE, .tx_kick_batch = kick_batch,
		  .tx_kick_usec = kick_usec);

	memset(rig, 0, sizeof(*rig));
	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, &port_opts, &rig->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->port, test_sink_count,
						 &rig->wire), 0);
	ck_assert_int_eq(xskx_umem_create(&rig->umem, &umem_opts), 0);
	sock_opts.port = test_port(rig->port);
	return xskx_socket_open(&rig->sock, rig->umem, &sock_opts);
}

static void rig_destroy(struct rig *rig)
{
	if (rig->sock) {
		xskx_tx_reclaim(rig->sock);
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(rig->sock);
		ck_assert_int_eq(xskx_socket_close(rig->sock), 0);
	}
	test_sim_teardown(rig->sim, rig->umem);
	xskx_set_log(NULL, NULL);
}

static uint64_t kicks(struct rig *rig)
{
	struct xskx_stats st;

	ck_assert_int_eq(xskx_socket_stats(rig->sock, &st), 0);
	return st.tx_kicks;
}

/* Send n packets in one burst of the TX API; returns the packets taken. */
static int send_n(struct rig *rig, uint32_t n)
{
	struct xskx_pkt pkts[TX_SIZE];
	uint64_t frames[TX_SIZE];
	int sent;

	ck_assert_uint_le(n, TX_SIZE);
	ck_assert_uint_eq(xskx_frame_alloc(rig->umem, frames, n), n);
	for (uint32_t i = 0; i < n; i++)
		pkts[i] = (struct xskx_pkt){
			.addr = xskx_umem_tx_addr(rig->umem, frames[i]),
			.len = PKT_LEN,
		};
	sent = xskx_tx_burst(rig->sock, pkts, n);
	ck_assert_int_eq(sent, (int)n);
	return sent;
}

static void sleep_us(long us)
{
	struct timespec ts = { .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

START_TEST(no_batch_kicks_every_burst)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 0, 0), 0);
	send_n(&rig, 3);
	send_n(&rig, 2);
	ck_assert_uint_eq(kicks(&rig), 2);
	ck_assert_uint_eq(rig.wire, 5);
	rig_destroy(&rig);
}
END_TEST

START_TEST(batch_waits_for_n_then_an_idle_call_flushes)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 16, 0), 0);
	send_n(&rig, 4);
	send_n(&rig, 8);
	ck_assert_uint_eq(kicks(&rig), 0);
	ck_assert_uint_eq(rig.wire, 0);
	/* 16 wait: one wakeup sends them all. */
	send_n(&rig, 4);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_uint_eq(rig.wire, 16);
	/* Nothing waits: a call that queues none wakes nobody. */
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
	ck_assert_uint_eq(kicks(&rig), 1);
	/* 3 wait: the next call that queues none sends them. */
	send_n(&rig, 3);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
	ck_assert_uint_eq(kicks(&rig), 2);
	ck_assert_uint_eq(rig.wire, 19);
	rig_destroy(&rig);
}
END_TEST

/* A full ring wakes the peer whatever the batch. */
START_TEST(full_ring_kicks)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, TX_SIZE, 1000000), 0);
	send_n(&rig, TX_SIZE / 2);
	ck_assert_uint_eq(kicks(&rig), 0);
	send_n(&rig, TX_SIZE / 2);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_uint_eq(rig.wire, TX_SIZE);
	rig_destroy(&rig);
}
END_TEST

/* With tx_kick_usec, the first packet's wait decides, not an idle call. */
START_TEST(usec_holds_an_idle_call)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 16, XSKX_TX_KICK_USEC_MAX), 0);
	send_n(&rig, 3);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
	ck_assert_uint_eq(kicks(&rig), 0);
	ck_assert_uint_eq(rig.wire, 0);
	rig_destroy(&rig);
}
END_TEST

START_TEST(usec_bounds_the_wait)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 16, 20000), 0);
	send_n(&rig, 3);
	sleep_us(30000);
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_uint_eq(rig.wire, 3);
	/* The wait starts again with the next packets. */
	send_n(&rig, 2);
	sleep_us(30000);
	send_n(&rig, 1);
	ck_assert_uint_eq(kicks(&rig), 2);
	ck_assert_uint_eq(rig.wire, 6);
	rig_destroy(&rig);
}
END_TEST

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * tx_kick_usec is microseconds: no wakeup before that long after the first
 * packet was queued, however often the application calls (a lower bound,
 * read on the library's clock, CLOCK_MONOTONIC, from before the packet was
 * queued: no load can make it fail), and the first call after it wakes
 * the peer.
 */
START_TEST(usec_is_microseconds)
{
	const uint64_t wait_us = 100000;
	uint64_t start, elapsed = 0;
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 16, (uint32_t)wait_us), 0);
	start = mono_us();
	send_n(&rig, 3);
	for (int i = 0; i < 1000 && elapsed <= wait_us; i++) {
		ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
		elapsed = mono_us() - start;
		ck_assert_msg(kicks(&rig) == 0 || elapsed >= wait_us,
			      "woke the peer %llu us after the first packet, before tx_kick_usec's %llu",
			      (unsigned long long)elapsed,
			      (unsigned long long)wait_us);
		sleep_us(1000);
	}
	if (elapsed <= wait_us)
		sleep_us((long)(wait_us + 1 - elapsed));
	ck_assert_int_eq(xskx_tx_burst(rig.sock, NULL, 0), 0);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_uint_eq(rig.wire, 3);
	rig_destroy(&rig);
}
END_TEST

/* xskx_tx_reclaim() sends what waits, on the batch API too. */
START_TEST(reclaim_flushes_a_tx_batch)
{
	struct xskx_tx_batch b;
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 32, 0), 0);
	ck_assert_int_eq(xskx_tx_reserve(rig.sock, &b, 5, PKT_LEN), 5);
	ck_assert_int_eq(xskx_tx_submit(rig.sock, &b, 5), 5);
	ck_assert_uint_eq(kicks(&rig), 0);
	ck_assert_uint_eq(rig.wire, 0);
	xskx_tx_reclaim(rig.sock);
	ck_assert_uint_eq(kicks(&rig), 1);
	ck_assert_uint_eq(rig.wire, 5);
	rig_destroy(&rig);
}
END_TEST

START_TEST(bad_settings_refused)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, TX_SIZE + 1, 0), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "tx_kick_batch 65"));
	rig_destroy(&rig);
	ck_assert_int_eq(rig_open(&rig, 0, 50), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "only with tx_kick_batch"));
	rig_destroy(&rig);
	ck_assert_int_eq(rig_open(&rig, 8, XSKX_TX_KICK_USEC_MAX + 1), -EINVAL);
	rig_destroy(&rig);
}
END_TEST

/* xskx_socket_poll() wakes a waiting TX, as poll(2) on the socket does. */
START_TEST(poll_flushes)
{
	struct rig rig;

	ck_assert_int_eq(rig_open(&rig, 32, 0), 0);
	send_n(&rig, 3);
	ck_assert_uint_eq(rig.wire, 0);
	ck_assert_int_ge(xskx_socket_poll(rig.sock, POLLOUT, 0), 0);
	ck_assert_uint_eq(rig.wire, 3);
	rig_destroy(&rig);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("tx_kick");
	TCase *tc = tcase_create("tx_kick");

	tcase_add_test(tc, no_batch_kicks_every_burst);
	tcase_add_test(tc, batch_waits_for_n_then_an_idle_call_flushes);
	tcase_add_test(tc, full_ring_kicks);
	tcase_add_test(tc, usec_holds_an_idle_call);
	tcase_add_test(tc, usec_bounds_the_wait);
	tcase_add_test(tc, usec_is_microseconds);
	tcase_add_test(tc, reclaim_flushes_a_tx_batch);
	tcase_add_test(tc, poll_flushes);
	tcase_add_test(tc, bad_settings_refused);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
