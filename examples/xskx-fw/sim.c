// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw --sim: the same firewall on the simulated NIC. Each port has a
 * traffic source (UDP/IPv4, 192.0.2.1 -> 192.0.2.2, destination port 9) and
 * no wire: what the firewall sends out of a port is counted in the port's
 * tx_packets. The deny list of stage 1 is the ports' XDP hook. Each port
 * has the run's queue count; RSS spreads the source's flows (8 per queue)
 * over them. The NIC runs on a thread of its own, as a real NIC runs beside
 * the program.
 */
#include "fwapp.h"
#include "fwd_sim.h"

#define FLOWS_PER_QUEUE 8

int fwapp_sim_create(struct fwapp *app)
{
	const struct fwapp_opts *o = app->opts;
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = o->fwd.pkt_size,
		  .count = o->fwd.packets,
		  .flows = FLOWS_PER_QUEUE * o->fwd.queues);

	return fwd_sim_create(FWD_MAX_PORTS, o->fwd.queues, &source,
			      &o->fwd.capture, &app->sim, app->sim_ports,
			      app->port_names);
}

void fwapp_sim_destroy(struct fwapp *app)
{
	fwd_sim_destroy(&app->sim);
}
