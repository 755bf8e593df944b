// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The simulated NIC of --sim (fwd_sim.h). */
#include "fwd_sim.h"
#include "run.h"

int fwd_sim_create(uint32_t nports, uint32_t queues,
		   const struct xskx_sim_source_opts *source,
		   struct xskx_sim **sim, struct xskx_sim_port *ports[],
		   const char *names[])
{
	static const char *const port_names[FWD_MAX_PORTS] = { "sim0", "sim1" };
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_THREADED);
	int err;

	err = xskx_sim_create(sim, &sim_opts);
	if (err)
		return run_lib_error("xskx_sim_create", err);
	for (uint32_t i = 0; i < nports; i++) {
		XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = port_names[i],
			  .queues = queues);

		err = xskx_sim_port_create(*sim, &port_opts, &ports[i]);
		if (err)
			return run_lib_error("xskx_sim_port_create", err);
		err = xskx_sim_port_add_source(ports[i], source);
		if (err)
			return run_lib_error("xskx_sim_port_add_source", err);
		names[i] = port_names[i];
	}
	return 0;
}

void fwd_sim_destroy(struct xskx_sim **sim)
{
	int err;

	if (*sim && (err = xskx_sim_destroy(*sim)))
		run_lib_error("xskx_sim_destroy", err);
	*sim = NULL;
}
