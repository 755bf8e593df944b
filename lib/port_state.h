/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the core keeps of a port (lib/port.c makes it, port_internal.h):
 * the state that the files reading a port, and not making one, include.
 */
#ifndef XSKX_PORT_STATE_H
#define XSKX_PORT_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/port.h>

struct xskx_backend_ops;

/*
 * What makes two ports the same device: for an interface its network
 * namespace and ifindex, for a simulated port its address.
 */
struct xskx_device_id {
	uint64_t space;
	uint64_t index;
};

struct xskx_port {
	const struct xskx_backend_ops *ops;
	void *backend; /* the backend's own state */
	struct xskx_device_id id;
	char name[16];		    /* for messages */
	struct xskx_port_opts opts; /* checked, defaults applied */
	uint32_t sockets;	    /* open on the port */
	struct xskx_port *next;	    /* in the process's list of ports */
	/* Queues without a socket reported (port_no_socket.c): once. */
	bool no_socket_warned;
};

#endif /* XSKX_PORT_STATE_H */
