/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The library's ports (xskx/port.h) of xskx-l2fwd and xskx-fw: one per
 * interface, or per simulated port with --sim, opened before the queues'
 * sockets and closed after them.
 */
#ifndef XSKX_EXAMPLES_FWD_PORTS_H
#define XSKX_EXAMPLES_FWD_PORTS_H

#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "fwd_options.h"

/*
 * Open ports[0..n): on the simulated ports sim_ports[] with --sim, else on
 * the interfaces o->ifnames[] with o->xdp_mode (native falling back to
 * generic). Returns 0, or the library's negative errno (xskx_last_error()
 * says why) having closed what it opened.
 */
int fwd_ports_open(const struct fwd_options *o,
		   struct xskx_sim_port *const sim_ports[], uint32_t n,
		   struct xskx_port *ports[]);

/* Close the ports that are open (NULL entries are skipped). */
void fwd_ports_close(struct xskx_port *ports[], uint32_t n);

#endif /* XSKX_EXAMPLES_FWD_PORTS_H */
