/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The port as the core and the backends see it. A backend's constructor
 * (xskx_port_open() in lib/kernel/, xskx_port_open_sim() in lib/sim/) asks
 * the core for a port with xskx__port_new() and hangs its own state on it;
 * the core never names a backend.
 */
#ifndef XSKX_PORT_INTERNAL_H
#define XSKX_PORT_INTERNAL_H

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

/*
 * Check opts (NULL: defaults) and make a port for device id, refusing a
 * device this process has a port on already (-EBUSY, logged with name).
 * The port is listed at once, so that two threads opening one device
 * cannot both succeed. Returns 0; then set port->backend, or on failure
 * xskx__port_discard() it.
 */
int xskx__port_new(struct xskx_port **port, const struct xskx_backend_ops *ops,
		   const struct xskx_device_id *id, const char *name,
		   const struct xskx_port_opts *opts);
/*
 * Read the port's counts of packets that found no socket on their queue,
 * logging the queues and the fix the first time any has some; returns
 * their sum, 0 when the port cannot count them (port_no_socket.c).
 */
uint64_t xskx__port_no_socket_check(const struct xskx_port *port);

/* Unlist and free (the backend's state already gone). */
void xskx__port_discard(struct xskx_port *port);

#endif /* XSKX_PORT_INTERNAL_H */
