// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The receiving side of a handover (xskx/handover.h): connect to the agent,
 * ask for a queue, take the memfd and the AF_XDP socket it sends
 * (SCM_RIGHTS), check that they are what the message says, and build a
 * port and a UMEM on them. Every fd received is closed on every failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <xskx/umem.h>

#include "api.h"
#include "handover.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "port_internal.h"
#include "frames/frame_pool.h"
#include "frames/umem_slice.h"

#define HANDOVER_DEFAULT_TIMEOUT_MS 5000

static void close_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

static int connect_agent(const char *path, int timeout_ms)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = timeout_ms / 1000,
			      .tv_usec = (timeout_ms % 1000) * 1000 };
	int fd, err;

	if (strlen(path) >= sizeof(addr.sun_path))
		return xskx__fail(
			-ENAMETOOLONG,
			"handover: agent socket path '%s' is longer than a Unix socket path may be (%zu bytes)",
			path, sizeof(addr.sun_path) - 1);
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return xskx__fail(-errno, "handover: socket(AF_UNIX): %s",
				  xskx_strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		err = -errno;
		close(fd);
		return xskx__fail(
			err,
			"handover: connecting to the agent at '%s': %s; is the agent (xskx-node-agent) running, and is its socket mounted here?",
			path, xskx_strerror(-err));
	}
	return fd;
}

static int send_request(int conn, const char *path, uint32_t queue_id)
{
	struct xskx_handover_request req = { .magic = XSKX_HANDOVER_MAGIC,
					     .version = XSKX_HANDOVER_VERSION,
					     .queue_id = queue_id };

	if (send(conn, &req, sizeof(req), MSG_NOSIGNAL) == (ssize_t)sizeof(req))
		return 0;
	return xskx__fail(
		-errno,
		"handover: sending the request for queue %u to '%s': %s",
		queue_id, path, xskx_strerror(errno));
}

/* The fds of every SCM_RIGHTS message in msg, up to max; the rest closed. */
static int take_fds(struct msghdr *msg, int *fds, int max)
{
	int n = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c;
	     c = CMSG_NXTHDR(msg, c)) {
		size_t count;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
			if (n < max)
				fds[n] = fd;
			else
				close(fd);
			n++;
		}
	}
	return n;
}

