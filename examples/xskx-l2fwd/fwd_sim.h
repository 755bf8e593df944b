/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --sim of xskx-l2fwd and xskx-fw: the simulated NIC the forwarding core
 * runs on instead of kernel interfaces.
 */
#ifndef XSKX_L2FWD_FWD_SIM_H
#define XSKX_L2FWD_FWD_SIM_H

#include <stdint.h>
#include <xskx/xskx.h>

#include "fwd.h"

/*
 * A NIC on a thread of its own, as a real NIC runs beside the program, with
 * nports ports ("sim0", "sim1") of queues queues (0: 1) each, and a traffic
 * source as source says on every port. ports[] and names[] get each port and
 * its name. A failure is reported (run_lib_error) and returned; what was
 * made stays in *sim for fwd_sim_destroy.
 */
int fwd_sim_create(uint32_t nports, uint32_t queues,
		   const struct xskx_sim_source_opts *source,
		   struct xskx_sim **sim, struct xskx_sim_port *ports[],
		   const char *names[]);
/* Stop and free *sim, if any; report a failure. */
void fwd_sim_destroy(struct xskx_sim **sim);

#endif /* XSKX_L2FWD_FWD_SIM_H */
