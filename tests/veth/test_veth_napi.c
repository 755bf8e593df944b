// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A queue's NAPI settings (lib/kernel/napi.h) on veth, read back over the
 * netdev netlink family: a socket opened on a port with XSKX_PORT_NAPI
 * applies them to its queue's NAPI and closing it restores what it found;
 * bad settings or a queue without a NAPI are refused, naming the culprit;
 * the wakeup the
 * library advises follows the NAPI thread. Linked with
 * the library's internals, to read the NAPI as the library finds it.
 *
 * veth has a NAPI per RX queue only while a native XDP program is
 * attached: a second socket, on queue 1, keeps the program (and queue 0's
 * NAPI) there when the first one closes.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xskx/xskx.h>

#include "helpers.h"
#include "kernel/napi.h"
#include "netns.h"

#define DEV "xskxn0"
#define PEER "xskxn1"

static struct xskx_port *open_port(const char *ifname,
				   const struct xskx_port_opts *po)
{
	struct xskx_port *port;

	ck_assert_msg(xskx_port_open(&port, ifname, po) == 0, "%s: %s", ifname,
		      xskx_last_error());
	return port;
}

static struct xskx_socket *open_rx(struct xskx_port *port,
				   struct xskx_umem *umem, uint32_t queue)
{
	XSKX_OPTS(xskx_socket_opts, o, .port = port, .queue_id = queue,
		  .flags = XSKX_SOCKET_NO_TX);
	struct xskx_socket *sock;

	ck_assert_msg(xskx_socket_open(&sock, umem, &o) == 0, "queue %u: %s",
		      queue, xskx_last_error());
	return sock;
}

/* How often a thread has gone to sleep (/proc/PID/status). */
static unsigned long sleeps_of(pid_t pid)
{
	char path[64], line[128];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %lu", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * One packet from the other end's queue 0, which veth delivers to this
 * end's queue 0, received on rx.
 */
static void one_packet_to_queue0(struct xskx_socket *rx)
{
	XSKX_OPTS(xskx_socket_opts, o, .flags = XSKX_SOCKET_NO_RX);
	struct xskx_port *port = open_port(DEV, NULL);
	struct xskx_umem *umem;
	struct xskx_socket *tx;
	struct xskx_pkt pkt = { .len = 64 };
	uint8_t *data;
	int got = 0;

	/* FILL first: the receiver's first burst posts its frames. */
	ck_assert_int_eq(xskx_rx_burst(rx, NULL, 0), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, NULL), 0);
	o.port = port;
	ck_assert_msg(xskx_socket_open(&tx, umem, &o) == 0, "%s",
		      xskx_last_error());
	ck_assert_uint_eq(xskx_frame_alloc(umem, &pkt.addr, 1), 1);
	pkt.addr = xskx_umem_tx_addr(umem, pkt.addr);
	data = xskx_umem_addr_data(xskx_umem_area(umem), pkt.addr);
	memset(data, 0, pkt.len);
	memcpy(data, (const uint8_t[]){ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 },
	       12);
	ck_assert_int_eq(xskx_tx_burst(tx, &pkt, 1), 1);
	for (int i = 0; i < 1000 && got == 0; i++) {
		struct xskx_pkt in;

		got = xskx_rx_burst(rx, &in, 1);
		ck_assert_int_ge(got, 0);
		if (got)
			ck_assert_int_eq(xskx_rx_release(rx, &in, 1), 0);
		else
			ck_assert_int_ge(xskx_socket_poll(rx, POLLIN, 1), 0);
	}
	ck_assert_int_eq(got, 1);
	while (xskx_tx_reclaim(tx) == 0 &&
	       xskx_socket_poll(tx, POLLOUT, 1) >= 0)
		;
	ck_assert_int_eq(xskx_socket_close(tx), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(port), 0);
}

static void pair_up(struct xskx_umem **umem0, struct xskx_umem **umem1)
{
	struct veth_pair_opts pair = { .name = DEV, .peer = PEER, .queues = 2 };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(xskx_umem_create(umem0, NULL), 0);
	ck_assert_int_eq(xskx_umem_create(umem1, NULL), 0);
}

