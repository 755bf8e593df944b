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

#include "port_state.h"

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
/* Unlist and free (the backend's state already gone). */
void xskx__port_discard(struct xskx_port *port);

#endif /* XSKX_PORT_INTERNAL_H */
