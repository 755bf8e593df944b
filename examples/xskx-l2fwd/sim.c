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
#include "run.h"

#define FLOWS_PER_QUEUE 8

int l2fwd_sim_create(struct l2fwd *app)
{
	const struct l2fwd_opts *o = app->opts;
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_THREADED);
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = o->fwd.pkt_size,
		  .count = o->fwd.packets, .flows = FLOWS_PER_QUEUE * o->queues);
	static const char *const names[FWD_MAX_PORTS] = { "sim0", "sim1" };
	int err;

	err = xskx_sim_create(&app->sim, &sim_opts);
	if (err)
		return run_lib_error("xskx_sim_create", err);
	for (uint32_t i = 0; i < app->nports; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[i],
			  .queues = o->queues);

		err = xskx_sim_port_create(app->sim, &port_opts,
					   &app->sim_ports[i]);
		if (err)
			return run_lib_error("xskx_sim_port_create", err);
		err = xskx_sim_port_add_source(app->sim_ports[i], &source);
		if (err)
			return run_lib_error("xskx_sim_port_add_source", err);
		app->port_names[i] = names[i];
	}
	return 0;
}

void l2fwd_sim_destroy(struct l2fwd *app)
{
	int err;

	if (app->sim && (err = xskx_sim_destroy(app->sim)))
		run_lib_error("xskx_sim_destroy", err);
	app->sim = NULL;
}
