// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel backend: a real AF_XDP socket created through libxdp.
 *
 * Being brought up in steps: until socket creation lands, open() refuses
 * with -ENOSYS and says so, so that no caller believes it has a socket.
 */
#include <errno.h>
#include <stddef.h>

#include "backend.h"
#include "log_internal.h"
#include "socket_internal.h"

static int kernel_open(struct xskx_socket *sock,
		       const struct xskx_socket_opts *opts)
{
	(void)sock;
	return xskx_fail(-ENOSYS,
			 "kernel backend: AF_XDP sockets on %s are not available in this build yet",
			 opts->ifname ? opts->ifname : "(no interface)");
}

static int kernel_refuse(struct xskx_socket *sock)
{
	(void)sock;
	return -ENOSYS;
}

static int kernel_poll(struct xskx_socket *sock, short events, int timeout_ms)
{
	(void)sock;
	(void)events;
	(void)timeout_ms;
	return -ENOSYS;
}

static int kernel_stats(struct xskx_socket *sock, struct xdp_statistics *stats)
{
	(void)sock;
	(void)stats;
	return -ENOSYS;
}

static int kernel_options(const struct xskx_socket *sock,
			  struct xdp_options *options)
{
	(void)sock;
	(void)options;
	return -ENOSYS;
}

static int64_t kernel_frames_in_peer(const struct xskx_fq_cq *fq)
{
	(void)fq;
	return -1;
}

static int kernel_fd(const struct xskx_socket *sock)
{
	(void)sock;
	return -ENOSYS;
}

static void kernel_close(struct xskx_socket *sock,
			 void (*give_back)(uint64_t addr, void *ctx), void *ctx)
{
	(void)sock;
	(void)give_back;
	(void)ctx;
}

const struct xskx_backend_ops xskx_backend_kernel = {
	.name = "kernel",
	.open = kernel_open,
	.kick_rx = kernel_refuse,
	.kick_tx = kernel_refuse,
	.poll = kernel_poll,
	.stats = kernel_stats,
	.options = kernel_options,
	.frames_in_peer = kernel_frames_in_peer,
	.fd = kernel_fd,
	.close = kernel_close,
};
