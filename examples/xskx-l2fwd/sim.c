// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd --sim: the same forwarder on the simulated NIC. Each port has
 * the run's queue count, a traffic source whose flows RSS spreads over the
 * queues, and no wire: what a port transmits leaves it and is counted in its
 * tx_packets (the sink).
 *
 *   forward  source -> sim0 -> forwarder -> sim1 -> out
 *            source -> sim1 -> forwarder -> sim0 -> out
 *   reflect  source -> sim0 -> forwarder (MACs swapped) -> sim0 -> out
 *
 * The NIC runs on a thread of its own, as a real NIC runs beside the program.
 */
#include "l2fwd.h"
#include "fwd_sim.h"

#define FLOWS_PER_QUEUE 8

int l2fwd_sim_create(struct l2fwd *app)
{
	const struct l2fwd_opts *o = app->opts;
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = o->fwd.pkt_size,
		  .count = o->fwd.packets, .flows = FLOWS_PER_QUEUE * o->fwd.queues);

	return fwd_sim_create(app->nports, o->fwd.queues, &source,
			      &o->fwd.capture, &app->sim, app->sim_ports,
			      app->port_names);
}

void l2fwd_sim_destroy(struct l2fwd *app)
{
	fwd_sim_destroy(&app->sim);
}
