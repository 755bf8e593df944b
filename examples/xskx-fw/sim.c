// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw --sim: the same firewall on the simulated NIC. Each port has a
 * traffic source (UDP/IPv4, 10.0.0.1 -> 10.0.0.2, destination port 9) and
 * no wire: what the firewall sends out of a port is counted in the port's
 * tx_packets. The deny list of stage 1 is the ports' XDP hook. The NIC runs
 * on a thread of its own, as a real NIC runs beside the program.
 */
#include "fwapp.h"
#include "run.h"

#define FLOWS 8

int fwapp_sim_create(struct fwapp *app)
{
	const struct fwapp_opts *o = app->opts;
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_THREADED);
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = o->fwd.pkt_size,
		  .count = o->fwd.packets, .flows = FLOWS);
	static const char *const names[FWD_MAX_PORTS] = { "sim0", "sim1" };
	int err;

	err = xskx_sim_create(&app->sim, &sim_opts);
	if (err)
		return run_lib_error("xskx_sim_create", err);
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = names[i]);

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

void fwapp_sim_destroy(struct fwapp *app)
{
	int err;

	if (app->sim && (err = xskx_sim_destroy(app->sim)))
		run_lib_error("xskx_sim_destroy", err);
	app->sim = NULL;
}
