/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The wire (sim_wire.c): how a packet leaves a port — to the wire's other
 * end, which takes it through its receive pointer (sim_internal.h), or to
 * the sink and the capture file — and the faults the data path reads.
 */
#ifndef XSKX_SIM_WIRE_H
#define XSKX_SIM_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>

struct xskx_sim_port;
struct sim_pkt;

bool xskx__sim_port_link_down(const struct xskx_sim_port *port);
/* The error every wakeup on the port fails with (faults), or 0. */
int xskx__sim_port_wakeup_error(const struct xskx_sim_port *port);
bool xskx__sim_port_tx_stalled(const struct xskx_sim_port *port);
/* A packet leaves the port: to the wire's other end or to the sink. */
void xskx__sim_port_transmit(struct xskx_sim_port *port,
			     const struct sim_pkt *pkt, uint32_t queue);
/* Hand a packet to the sink, copied into one piece when it has several. */
void xskx__sim_port_sink(struct xskx_sim_port *port,
			 enum xskx_sim_sink_kind kind,
			 const struct sim_pkt *pkt, uint32_t queue);

#endif /* XSKX_SIM_WIRE_H */
