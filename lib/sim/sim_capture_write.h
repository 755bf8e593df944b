/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The file a port's frames are written to (sim_capture_write.c, libpcap). */
#ifndef XSKX_SIM_CAPTURE_WRITE_H
#define XSKX_SIM_CAPTURE_WRITE_H

#include <stdint.h>
#include <xskx-sim/sim.h>

struct xskx_sim_port;

/* The port's capture file, if open, takes a frame. */
void xskx__sim_capture_write(struct xskx_sim_port *port,
			     enum xskx_sim_sink_kind kind, const uint8_t *data,
			     uint32_t len);
/* Close the port's capture file, if open, at destroy: a failure is logged. */
void xskx__sim_capture_drop(struct xskx_sim_port *port);

#endif /* XSKX_SIM_CAPTURE_WRITE_H */
