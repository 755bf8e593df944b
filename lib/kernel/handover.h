/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A received handover (xskx/handover.h): the fds, the frames mapped from
 * the memfd, and the port and UMEM built on them. The port's backend is
 * xskx__backend_handover (xsk_adopt.c), whose one socket maps its rings
 * from the handed-over AF_XDP socket instead of creating one.
 */
#ifndef XSKX_KERNEL_HANDOVER_H
#define XSKX_KERNEL_HANDOVER_H

#include <stdbool.h>
#include <xskx/handover.h>

struct xskx_backend_ops;

struct xskx_handover {
	struct xskx_handover_msg msg;
	int conn; /* the connection to the agent, held open */
	int memfd;
	int xsk_fd; /* -1 once its socket closed it */
	void *area; /* msg.umem_size bytes of the memfd */
	struct xskx_port *port;
	struct xskx_umem *umem;
	bool socket_open; /* the queue's socket, at most one */
};

extern const struct xskx_backend_ops xskx__backend_handover;

#endif /* XSKX_KERNEL_HANDOVER_H */
