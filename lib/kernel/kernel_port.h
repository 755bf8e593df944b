/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kernel backend's state of a port (port->backend). */
#ifndef XSKX_KERNEL_PORT_H
#define XSKX_KERNEL_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "port_internal.h"

struct xskx_filter_dev;
struct xskx_port_info;
struct xskx_xdp_attachment;

struct kernel_port {
	int ifindex;
	/*
	 * The port's XDP program, while it has a socket with an RX ring (each
	 * holds a reference): what the deny list works on.
	 */
	struct xskx_xdp_attachment *xdp;
	uint32_t receivers;
	/*
	 * Someone else's program's XSKMAP (opts.xskmap_fd, _pin, _uds), -1
	 * without: the port's sockets go there and xdp stays NULL.
	 */
	int xskmap_fd;
	uint32_t xskmap_entries;
};

static inline struct kernel_port *
xskx__kernel_port(const struct xskx_port *port)
{
	return port->backend;
}

/* The port's entries of the backend's table (lib/backend.h). */
void xskx__kernel_port_close(struct xskx_port *port);
void xskx__kernel_port_info(const struct xskx_port *port,
			    struct xskx_port_info *info);
int xskx__kernel_port_rx_no_socket(const struct xskx_port *port,
				   uint64_t *packets, uint32_t queues);
int xskx__kernel_port_filter_begin(struct xskx_port *port,
				   struct xskx_filter_dev *dev);

/* The backend's table (lib/backend.h). */
extern const struct xskx_backend_ops xskx__backend_kernel;

/*
 * Wake the kernel to send what the socket's TX ring holds, on fd: the
 * kernel backend's and a handed-over socket's (xsk_adopt.c) TX kick.
 */
struct xskx_socket;
int xskx__kernel_kick_tx_fd(struct xskx_socket *s, int fd, bool zero_copy);

#endif /* XSKX_KERNEL_PORT_H */
