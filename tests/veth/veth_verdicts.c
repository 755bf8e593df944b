// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What xskx's XDP program did, as xskx_xdp_prog_stats() reports it: packets
 * of a queue with a socket are redirected to it, packets of a queue without
 * one pass to the stack (never dropped); and a redirected packet the
 * socket cannot hold shows up in the socket's rx_dropped.
 *
 * (Queues: in generic mode veth records no RX queue on its packets, so they
 * all count as queue 0; only queue 0 is sent to here. In native mode a
 * packet arrives on the RX queue of the peer's TX queue it was sent on, and
 * an AF_XDP socket sends on its own queue: XDP_QUEUES_native steers by that.)
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

#define PKTS_REDIRECTED 200
#define PKTS_PASSED 100
#define WAIT_STEPS 1000

/* Poll the counters until want_passed packets passed, bounded. */
static struct xskx_xdp_verdicts verdicts_when_passed(const char *ifname,
						     uint64_t want_passed)
{
	struct xskx_xdp_verdicts v = { 0 };

	for (int i = 0; i < WAIT_STEPS; i++) {
		ck_assert_msg(xskx_xdp_prog_stats(ifname, &v) == 0, "%s",
			      xskx_last_error());
		if (v.passed >= want_passed)
			break;
		usleep(1000);
	}
	return v;
}

/*
 * Packets from A's queue 0 arrive on B's queue 0. With a socket there they
 * are redirected; once that socket closed (the program stays for B's
 * other socket, on queue 1) they pass.
 */
static void verdicts(enum xskx_xdp_mode mode)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = 2 };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_TX };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_RX };
	struct veth_end rx0, rx1, tx;
	struct xskx_xdp_verdicts v;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	/* Both of B's sockets on one port: one port per interface. */
	rx_opts.port = veth_port_open(PEER_VETH_B, mode);
	ck_assert_msg(rx_opts.port, "%s", xskx_last_error());
	ck_assert_msg(veth_end_open(&rx0, &rx_opts) == 0, "%s",
		      xskx_last_error());
	rx_opts.queue = 1;
	ck_assert_msg(veth_end_open(&rx1, &rx_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_msg(veth_end_open(&tx, &tx_opts) == 0, "%s",
		      xskx_last_error());

	ck_assert_uint_eq(veth_send(&tx, PKTS_REDIRECTED, 64, 0),
			  PKTS_REDIRECTED);
	ck_assert_int_eq(veth_receive(&rx0, PKTS_REDIRECTED, 0, 1000),
			 PKTS_REDIRECTED);
	veth_end_close(&rx0);

	ck_assert_uint_eq(veth_send(&tx, PKTS_PASSED, 64, PKTS_REDIRECTED),
			  PKTS_PASSED);
	v = verdicts_when_passed(PEER_VETH_B, PKTS_PASSED);
	ck_assert_int_eq(veth_receive(&rx1, 1, 0, 50), 0);

	ck_assert_uint_eq(v.redirected, PKTS_REDIRECTED);
	ck_assert_uint_eq(v.passed, PKTS_PASSED);
	ck_assert_uint_eq(v.dropped, 0);
	ck_assert_uint_eq(v.redirect_failed, 0);

	ck_assert_uint_eq(veth_wait_completions(&tx,
						PKTS_REDIRECTED + PKTS_PASSED),
			  PKTS_REDIRECTED + PKTS_PASSED);
	veth_end_close(&tx);
	veth_end_close(&rx1);
	ck_assert_int_eq(xskx_port_close(rx_opts.port), 0);
	/* The last socket took the program with it. */
	ck_assert_int_eq(xskx_xdp_prog_stats(PEER_VETH_B, &v), -ENOENT);
	veth_pair_delete(PEER_VETH_A);
}

/*
 * Native mode on a pair with two queues each: what A's socket on queue q
 * sends arrives on B's queue q, and the program redirects it to B's socket
 * on that queue, never to the other one.
 */
static void queues_native(void)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = 2 };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_TX };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_RX };
	struct veth_end rx[2], tx[2];
	struct xskx_xdp_verdicts v;
	const uint32_t count[2] = { 100, 200 };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	/* Each interface's sockets on its one port. */
	rx_opts.port = veth_port_open(PEER_VETH_B, XSKX_XDP_NATIVE);
	tx_opts.port = veth_port_open(PEER_VETH_A, XSKX_XDP_NATIVE);
	ck_assert_msg(rx_opts.port && tx_opts.port, "%s", xskx_last_error());
	for (uint32_t q = 0; q < 2; q++) {
		rx_opts.queue = tx_opts.queue = q;
		ck_assert_msg(veth_end_open(&rx[q], &rx_opts) == 0, "%s",
			      xskx_last_error());
		ck_assert_msg(veth_end_open(&tx[q], &tx_opts) == 0, "%s",
			      xskx_last_error());
	}

	/* Queue 1 first: nothing may reach queue 0's socket meanwhile. */
	ck_assert_uint_eq(veth_send(&tx[1], count[1], 64, 0), count[1]);
	ck_assert_int_eq(veth_receive(&rx[1], count[1], 0, 1000), count[1]);
	ck_assert_int_eq(veth_receive(&rx[0], 1, 0, 50), 0);
	ck_assert_uint_eq(veth_send(&tx[0], count[0], 64, 0), count[0]);
	ck_assert_int_eq(veth_receive(&rx[0], count[0], 0, 1000), count[0]);
	ck_assert_int_eq(veth_receive(&rx[1], 1, 0, 50), 0);

	ck_assert_int_eq(xskx_xdp_prog_stats(PEER_VETH_B, &v), 0);
	ck_assert_uint_eq(v.redirected, count[0] + count[1]);
	ck_assert_uint_eq(v.redirect_failed, 0);
	ck_assert_uint_eq(v.passed, 0);
	ck_assert_uint_eq(v.dropped, 0);
	for (uint32_t q = 0; q < 2; q++) {
		ck_assert_uint_eq(veth_wait_completions(&tx[q], count[q]),
				  count[q]);
		veth_end_close(&tx[q]);
		veth_end_close(&rx[q]);
	}
	ck_assert_int_eq(xskx_port_close(rx_opts.port), 0);
	ck_assert_int_eq(xskx_port_close(tx_opts.port), 0);
	veth_pair_delete(PEER_VETH_A);
}

