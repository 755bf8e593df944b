/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Ports (sim_port.c): made, set up, wired and destroyed; a packet arriving
 * from the wire or injected goes through RSS to its queue's RX there.
 */
#ifndef XSKX_SIM_PORT_H
#define XSKX_SIM_PORT_H

#include <xskx-sim/sim.h>

struct xskx_sim;
struct xskx_sim_port;

/* The simulated machine a port belongs to (for xskx__sim_xsk_socket). */
struct xskx_sim *xskx__sim_xsk_port_machine(const struct xskx_sim_port *port);
/*
 * Install the deny list's hook (filter_sim.c), which is xskx's program as
 * the default hook is: it counts the packets it passes on a queue without
 * a socket. NULL restores the default.
 */
int xskx__sim_port_set_xskx_xdp(struct xskx_sim_port *port, xskx_sim_xdp_fn fn,
				void *ctx);
void xskx__sim_port_destroy(struct xskx_sim_port *port);

#endif /* XSKX_SIM_PORT_H */
