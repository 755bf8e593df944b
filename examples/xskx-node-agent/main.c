// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-node-agent: the privileged side of a handover (xskx/handover.h).
 *
 *   xskx-node-agent -i IFNAME -q QUEUES -s SOCKET_PATH [-f FRAMES]
 *
 * Opens a port on IFNAME (xskx attaches its program), creates one UMEM of
 * QUEUES * FRAMES frames in a memfd, one socket per queue on it (the
 * library shares the UMEM across queues: XDP_SHARED_UMEM, each queue with
 * its own FILL/COMPLETION pair), and serves them on a Unix socket: a client
 * asks for a queue and gets the memfd and that queue's socket, with the
 * slice of frames it may use. When the client hangs up, the queue's socket
 * is replaced by a fresh one for the next client (its rings may hold frames
 * nobody accounts for). Prints "ready" once serving; runs until SIGINT or
 * SIGTERM, then closes everything, which detaches the program it attached.
 * The agent never touches the rings: the frames are the clients'.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_xdp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <xskx/xskx.h>

#include "signals.h"

#define MAX_QUEUES 64
#define MAX_CLIENTS 64
#define FRAME_SIZE 4096

struct agent {
	const char *ifname;
	const char *path;
	uint32_t queues;
	uint32_t frames; /* per queue */
	int memfd;
	void *area;
	uint64_t size;
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *socks[MAX_QUEUES];
	int holder[MAX_QUEUES]; /* the client connection holding it, or -1 */
	int listener;
	struct pollfd fds[1 + MAX_CLIENTS];
	nfds_t nfds;
};

static int open_queue(struct agent *a, uint32_t q)
{
	int err =
		xskx_socket_open_queue(&a->socks[q], a->port, q, a->umem, NULL);

	if (err)
		fprintf(stderr, "xskx-node-agent: queue %u: %s\n", q,
			xskx_last_error());
	a->holder[q] = -1;
	return err;
}

static int setup(struct agent *a)
{
	int err;

	a->size = (uint64_t)a->queues * a->frames * FRAME_SIZE;
	a->memfd = memfd_create("xskx-umem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	/*
	 * Sealed against shrinking: a client that truncated the memfd would
	 * make every other client's next touch of a frame a SIGBUS.
	 */
	if (a->memfd < 0 || ftruncate(a->memfd, (off_t)a->size) ||
	    fcntl(a->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL)) {
		perror("xskx-node-agent: memfd");
		return -1;
	}
	a->area = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       a->memfd, 0);
	if (a->area == MAP_FAILED) {
		perror("xskx-node-agent: mmap");
		return -1;
	}
	XSKX_OPTS(xskx_umem_opts, uo, .area = a->area, .size = a->size,
		  .frame_size = FRAME_SIZE);
	err = xskx_port_open(&a->port, a->ifname, NULL);
	if (!err)
		err = xskx_umem_create(&a->umem, &uo);
	for (uint32_t q = 0; !err && q < a->queues; q++)
		err = open_queue(a, q);
	if (err) {
		fprintf(stderr, "xskx-node-agent: %s\n", xskx_last_error());
		return -1;
	}
	return 0;
}

static int listen_at(struct agent *a)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	if (strlen(a->path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "xskx-node-agent: socket path too long\n");
		return -1;
	}
	strcpy(addr.sun_path, a->path);
	unlink(a->path);
	a->listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	/* Unprivileged clients connect: the directory's mode guards it. */
	if (a->listener < 0 ||
	    bind(a->listener, (struct sockaddr *)&addr, sizeof(addr)) ||
	    chmod(a->path, 0666) || listen(a->listener, 8)) {
		perror("xskx-node-agent: listen");
		return -1;
	}
	a->fds[0] = (struct pollfd){ .fd = a->listener, .events = POLLIN };
	a->nfds = 1;
	return 0;
}

static void refuse(int conn, uint32_t queue, int err, const char *reason)
{
	struct xskx_handover_msg m = { .magic = XSKX_HANDOVER_MAGIC,
				       .version = XSKX_HANDOVER_VERSION,
				       .error = err,
				       .queue_id = queue };

	snprintf(m.reason, sizeof(m.reason), "%s", reason);
	send(conn, &m, sizeof(m), MSG_NOSIGNAL);
}