static void queue0_napi(struct xskx_napi *napi)
{
	int err = xskx__napi_find((int)if_nametoindex(PEER), 0, 2, napi);

	ck_assert_msg(err == 0, "finding queue 0's NAPI: %s",
		      xskx_strerror(err));
}

START_TEST(napi_applied_and_restored)
{
	/* napi-set takes threaded since 6.17. */
	bool threaded = test_kernel_at_least(6, 17);
	XSKX_OPTS(xskx_port_opts, po, .flags = XSKX_PORT_NAPI,
		  .napi_defer_hard_irqs = 7,
		  .napi_gro_flush_timeout_ns = 123000,
		  .napi_irq_suspend_timeout_ns = 456000,
		  .napi_threaded = threaded ? XSKX_NAPI_THREADED_ON :
					      XSKX_NAPI_THREADED_KEEP);
	struct xskx_umem *umem0, *umem1;
	struct xskx_socket *keeper, *sock;
	struct xskx_napi before, during, after;
	struct xskx_port *port;

	pair_up(&umem0, &umem1);
	port = open_port(PEER, &po);
	/* It keeps the program, hence queue 0's NAPI, when sock closes. */
	keeper = open_rx(port, umem1, 1);
	queue0_napi(&before);
	sock = open_rx(port, umem0, 0);

	queue0_napi(&during);
	ck_assert_uint_eq(during.id, before.id);
	ck_assert_uint_eq(during.found.defer_hard_irqs, 7);
	ck_assert_uint_eq(during.found.gro_flush_timeout_ns, 123000);
	ck_assert_uint_eq(during.found.irq_suspend_timeout_ns, 456000);
	if (threaded) {
		unsigned long sleeps;

		ck_assert_int_eq(during.found.threaded, 1);
		ck_assert_int_gt(during.thread, 0);
		/*
		 * The NAPI found is the one that serves the queue: its thread
		 * wakes for a packet to queue 0 (veth marks the socket with
		 * no NAPI id, so SO_INCOMING_NAPI_ID cannot tell).
		 */
		sleeps = sleeps_of(during.thread);
		one_packet_to_queue0(sock);
		ck_assert_uint_gt(sleeps_of(during.thread), sleeps);
	}

	ck_assert_int_eq(xskx_socket_close(sock), 0);
	queue0_napi(&after);
	ck_assert_uint_eq(after.found.defer_hard_irqs,
			  before.found.defer_hard_irqs);
	ck_assert_uint_eq(after.found.gro_flush_timeout_ns,
			  before.found.gro_flush_timeout_ns);
	ck_assert_uint_eq(after.found.irq_suspend_timeout_ns,
			  before.found.irq_suspend_timeout_ns);
	ck_assert_int_eq(after.found.threaded, before.found.threaded);
	ck_assert_int_eq(after.thread, before.thread);

	ck_assert_int_eq(xskx_socket_close(keeper), 0);
	ck_assert_int_eq(xskx_port_close(port), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem0), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem1), 0);
	veth_pair_delete(DEV);
}
END_TEST

/* Settings the port refuses with err and a message that contains what. */
static void port_refused(const struct xskx_port_opts *po, int err,
			 const char *what)
{
	struct xskx_port *port = NULL;

	ck_assert_int_eq(xskx_port_open(&port, PEER, po), err);
	ck_assert_msg(strstr(xskx_last_error(), what), "'%s'",
		      xskx_last_error());
}

