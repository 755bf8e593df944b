// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The wire: a packet leaves a port to the wire's other end, or, on a port
 * without a peer, to the sink (and the capture file); and the faults the
 * data path reads. The other end takes the packet through its receive
 * pointer (struct xskx_sim_port), not by a call into the RX path above:
 * the RX path itself sends on the wire (XDP_TX), as the TX path does.
 */
#include <string.h>

#include "sim_capture_write.h"
#include "sim_internal.h"
#include "sim_wire.h"

int xskx__sim_port_wakeup_error(const struct xskx_sim_port *port)
{
	return __atomic_load_n(&port->wakeup_error, __ATOMIC_RELAXED);
}

bool xskx__sim_port_link_down(const struct xskx_sim_port *port)
{
	return __atomic_load_n(&port->link_down, __ATOMIC_RELAXED);
}

bool xskx__sim_port_tx_stalled(const struct xskx_sim_port *port)
{
	return __atomic_load_n(&port->tx_stalled, __ATOMIC_RELAXED);
}

void xskx__sim_port_sink(struct xskx_sim_port *port,
			 enum xskx_sim_sink_kind kind,
			 const struct sim_pkt *pkt, uint32_t queue)
{
	const uint8_t *data = pkt->segs[0].data;

	if (!port->sink && !port->capture)
		return;
	if (pkt->nsegs > 1) {
		uint32_t off = 0;

		for (uint32_t i = 0; i < pkt->nsegs; i++) {
			memcpy(port->scratch + off, pkt->segs[i].data,
			       pkt->segs[i].len);
			off += pkt->segs[i].len;
		}
		data = port->scratch;
	}
	xskx__sim_capture_write(port, kind, data, pkt->len);
	if (port->sink)
		port->sink(kind, data, pkt->len, queue, port->sink_ctx);
}

void xskx__sim_port_transmit(struct xskx_sim_port *port,
			     const struct sim_pkt *pkt, uint32_t queue)
{
	sim_count(&port->stats.tx_packets, 1);
	sim_count(&port->stats.tx_bytes, pkt->len);
	if (!port->peer)
		xskx__sim_port_sink(port, XSKX_SIM_SINK_TX, pkt, queue);
	else if (!port->peer->receive(port->peer, pkt))
		sim_count(&port->stats.wire_drops, 1);
}
