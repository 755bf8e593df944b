// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * File descriptors handed over a Unix socket (issue 20, xskx/handover.h):
 *
 *   HANDOVER_SHARED_native  xskx-node-agent serves both queues of a
 *                           two-queue veth end; two xskx_handover_peer
 *                           processes, user nobody with no capability at
 *                           all, each take one queue's socket of the same
 *                           UMEM and forward what this process sends them
 *                           on the other end back; every packet comes back
 *                           in order on its queue, each peer's frames lie in
 *                           its slice, both map the same memfd, and the
 *                           agent detaches its program on SIGTERM.
 *   HANDOVER_BAD_*          a fake agent answers with a wrong message, one
 *                           fd, three fds (MSG_CTRUNC), a UDP socket for
 *                           the AF_XDP one, an AF_XDP socket used
 *                           already, or hangs up; and no agent at all:
 *                           each a negative errno and a message naming
 *                           the cause, no fd left open.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "unpriv_spawn.h"
#include "veth_io.h"

#define COUNT 200

static char dir[] = "/tmp/xskx-handover-XXXXXX";
static char path[128];

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/agent.sock", dir);
}

static void remove_dir(void)
{
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* The peer, user nobody with no capability at all. */
static pid_t start_peer(uint32_t queue, int *out)
{
	char q[16], count[16];
	char *argv[] = { XSKX_HANDOVER_PEER, path, q, count, NULL };

	snprintf(q, sizeof(q), "%u", queue);
	snprintf(count, sizeof(count), "%d", COUNT);
	return unpriv_start_as_nobody(NULL, argv, out);
}

/* The agent at path refuses queue with err and a reason naming word. */
static void expect_refused(uint32_t queue, int err, const char *word)
{
	struct xskx_handover *ho = NULL;
	int got = xskx_handover_receive(&ho, path, queue, 0);

	ck_assert_msg(got == err && strstr(xskx_last_error(), word),
		      "queue %u: %d, wanted %d naming '%s': %s", queue, got,
		      err, word, xskx_last_error());
	ck_assert_ptr_null(ho);
}

START_TEST(shared_umem)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = 2 };
	char *agent_argv[] = {
		XSKX_NODE_AGENT, "-i", PEER_VETH_B, "-q", "2", "-s", path, "-f",
		"1024",		 NULL
	};
	struct xskx_handover *ho;
	struct xskx_port *port;
	struct veth_end a[2];
	char line[128];
	unsigned long inode[2];
	uint32_t first[2], count[2];
	pid_t agent, peer[2];
	int agent_out, out[2];
	uint32_t done;

	unpriv_need_setpriv();
	ck_assert_int_eq(veth_pair_create(&pair), 0);
	make_dir();
	agent = unpriv_start(agent_argv, &agent_out);
	unpriv_read_line(agent_out, line, sizeof(line));
	ck_assert_msg(!strcmp(line, "ready"),
		      "xskx-node-agent did not start (%s): see its stderr",
		      line);

	port = veth_port_open(PEER_VETH_A, XSKX_XDP_NATIVE);
	ck_assert_msg(port, "%s", xskx_last_error());
	for (uint32_t q = 0; q < 2; q++) {
		struct veth_end_opts o = { .port = port,
					   .ifname = PEER_VETH_A,
					   .queue = q,
					   .mode = XSKX_XDP_NATIVE };

		ck_assert_msg(veth_end_open(&a[q], &o) == 0, "%s",
			      xskx_last_error());
	}
	for (uint32_t q = 0; q < 2; q++) {
		peer[q] = start_peer(q, &out[q]);
		unpriv_read_line(out[q], line, sizeof(line));
		ck_assert_msg(
			!strcmp(line, "ready"),
			"the peer on queue %u did not start (%s): see its stderr",
			q, line);
	}
	/* A held queue, and one the agent does not serve, are refused. */
	expect_refused(0, -EBUSY, "another client holds this queue");
	expect_refused(2, -ENOENT, "serves queues 0 to 1");
	for (uint32_t q = 0; q < 2; q++)
		ck_assert_uint_eq(veth_send(&a[q], COUNT, 64, q * COUNT),
				  COUNT);
	/* Each peer stops once it forwarded COUNT, or at its deadline. */
	for (uint32_t q = 0; q < 2; q++) {
		unpriv_read_line(out[q], line, sizeof(line));
		ck_assert_msg(sscanf(line, "done %u %lu %u %u", &done,
				     &inode[q], &first[q], &count[q]) == 4,
			      "peer %u: %s", q, line);
		ck_assert_msg(done == COUNT, "peer %u forwarded %u of %u", q,
			      done, COUNT);
		ck_assert_int_eq(veth_receive(&a[q], COUNT, q * COUNT, 5000),
				 COUNT);
		ck_assert_uint_ne(inode[q], 0);
		ck_assert_int_eq(unpriv_wait_exit(peer[q]), 0);
		close(out[q]);
	}
	/* One UMEM: both peers mapped the same memfd, each its own frames. */
	ck_assert_uint_eq(inode[0], inode[1]);
	ck_assert_msg(first[0] + count[0] <= first[1] ||
			      first[1] + count[1] <= first[0],
		      "the peers' slices overlap: %u+%u and %u+%u", first[0],
		      count[0], first[1], count[1]);

	/*
	 * The peers hung up: queue 1 has a fresh socket for the next client;
	 * queue 0's, the UMEM's first, stays bound under libxdp and is
	 * refused.
	 */
	ck_assert_msg(xskx_handover_receive(&ho, path, 1, 0) == 0, "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_handover_close(ho), 0);
	expect_refused(0, -EBUSY, "could not be replaced");

	for (uint32_t q = 0; q < 2; q++)
		veth_end_close(&a[q]);
	xskx_port_close(port);
	ck_assert_int_eq(kill(agent, SIGTERM), 0);
	ck_assert_int_eq(unpriv_wait_exit(agent), 0);
	close(agent_out);
	/* The agent detached what it attached. */
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	remove_dir();
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

enum fake {
	FAKE_GARBAGE,
	FAKE_ONE_FD,
	FAKE_THREE_FDS,
	FAKE_NOT_XSK,
	FAKE_HANG_UP,
	FAKE_USED_SOCKET,
};

/* FAKE_USED_SOCKET's: an AF_XDP socket this process used already. */
static int used_xsk_fd = -1;

static void send_fds(int conn, const int *fds, int n)
{
	struct xskx_handover_msg m = { .magic = XSKX_HANDOVER_MAGIC,
				       .version = XSKX_HANDOVER_VERSION,
				       .frame_size = 4096,
				       .umem_size = 4096 * 16,
				       .fill_size = XSKX_RING_DEFAULT_SIZE,
				       .comp_size = XSKX_RING_DEFAULT_SIZE,
				       .rx_size = XSKX_RING_DEFAULT_SIZE,
				       .tx_size = XSKX_RING_DEFAULT_SIZE,
				       .frame_count = 16 };
	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} control = { 0 };
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control.buf,
			      .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	if (sendmsg(conn, &msg, MSG_NOSIGNAL) < 0)
		_exit(1);
}