static int receive_msg(int conn, const char *path, struct xskx_handover_msg *m,
		       int *fds)
{
	union {
		char buf[CMSG_SPACE(XSKX_HANDOVER_FDS * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	ssize_t len = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
	int n;

	if (len < 0)
		return xskx__fail(errno == EAGAIN ? -ETIMEDOUT : -errno,
				  "handover: waiting for the agent at '%s': %s",
				  path,
				  errno == EAGAIN ? "no answer in time" :
						    xskx_strerror(errno));
	n = take_fds(&msg, fds, XSKX_HANDOVER_FDS);
	if (!len)
		return xskx__fail(
			-ECONNRESET,
			"handover: the agent at '%s' hung up without an answer; see its log",
			path);
	if (msg.msg_flags & MSG_CTRUNC)
		return xskx__fail(
			-EPROTO,
			"handover: the agent at '%s' sent more file descriptors than the %d of the protocol, or this process may open no more (RLIMIT_NOFILE): the message was cut (MSG_CTRUNC)",
			path, XSKX_HANDOVER_FDS);
	if (len != (ssize_t)sizeof(*m) || msg.msg_flags & MSG_TRUNC ||
	    m->magic != XSKX_HANDOVER_MAGIC ||
	    m->version != XSKX_HANDOVER_VERSION)
		return xskx__fail(
			-EBADMSG,
			"handover: '%s' answered %zd bytes that are not an xskx handover message of version %d (%zu bytes, magic 0x%x); is it an xskx agent, of the same version?",
			path, len, XSKX_HANDOVER_VERSION, sizeof(*m),
			XSKX_HANDOVER_MAGIC);
	m->reason[sizeof(m->reason) - 1] = '\0';
	m->ifname[sizeof(m->ifname) - 1] = '\0';
	if (m->error < 0)
		return xskx__fail(
			m->error,
			"handover: the agent at '%s' refused queue %u: %s",
			path, m->queue_id, m->reason);
	if (n != XSKX_HANDOVER_FDS)
		return xskx__fail(
			-EPROTO,
			"handover: the agent at '%s' sent %d file descriptors, the protocol %d (a memfd and an AF_XDP socket)",
			path, n, XSKX_HANDOVER_FDS);
	return 0;
}

/* What the fds must be for the message to be true. */
static int check_fds(const struct xskx_handover_msg *m, const int *fds)
{
	int domain = 0;
	socklen_t len = sizeof(domain);
	struct stat st;

	if (fstat(fds[XSKX_HANDOVER_FD_MEMFD], &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < m->umem_size)
		return xskx__fail(
			-EPROTO,
			"handover: the first file descriptor is not a memfd of at least %llu bytes (the UMEM's size)",
			(unsigned long long)m->umem_size);
	if (getsockopt(fds[XSKX_HANDOVER_FD_XSK], SOL_SOCKET, SO_DOMAIN,
		       &domain, &len) ||
	    domain != AF_XDP)
		return xskx__fail(
			-EPROTO,
			"handover: the second file descriptor is not an AF_XDP socket (%s)",
			domain ? "another socket family" : "not a socket");
	return 0;
}

/* The message's geometry, before anything is mapped from it. */
static int check_msg(const struct xskx_handover_msg *m, uint32_t queue_id)
{
	if (m->queue_id != queue_id)
		return xskx__fail(
			-EBADMSG,
			"handover: queue %u asked, the agent sent queue %u",
			queue_id, m->queue_id);
	if (m->umem_flags || m->bind_flags & XDP_USE_SG)
		return xskx__fail(
			-EOPNOTSUPP,
			"handover: the agent's UMEM flags 0x%x / bind flags 0x%x: unaligned chunks and multi-buffer are not handed over",
			m->umem_flags, m->bind_flags);
	if (!m->frame_size || m->umem_size % m->frame_size || !m->frame_count ||
	    m->frame_first >= m->umem_size / m->frame_size ||
	    m->frame_count > m->umem_size / m->frame_size - m->frame_first)
		return xskx__fail(
			-EBADMSG,
			"handover: frames %u + %u of %u bytes do not fit the %llu-byte UMEM the agent described",
			m->frame_first, m->frame_count, m->frame_size,
			(unsigned long long)m->umem_size);
	if (!xskx_is_power_of_2(m->fill_size) ||
	    !xskx_is_power_of_2(m->comp_size) ||
	    (m->rx_size && !xskx_is_power_of_2(m->rx_size)) ||
	    (m->tx_size && !xskx_is_power_of_2(m->tx_size)) ||
	    (!m->rx_size && !m->tx_size))
		return xskx__fail(
			-EBADMSG,
			"handover: ring sizes fill %u comp %u rx %u tx %u: not what the kernel makes",
			m->fill_size, m->comp_size, m->rx_size, m->tx_size);
	return 0;
}

static int build_umem(struct xskx_handover *ho)
{
	const struct xskx_handover_msg *m = &ho->msg;
	int err;

	ho->area = mmap(NULL, m->umem_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			ho->memfd, 0);
	if (ho->area == MAP_FAILED) {
		ho->area = NULL;
		return xskx__fail(
			-errno,
			"handover: mapping the %llu-byte UMEM from the memfd: %s",
			(unsigned long long)m->umem_size, xskx_strerror(errno));
	}
	XSKX_OPTS(xskx_umem_opts, uo, .area = ho->area, .size = m->umem_size,
		  .frame_size = m->frame_size, .headroom = m->headroom,
		  .fill_size = m->fill_size, .comp_size = m->comp_size);
	err = xskx_umem_create(&ho->umem, &uo);
	if (!err)
		err = xskx__umem_keep_slice(ho->umem, m->frame_first,
					    m->frame_count);
	return err;
}

/*
 * The port's identity: a handed-over queue is its own device to this
 * process, one port per handover. The memfd's inode names the UMEM; bit 32
 * keeps the index apart from every ifindex a kernel port uses.
 */
static int build_port(struct xskx_handover *ho)
{
	struct xskx_device_id id;
	struct stat st;
	int err;

	if (fstat(ho->memfd, &st))
		return xskx__fail(-errno, "handover: fstat on the memfd: %s",
				  xskx_strerror(errno));
	id.space = (uint64_t)st.st_ino;
	id.index = (1ull << 32) | ho->msg.queue_id;
	err = xskx__port_new(&ho->port, &xskx__backend_handover, &id,
			     ho->msg.ifname, NULL);
	if (!err)
		ho->port->backend = ho;
	return err;
}

static void handover_free(struct xskx_handover *ho)
{
	if (ho->port)
		xskx_port_close(ho->port);
	if (ho->umem) {
		/*
		 * The other slices and whatever the kernel still holds are
		 * not this process's to account for: the UMEM goes whole.
		 */
		xskx__pool_take_back_from_peer(ho->umem);
		xskx_umem_destroy(ho->umem);
	}
	if (ho->area)
		munmap(ho->area, ho->msg.umem_size);
	close_fds(&ho->memfd, 1);
	close_fds(&ho->xsk_fd, 1);
	close_fds(&ho->conn, 1);
	free(ho);
}

XSKX_API int xskx_handover_receive(struct xskx_handover **hop, const char *path,
				   uint32_t queue_id, int timeout_ms)
{
	int fds[XSKX_HANDOVER_FDS] = { -1, -1 };
	struct xskx_handover *ho;
	int err;

	if (!hop || !path || timeout_ms < 0)
		return xskx__fail(
			-EINVAL,
			"xskx_handover_receive: handover pointer and path must be given, timeout_ms at least 0");
	ho = calloc(1, sizeof(*ho));
	if (!ho)
		return xskx__fail(-ENOMEM, "handover: out of memory");
	ho->memfd = ho->xsk_fd = -1;
	ho->conn = connect_agent(
		path, timeout_ms ? timeout_ms : HANDOVER_DEFAULT_TIMEOUT_MS);
	if (ho->conn < 0) {
		err = ho->conn;
		goto err_free;
	}
	err = send_request(ho->conn, path, queue_id);
	if (!err)
		err = receive_msg(ho->conn, path, &ho->msg, fds);
	if (!err)
		err = check_fds(&ho->msg, fds);
	if (!err)
		err = check_msg(&ho->msg, queue_id);
	if (err) {
		close_fds(fds, XSKX_HANDOVER_FDS);
		goto err_free;
	}
	ho->memfd = fds[XSKX_HANDOVER_FD_MEMFD];
	ho->xsk_fd = fds[XSKX_HANDOVER_FD_XSK];
	err = build_umem(ho);
	if (!err)
		err = build_port(ho);
	if (err)
		goto err_free;
	xskx_info(
		"handover: queue %u of '%s' from '%s': frames %u-%u of a %llu-byte UMEM",
		queue_id, ho->msg.ifname, path, ho->msg.frame_first,
		ho->msg.frame_first + ho->msg.frame_count - 1,
		(unsigned long long)ho->msg.umem_size);
	*hop = ho;
	return 0;

err_free:
	handover_free(ho);
	return err;
}

XSKX_API struct xskx_port *xskx_handover_port(const struct xskx_handover *ho)
{
	if (!ho) {
		xskx__fail(-EINVAL, "xskx_handover_port: handover is NULL");
		return NULL;
	}
	return ho->port;
}

XSKX_API struct xskx_umem *xskx_handover_umem(const struct xskx_handover *ho)
{
	if (!ho) {
		xskx__fail(-EINVAL, "xskx_handover_umem: handover is NULL");
		return NULL;
	}
	return ho->umem;
}

XSKX_API const struct xskx_handover_msg *
xskx_handover_msg(const struct xskx_handover *ho)
{
	if (!ho) {
		xskx__fail(-EINVAL, "xskx_handover_msg: handover is NULL");
		return NULL;
	}
	return &ho->msg;
}

XSKX_API int xskx_handover_close(struct xskx_handover *ho)
{
	if (!ho)
		return 0;
	if (ho->socket_open)
		return xskx__fail(
			-EBUSY,
			"xskx_handover_close: the socket of '%s' queue %u is open; xskx_socket_close() it first",
			ho->msg.ifname, ho->msg.queue_id);
	handover_free(ho);
	return 0;
}