/*
 * The library refuses an MTU its frames cannot hold; raised after the bind,
 * the larger packets are redirected and then dropped by the socket, counted
 * in rx_dropped (the kernel selftests' STAT_RX_DROPPED on veth).
 */
static void rx_dropped_after_mtu_raise(enum xskx_xdp_mode mode)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_TX,
					 .frame_size = 2048 };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_RX };
	const uint32_t big = 2500, count = 64;
	struct xskx_xdp_verdicts v;
	struct xskx_stats stats = { 0 };
	struct veth_end rx, tx;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(veth_end_open(&rx, &rx_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_msg(veth_end_open(&tx, &tx_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_int_eq(veth_link_set_mtu(PEER_VETH_A, 3000), 0);
	ck_assert_int_eq(veth_link_set_mtu(PEER_VETH_B, 3000), 0);

	ck_assert_uint_eq(veth_send(&tx, count, big, 0), count);
	ck_assert_uint_eq(veth_wait_completions(&tx, count), count);
	for (int i = 0; i < WAIT_STEPS && stats.rx_dropped < count; i++) {
		ck_assert_int_eq(xskx_socket_stats(rx.sock, &stats), 0);
		usleep(1000);
	}
	ck_assert_uint_eq(stats.rx_dropped, count);
	ck_assert_int_eq(veth_receive(&rx, 1, 0, 50), 0);
	ck_assert_int_eq(xskx_xdp_prog_stats(PEER_VETH_B, &v), 0);
	ck_assert_uint_eq(v.redirected, count);

	veth_end_close(&tx);
	veth_end_close(&rx);
	veth_pair_delete(PEER_VETH_A);
}

/* Another process's receiver on B's queue 3, which attaches the program. */
static void hold_queue_3(uint32_t arg, int cmd, int report)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .queue = 3,
				   .mode = XSKX_XDP_NATIVE,
				   .flags = XSKX_SOCKET_NO_TX };
	struct veth_end end;
	char ok = veth_end_open(&end, &o) ? 'n' : 'y';

	(void)arg;
	if (write(report, &ok, 1) != 1 || ok != 'y')
		_exit(1);
	for (int i = 0; i < 60000; i++)
		if (veth_child_read(cmd, 1) == 'q') {
			veth_end_close(&end);
			_exit(write(report, "d", 1) == 1 ? 0 : 1);
		}
	_exit(2);
}

/*
 * Send count packets on end, the first half from this process's first
 * allowed CPU and the rest from its second (from the first alone on one
 * CPU). veth runs the receiving end's XDP program on the sending CPU, so
 * the program's per-CPU counts are spread over two CPUs, as a NIC's queue
 * spreads them when its interrupt moves: only their sum is the queue's.
 */
static void send_from_two_cpus(struct veth_end *end, uint32_t count)
{
	cpu_set_t allowed, one;
	int cpu[2] = { -1, -1 }, n = 0;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpu[n++] = c;
	for (int i = 0; i < 2; i++) {
		uint32_t from = i ? count / 2 : 0, to = i ? count : count / 2;

		CPU_ZERO(&one);
		CPU_SET(cpu[i < n ? i : 0], &one);
		ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
		ck_assert_uint_eq(veth_send(end, to - from, 64, from),
				  to - from);
		ck_assert_uint_eq(veth_wait_completions(end, to), to);
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof(allowed), &allowed), 0);
}

