/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Traffic sources (sim_source.c): where a port's packets come from. */
#ifndef XSKX_SIM_SOURCE_H
#define XSKX_SIM_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>

struct xskx_sim_port;
struct sim_capture;

uint32_t xskx__sim_sources_run(struct xskx_sim_port *port, uint64_t now_ns);
/* Earliest time a rate-limited source has a packet due (UINT64_MAX: none). */
uint64_t xskx__sim_sources_next_due(const struct xskx_sim_port *port);
bool xskx__sim_sources_unfinished(const struct xskx_sim_port *port);
/* A source sends on a schedule (a rate, a capture's timing). */
bool xskx__sim_sources_timed(const struct xskx_sim_port *port);
void xskx__sim_sources_free(struct xskx_sim_port *port);
/* Add a source replaying cap (taken over, freed with the source). */
int xskx__sim_source_add_capture(struct xskx_sim_port *port,
				 struct sim_capture *cap,
				 const struct xskx_sim_capture_source_opts *o);

#endif /* XSKX_SIM_SOURCE_H */
