// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The AF_XDP device plugin for Kubernetes' handshake, as its documentation
 * and DPDK's guide to it describe it: a SOCK_SEQPACKET Unix socket (by
 * convention /tmp/afxdp_dp/<ifname>/afxdp.sock inside the pod), one
 * request per message, one reply each:
 *
 *   "/connect,<hostname>"   -> "/host_ok" (or "/host_nak": not this pod's)
 *   "/xsk_map_fd,<ifname>"  -> "/fd_ack" with the XSKMAP's fd (SCM_RIGHTS),
 *                              or "/fd_nak"
 *   "/fin"                  -> "/fin_ack"
 *
 * The plugin checks the hostname (the pod's name) against the devices it
 * gave the pod. Replies are read with a timeout, so that a plugin that
 * never answers fails the open instead of hanging it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "log_internal.h"
#include "device_plugin.h"

/* The plugin's messages are short; its own buffers are 64 bytes. */
#define MSG_MAX 64
#define REPLY_TIMEOUT_S 5

struct session {
	int sock;
	const char *path;
	const char *ifname;
};

/* Send request; its reply (NUL-terminated) in reply, an fd with it in *fd. */
static int exchange(const struct session *s, const char *request,
		    char reply[MSG_MAX + 1], int *fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { reply, MSG_MAX };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cmsg;
	ssize_t n;

	if (send(s->sock, request, strlen(request), MSG_NOSIGNAL) < 0)
		return xskx__fail(-errno,
				  "device plugin '%s': sending '%s': %s",
				  s->path, request, xskx_strerror(errno));
	n = recvmsg(s->sock, &msg, MSG_CMSG_CLOEXEC);
	if (n <= 0) {
		int err = n < 0 ? -errno : -ECONNRESET;

		return xskx__fail(
			err, "device plugin '%s': no reply to '%s': %s",
			s->path, request,
			err == -EAGAIN ? "timed out" : xskx_strerror(-err));
	}
	reply[n] = '\0';
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_SOCKET &&
		    cmsg->cmsg_type == SCM_RIGHTS && fd && *fd < 0)
			memcpy(fd, CMSG_DATA(cmsg), sizeof(*fd));
	return 0;
}

/* The reply must start with want; else the plugin said no. */
static int expect(const struct session *s, const char *request,
		  const char *reply, const char *want, const char *why)
{
	if (!strncmp(reply, want, strlen(want)))
		return 0;
	return xskx__fail(
		-EACCES, "device plugin '%s': '%s' answered '%s', not '%s': %s",
		s->path, request, reply, want, why);
}

static int handshake(const struct session *s, int *fd)
{
	char host[256] = "", request[MSG_MAX + 1], reply[MSG_MAX + 1];
	int err;

	if (gethostname(host, sizeof(host) - 1))
		return xskx__fail(-errno, "device plugin: gethostname: %s",
				  xskx_strerror(errno));
	if (snprintf(request, sizeof(request), "/connect,%s", host) >=
	    (int)sizeof(request))
		return xskx__fail(
			-ENAMETOOLONG,
			"device plugin '%s': the hostname '%s' does not fit the handshake's %d-byte messages",
			s->path, host, MSG_MAX);
	err = exchange(s, request, reply, NULL);
	if (!err)
		err = expect(
			s, request, reply, "/host_ok",
			"the plugin does not know this pod by its hostname");
	if (err)
		return err;
	snprintf(request, sizeof(request), "/xsk_map_fd,%s", s->ifname);
	err = exchange(s, request, reply, fd);
	if (!err)
		err = expect(s, request, reply, "/fd_ack",
			     "the plugin gave this pod no such device");
	if (!err && *fd < 0)
		err = xskx__fail(
			-EPROTO,
			"device plugin '%s': '/fd_ack' for '%s' came without a file descriptor",
			s->path, s->ifname);
	if (err)
		return err;
	err = exchange(s, "/fin", reply, NULL);
	if (!err)
		err = expect(s, "/fin", reply, "/fin_ack",
			     "the plugin did not close the session");
	return err;
}

int xskx__device_plugin_xskmap(const char *path, const char *ifname, int *fd)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval timeout = { .tv_sec = REPLY_TIMEOUT_S };
	struct session s = { -1, path, ifname };
	int err;

	*fd = -1;
	if (strlen(path) >= sizeof(addr.sun_path))
		return xskx__fail(-ENAMETOOLONG,
				  "device plugin: socket path '%s' is too long",
				  path);
	strcpy(addr.sun_path, path);
	s.sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s.sock < 0)
		return xskx__fail(-errno, "device plugin: socket: %s",
				  xskx_strerror(errno));
	if (setsockopt(s.sock, SOL_SOCKET, SO_RCVTIMEO, &timeout,
		       sizeof(timeout)) ||
	    connect(s.sock, (struct sockaddr *)&addr, sizeof(addr))) {
		err = xskx__fail(
			-errno,
			"device plugin: connecting to '%s': %s (is the plugin's socket mounted into this container?)",
			path, xskx_strerror(errno));
		close(s.sock);
		return err;
	}
	err = handshake(&s, fd);
	close(s.sock);
	if (err && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return err;
}