/*
 * Native mode on a pair with four queues: A sends on queue 2, where B has
 * no socket (this process's socket is on queue 0, another process's on
 * queue 3, and that process attached the program this one joins). xskx's
 * program passes the packets to the stack and counts them for queue 2 on
 * the two CPUs they came on, the port reports their sum there, and the
 * library says once which queue and what to do.
 */
static void queue_without_socket(void)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = 4 };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_TX };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_RX };
	const uint32_t count = 100;
	struct xskx_port_info info;
	struct veth_end rx, tx[2];
	uint64_t counts[4] = { 0 };
	struct veth_child holder;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(veth_child_start(&holder, hold_queue_3, 0, 5000) == 0,
		      "the receiver on queue 3 could not open");
	ck_assert_msg(veth_end_open(&rx, &rx_opts) == 0, "%s",
		      xskx_last_error());
	tx_opts.port = veth_port_open(PEER_VETH_A, XSKX_XDP_NATIVE);
	ck_assert_msg(tx_opts.port, "%s", xskx_last_error());
	tx_opts.queue = 2;
	ck_assert_msg(veth_end_open(&tx[0], &tx_opts) == 0, "%s",
		      xskx_last_error());
	tx_opts.queue = 0;
	ck_assert_msg(veth_end_open(&tx[1], &tx_opts) == 0, "%s",
		      xskx_last_error());

	test_log_capture();
	send_from_two_cpus(&tx[0], count);
	for (int i = 0; i < WAIT_STEPS && counts[2] != count; i++) {
		/* Every entry written, the empty queues' as 0. */
		memset(counts, 0xff, sizeof(counts));
		ck_assert_msg(xskx_port_rx_no_socket(rx.port, counts, 4) == 4,
			      "%s", xskx_last_error());
		usleep(1000);
	}
	ck_assert_uint_eq(counts[2], count);
	ck_assert_uint_eq(counts[0] + counts[1] + counts[3], 0);
	ck_assert_int_eq(veth_receive(&rx, 1, 0, 50), 0);
	ck_assert_uint_eq(test_log_count(), 1);
	ck_assert_msg(strstr(test_log_last(), "queue 2 (100 packets)") &&
			      strstr(test_log_last(), "ethtool -L " PEER_VETH_B) &&
			      strstr(test_log_last(), "ethtool -X " PEER_VETH_B) &&
			      strstr(test_log_last(), "ethtool -N " PEER_VETH_B),
		      "message: %s", test_log_last());

	/* Queue 0's socket still gets its own; the count stays, said once. */
	ck_assert_uint_eq(veth_send(&tx[1], count, 64, 0), count);
	ck_assert_int_eq(veth_receive(&rx, count, 0, 1000), count);
	ck_assert_int_eq(xskx_port_info(rx.port, &info), 0);
	ck_assert_uint_eq(info.rx_no_socket, count);
	ck_assert_uint_eq(test_log_count(), 1);
	xskx_set_log(NULL, NULL);

	for (int i = 0; i < 2; i++)
		veth_end_close(&tx[i]);
	veth_end_close(&rx);
	veth_child_stop(&holder, 5000);
	/* No receiving socket, no program of this port's: nothing to read. */
	ck_assert_int_eq(xskx_port_close(tx_opts.port), 0);
	veth_pair_delete(PEER_VETH_A);
}

START_TEST(queue_without_socket_native)
{
	queue_without_socket();
}
END_TEST

START_TEST(verdicts_generic)
{
	verdicts(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(verdicts_native)
{
	verdicts(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(queues_native_case)
{
	queues_native();
}
END_TEST

START_TEST(rx_dropped_generic)
{
	rx_dropped_after_mtu_raise(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(rx_dropped_native)
{
	rx_dropped_after_mtu_raise(XSKX_XDP_NATIVE);
}
END_TEST

void add_verdict_cases(Suite *suite)
{
	veth_add_case(suite, "XDP_VERDICTS_generic", verdicts_generic);
	veth_add_case(suite, "XDP_VERDICTS_native", verdicts_native);
	veth_add_case(suite, "XDP_QUEUES_native", queues_native_case);
	veth_add_case(suite, "QUEUE_WITHOUT_SOCKET_native",
		      queue_without_socket_native);
	veth_add_case(suite, "STAT_RX_DROPPED_MTU_RAISED_generic",
		      rx_dropped_generic);
	veth_add_case(suite, "STAT_RX_DROPPED_MTU_RAISED_native",
		      rx_dropped_native);
}