static void hand_over(struct agent *a, int conn, uint32_t q)
{
	union {
		char buf[CMSG_SPACE(XSKX_HANDOVER_FDS * sizeof(int))];
		struct cmsghdr align;
	} control = { 0 };
	struct xskx_socket_info info;
	struct xskx_port_info port_info;
	struct xskx_handover_msg m = {
		.magic = XSKX_HANDOVER_MAGIC,
		.version = XSKX_HANDOVER_VERSION,
		.queue_id = q,
		.frame_size = FRAME_SIZE,
		.umem_size = a->size,
		.fill_size = XSKX_RING_DEFAULT_SIZE,
		.comp_size = XSKX_RING_DEFAULT_SIZE,
		.rx_size = XSKX_RING_DEFAULT_SIZE,
		.tx_size = XSKX_RING_DEFAULT_SIZE,
		.frame_first = q * a->frames,
		.frame_count = a->frames,
	};
	int fds[XSKX_HANDOVER_FDS];
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	xskx_socket_info(a->socks[q], &info);
	xskx_port_info(a->port, &port_info);
	snprintf(m.ifname, sizeof(m.ifname), "%s", a->ifname);
	m.ifindex = port_info.ifindex;
	m.bind_flags = (info.zero_copy ? XDP_ZEROCOPY : XDP_COPY) |
		       (info.need_wakeup ? XDP_USE_NEED_WAKEUP : 0);
	fds[XSKX_HANDOVER_FD_MEMFD] = a->memfd;
	fds[XSKX_HANDOVER_FD_XSK] = xskx_socket_fd(a->socks[q]);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	if (sendmsg(conn, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof(m))
		a->holder[q] = conn;
	else
		perror("xskx-node-agent: sendmsg");
}

static void serve_request(struct agent *a, int conn)
{
	struct xskx_handover_request req;
	ssize_t n = recv(conn, &req, sizeof(req), 0);
	char reason[96];

	if (n != (ssize_t)sizeof(req) || req.magic != XSKX_HANDOVER_MAGIC ||
	    req.version != XSKX_HANDOVER_VERSION) {
		refuse(conn, 0, -EBADMSG,
		       "not an xskx handover request of this version");
		return;
	}
	if (req.queue_id >= a->queues) {
		snprintf(reason, sizeof(reason),
			 "this agent serves queues 0 to %u of %s",
			 a->queues - 1, a->ifname);
		refuse(conn, req.queue_id, -ENOENT, reason);
		return;
	}
	if (!a->socks[req.queue_id]) {
		refuse(conn, req.queue_id, -EBUSY,
		       "the queue's socket could not be replaced after its last client (libxdp keeps a UMEM's first socket bound); restart the agent");
		return;
	}
	if (a->holder[req.queue_id] >= 0) {
		refuse(conn, req.queue_id, -EBUSY,
		       "another client holds this queue; wait until it hangs up");
		return;
	}
	hand_over(a, conn, req.queue_id);
}

/* A client hung up: its queue gets a fresh socket for the next one. */
static void client_gone(struct agent *a, nfds_t i)
{
	int conn = a->fds[i].fd;

	for (uint32_t q = 0; q < a->queues; q++)
		if (a->holder[q] == conn) {
			xskx_socket_close(a->socks[q]);
			a->socks[q] = NULL;
			open_queue(a, q);
		}
	close(conn);
	a->fds[i] = a->fds[--a->nfds];
}

static void serve(struct agent *a)
{
	printf("ready\n");
	fflush(stdout);
	while (!signals_stop_requested()) {
		if (poll(a->fds, a->nfds, 1000) <= 0)
			continue;
		if (a->fds[0].revents & POLLIN) {
			int conn =
				accept4(a->listener, NULL, NULL, SOCK_CLOEXEC);

			if (conn >= 0 && a->nfds < 1 + MAX_CLIENTS)
				a->fds[a->nfds++] =
					(struct pollfd){ .fd = conn,
							 .events = POLLIN };
			else if (conn >= 0)
				close(conn);
		}
		for (nfds_t i = a->nfds; i-- > 1;) {
			char peek;

			if (!a->fds[i].revents)
				continue;
			if (a->fds[i].revents & (POLLHUP | POLLERR) ||
			    recv(a->fds[i].fd, &peek, 1, MSG_PEEK) <= 0)
				client_gone(a, i);
			else
				serve_request(a, a->fds[i].fd);
		}
	}
}

static void teardown(struct agent *a)
{
	for (nfds_t i = a->nfds; i-- > 1;)
		close(a->fds[i].fd);
	for (uint32_t q = 0; q < a->queues; q++)
		xskx_socket_close(a->socks[q]);
	xskx_umem_destroy(a->umem);
	xskx_port_close(a->port);
	if (a->area && a->area != MAP_FAILED)
		munmap(a->area, a->size);
	if (a->listener >= 0) {
		close(a->listener);
		unlink(a->path);
	}
	if (a->memfd >= 0)
		close(a->memfd);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xskx-node-agent -i IFNAME -q QUEUES -s SOCKET_PATH [-f FRAMES_PER_QUEUE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct agent a = { .frames = 1024, .memfd = -1, .listener = -1 };
	int opt, err = -1;

	while ((opt = getopt(argc, argv, "i:q:s:f:")) != -1) {
		switch (opt) {
		case 'i':
			a.ifname = optarg;
			break;
		case 'q':
			a.queues = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 's':
			a.path = optarg;
			break;
		case 'f':
			a.frames = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (!a.ifname || !a.path || !a.queues || a.queues > MAX_QUEUES ||
	    !a.frames)
		usage();
	signals_catch(false);
	if (!setup(&a) && !listen_at(&a)) {
		serve(&a);
		err = 0;
	}
	teardown(&a);
	return err ? 1 : 0;
}