START_TEST(napi_refused)
{
	XSKX_OPTS(xskx_port_opts, po, .flags = XSKX_PORT_NAPI,
		  .napi_threaded = (enum xskx_napi_threaded)3);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_TX);
	struct xskx_umem *umem0, *umem1;
	struct xskx_socket *sock = NULL;

	pair_up(&umem0, &umem1);
	port_refused(&po, -EINVAL, "napi_threaded 3");
	po.napi_threaded = XSKX_NAPI_THREADED_KEEP;
	po.napi_defer_hard_irqs = 1u << 31;
	port_refused(&po, -EINVAL, "napi_defer_hard_irqs");
	/* Generic XDP: veth registers no NAPI. */
	po.napi_defer_hard_irqs = 2;
	po.xdp_mode = XSKX_XDP_GENERIC;
	so.port = open_port(PEER, &po);
	ck_assert_int_eq(xskx_socket_open(&sock, umem0, &so), -ENOENT);
	ck_assert_msg(strstr(xskx_last_error(), "XSKX_XDP_NATIVE"), "'%s'",
		      xskx_last_error());
	ck_assert_int_eq(xskx_port_close(so.port), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem0), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem1), 0);
	veth_pair_delete(DEV);
}
END_TEST

static cpu_set_t one_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return set;
}

static enum xskx_wakeup choice(struct xskx_socket *sock)
{
	enum xskx_wakeup mode;

	ck_assert_msg(xskx_socket_choose_wakeup(sock, &mode, NULL) == 0, "%s",
		      xskx_last_error());
	return mode;
}

/*
 * xskx_socket_choose_wakeup() on a real NAPI thread: poll while the thread
 * may run on this thread's CPU, a busy loop once it is moved to another
 * one, and a busy loop on a queue whose NAPI is not threaded.
 */
START_TEST(wakeup_follows_napi_thread)
{
	XSKX_OPTS(xskx_port_opts, po, .flags = XSKX_PORT_NAPI,
		  .napi_threaded = XSKX_NAPI_THREADED_ON);
	struct xskx_umem *umem0, *umem1;
	struct xskx_socket *threaded, *softirq;
	struct xskx_port *peer, *dev;
	struct xskx_napi napi;
	cpu_set_t cpu0 = one_cpu(0), cpu1 = one_cpu(1);

	if (!test_kernel_at_least(6, 17))
		test_skip("napi-set takes threaded since kernel 6.17");
	unsetenv("XSKX_WAKEUP");
	pair_up(&umem0, &umem1);
	/* The other end's queue, as veth made it: softirq. */
	dev = open_port(DEV, NULL);
	softirq = open_rx(dev, umem1, 1);
	peer = open_port(PEER, &po);
	threaded = open_rx(peer, umem0, 0);
	queue0_napi(&napi);
	ck_assert_int_gt(napi.thread, 0);

	ck_assert_int_eq(sched_setaffinity(0, sizeof(cpu0), &cpu0), 0);
	ck_assert_int_eq(sched_setaffinity(napi.thread, sizeof(cpu0), &cpu0),
			 0);
	ck_assert_int_eq(choice(threaded), XSKX_WAKEUP_POLL);
	ck_assert_int_eq(choice(softirq), XSKX_WAKEUP_BUSY_LOOP);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		ck_assert_int_eq(
			sched_setaffinity(napi.thread, sizeof(cpu1), &cpu1), 0);
		ck_assert_int_eq(choice(threaded), XSKX_WAKEUP_BUSY_LOOP);
	}

	ck_assert_int_eq(xskx_socket_close(threaded), 0);
	ck_assert_int_eq(xskx_socket_close(softirq), 0);
	ck_assert_int_eq(xskx_port_close(peer), 0);
	ck_assert_int_eq(xskx_port_close(dev), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem0), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem1), 0);
	veth_pair_delete(DEV);
}
END_TEST

/* A test case of its own, so that CTest can run it alone by name. */
static void add_case(Suite *suite, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_add_test(tc, test);
	suite_add_tcase(suite, tc);
}

int main(int argc, char **argv)
{
	Suite *suite = suite_create("veth_napi");

	veth_sandbox_enter();
	add_case(suite, "napi_applied_and_restored", napi_applied_and_restored);
	add_case(suite, "napi_refused", napi_refused);
	add_case(suite, "wakeup_follows_napi_thread",
		 wakeup_follows_napi_thread);
	return test_main(suite, argc, argv);
}