/* One client, answered the fake's way. */
static void serve_fake(int listener, enum fake how)
{
	struct xskx_handover_request req;
	int conn = accept(listener, NULL, NULL);
	int fds[3];

	if (conn < 0 || recv(conn, &req, sizeof(req), 0) != sizeof(req))
		_exit(1);
	fds[0] = memfd_create("fake", 0);
	if (fds[0] < 0 || ftruncate(fds[0], 4096 * 16))
		_exit(1);
	fds[1] = socket(AF_INET, SOCK_DGRAM, 0);
	fds[2] = memfd_create("extra", 0);
	switch (how) {
	case FAKE_GARBAGE:
		send(conn, "/host_ok", 8, 0);
		break;
	case FAKE_ONE_FD:
		send_fds(conn, fds, 1);
		break;
	case FAKE_THREE_FDS:
		send_fds(conn, fds, 3);
		break;
	case FAKE_NOT_XSK:
		send_fds(conn, fds, 2);
		break;
	case FAKE_HANG_UP:
		break;
	case FAKE_USED_SOCKET:
		fds[1] = used_xsk_fd;
		send_fds(conn, fds, 2);
		break;
	}
	close(conn);
	_exit(0);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A fake agent in a child, listening at path, for one client. */
static pid_t start_fake(enum fake how)
{
	int listener;
	pid_t pid;

	make_dir();
	listener = unpriv_listen(path);
	pid = unpriv_fork();
	if (!pid)
		serve_fake(listener, how);
	close(listener);
	return pid;
}

/* What each HANDOVER_BAD_* case's fake agent sends, and what it gives. */
static const struct bad_agent {
	const char *name;
	enum fake how;
	int err;
	const char *word;
} bad_agents[] = {
	{ "HANDOVER_BAD_MESSAGE", FAKE_GARBAGE, -EBADMSG,
	  "not an xskx handover message" },
	{ "HANDOVER_BAD_MISSING_FD", FAKE_ONE_FD, -EPROTO,
	  "sent 1 file descriptors" },
	{ "HANDOVER_BAD_TOO_MANY_FDS", FAKE_THREE_FDS, -EPROTO, "MSG_CTRUNC" },
	{ "HANDOVER_BAD_NOT_XSK", FAKE_NOT_XSK, -EPROTO,
	  "not an AF_XDP socket" },
	{ "HANDOVER_BAD_HANG_UP", FAKE_HANG_UP, -ECONNRESET, "hung up" },
};

START_TEST(bad_agent)
{
	const struct bad_agent *bad = &bad_agents[_i];
	struct xskx_handover *ho = NULL;
	pid_t pid = start_fake(bad->how);
	int before = open_fds(), err;

	err = xskx_handover_receive(&ho, path, 0, 0);
	ck_assert_msg(err == bad->err && strstr(xskx_last_error(), bad->word),
		      "%d, wanted %d naming '%s': %s", err, bad->err, bad->word,
		      xskx_last_error());
	ck_assert_ptr_null(ho);
	/* Every fd received was closed again. */
	ck_assert_int_eq(open_fds(), before);
	ck_assert_int_eq(unpriv_wait_exit(pid), 0);
	remove_dir();
}
END_TEST

/*
 * A socket whose rings were used (FILL posted by its first burst): its
 * frames are unaccounted for in the receiver's pool, so it is refused.
 */
START_TEST(used_socket)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts o = { .ifname = PEER_VETH_A,
				   .mode = XSKX_XDP_NATIVE };
	struct xskx_handover *ho = NULL;
	struct xskx_socket *sock;
	struct veth_end a;
	pid_t pid;
	int err;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(veth_end_open(&a, &o) == 0, "%s", xskx_last_error());
	used_xsk_fd = xskx_socket_fd(a.sock);
	pid = start_fake(FAKE_USED_SOCKET);
	ck_assert_msg(xskx_handover_receive(&ho, path, 0, 0) == 0, "%s",
		      xskx_last_error());
	err = xskx_socket_open_queue(&sock, xskx_handover_port(ho), 0,
				     xskx_handover_umem(ho), NULL);
	ck_assert_msg(err == -EBUSY &&
			      strstr(xskx_last_error(), "has been used before"),
		      "%d: %s", err, xskx_last_error());
	ck_assert_int_eq(xskx_handover_close(ho), 0);
	ck_assert_int_eq(unpriv_wait_exit(pid), 0);
	remove_dir();
	veth_end_close(&a);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

START_TEST(no_agent)
{
	struct xskx_handover *ho = NULL;
	int err;

	/* A socket file left behind by an agent that has gone. */
	make_dir();
	close(unpriv_listen(path));
	err = xskx_handover_receive(&ho, path, 0, 0);
	ck_assert_msg(err == -ECONNREFUSED &&
			      strstr(xskx_last_error(), "is the agent"),
		      "%d: %s", err, xskx_last_error());
	ck_assert_ptr_null(ho);
	remove_dir();
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("handover");

	veth_sandbox_enter();
	unpriv_add_case(s, "HANDOVER_SHARED_native", shared_umem, 0);
	for (int i = 0; i < (int)(sizeof(bad_agents) / sizeof(bad_agents[0]));
	     i++)
		unpriv_add_case(s, bad_agents[i].name, bad_agent, i);
	unpriv_add_case(s, "HANDOVER_BAD_NO_AGENT", no_agent, 0);
	unpriv_add_case(s, "HANDOVER_BAD_USED_SOCKET", used_socket, 0);
	return test_main(s, argc, argv);
}
