/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The deny list on the simulated NIC (filter_sim.c). backend_sim.c
 * tells it which queues of a port have sockets, so that the port's XDP hook
 * can do what the default hook does with the packets it lets through, and
 * so that the list ends with the port's last socket.
 */
#ifndef XSKX_FILTER_SIM_H
#define XSKX_FILTER_SIM_H

#include <stdbool.h>
#include <stdint.h>

struct xskx_filter_dev;
struct xskx_sim_port;
struct xskx_socket;

/* A socket was bound to queue of port (rx: it has an RX ring). 0 or -ENOMEM. */
int xskx__filter_sim_hold(struct xskx_sim_port *port, uint32_t queue, bool rx);

/* That socket is closing; the port's last one empties the list. */
void xskx__filter_sim_put(struct xskx_sim_port *port, uint32_t queue, bool rx);

/* The backend's filter_begin (lib/backend.h). */
int xskx__filter_sim_begin(struct xskx_port *port,
			   struct xskx_filter_dev *dev);

#endif /* XSKX_FILTER_SIM_H */
