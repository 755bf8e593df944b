// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "fwd_ports.h"

int fwd_ports_open(const struct fwd_options *o,
		   struct xskx_sim_port *const sim_ports[], uint32_t n,
		   struct xskx_port *ports[])
{
	/* Generic XDP where the driver has no native mode, logged. */
	XSKX_OPTS(xskx_port_opts, opts, .xdp_mode = o->xdp_mode,
		  .xdp_fallback = true);
	int err = 0;

	for (uint32_t i = 0; !err && i < n; i++)
		err = o->sim ? xskx_port_open_sim(&ports[i], sim_ports[i],
						  &opts) :
			       xskx_port_open(&ports[i], o->ifnames[i], &opts);
	if (err)
		fwd_ports_close(ports, n);
	return err;
}

void fwd_ports_close(struct xskx_port *ports[], uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		xskx_port_close(ports[i]);
		ports[i] = NULL;
	}
}
