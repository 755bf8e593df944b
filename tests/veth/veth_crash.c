// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A process with a socket bound dies by SIGKILL and leaves its XDP program
 * attached: the next process detects it, replaces it and receives. While
 * that process lives, its program is not taken from it, and its queue is
 * not either (veth_multiproc.c: sharing the program on other queues).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

#define CHILD_WAIT_MS 10000
#define CHILD_LIFETIME_S 30
#define PKTS 256

/* Binds a receiver on B, reports, and waits to be killed (bounded). */
static void child(int report_fd, enum xskx_xdp_mode mode)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = mode,
				   .flags = XSKX_SOCKET_NO_TX };
	struct veth_end end;
	char ok = veth_end_open(&end, &o) == 0 ? 'y' : 'n';

	if (write(report_fd, &ok, 1) != 1 || ok != 'y')
		_exit(1);
	sleep(CHILD_LIFETIME_S);
	_exit(0);
}

static void crash_cleanup(enum xskx_xdp_mode mode)
{
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_TX };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_RX };
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end rx, tx;
	struct pollfd pfd;
	char pid_text[32];
	uint32_t stale_id;
	int fds[2], err, status;
	char ok = 'n';
	pid_t pid;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], mode);
	}
	close(fds[1]);
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	if (poll(&pfd, 1, CHILD_WAIT_MS) == 1 && read(fds[0], &ok, 1) != 1)
		ok = 'n';
	close(fds[0]);
	if (ok != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ck_abort_msg("the child could not bind a socket on %s",
			     PEER_VETH_B);
	}

	/* Alive: its queue is refused naming it, and its program stays. */
	err = veth_end_open(&rx, &rx_opts);
	snprintf(pid_text, sizeof(pid_text), "process %d", (int)pid);
	ck_assert_msg(err == -EBUSY,
		      "while the owner lives: expected EBUSY, got %s (%s)",
		      xskx_strerror(err), xskx_last_error());
	ck_assert_msg(strstr(xskx_last_error(), pid_text), "%s",
		      xskx_last_error());

	stale_id = veth_prog_id(PEER_VETH_B);
	ck_assert_uint_ne(stale_id, 0);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), stale_id);

	/* Dead: the next socket replaces the program and receives. */
	err = veth_end_open(&rx, &rx_opts);
	ck_assert_msg(err == 0, "after the crash: %s", xskx_last_error());
	ck_assert_uint_ne(veth_prog_id(PEER_VETH_B), stale_id);
	ck_assert_int_eq(veth_end_open(&tx, &tx_opts), 0);
	ck_assert_uint_eq(veth_send(&tx, PKTS, 64, 0), PKTS);
	ck_assert_int_eq(veth_receive(&rx, PKTS, 0, 1000), PKTS);
	ck_assert_uint_eq(veth_wait_completions(&tx, PKTS), PKTS);
	veth_end_close(&tx);
	veth_end_close(&rx);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	veth_pair_delete(PEER_VETH_A);
}

START_TEST(crash_cleanup_generic)
{
	crash_cleanup(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(crash_cleanup_native)
{
	crash_cleanup(XSKX_XDP_NATIVE);
}
END_TEST

void add_crash_cases(Suite *suite)
{
	veth_add_case(suite, "CRASH_CLEANUP_generic", crash_cleanup_generic);
	veth_add_case(suite, "CRASH_CLEANUP_native", crash_cleanup_native);
}
