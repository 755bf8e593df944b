/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A program built against an installed libxskx-sim by
 * scripts/check-install.sh: it compiles against <xskx-sim/sim.h>, links
 * the simulator and libxskx under it, and opens a port of xskx's on a
 * simulated one, the call that crosses from one library to the other.
 */
#include <stdio.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

int main(void)
{
	struct xskx_sim_port *sim_port;
	struct xskx_port_info info;
	struct xskx_port *port;
	struct xskx_sim *sim;
	int err;

	err = xskx_sim_create(&sim, NULL);
	if (err) {
		fprintf(stderr, "xskx_sim_create: %s\n", xskx_last_error());
		return 1;
	}
	err = xskx_sim_port_create(sim, NULL, &sim_port);
	if (!err)
		err = xskx_port_open_sim(&port, sim_port, NULL);
	if (err) {
		fprintf(stderr, "simulated port: %s\n", xskx_last_error());
		xskx_sim_destroy(sim);
		return 1;
	}
	err = xskx_port_info(port, &info);
	if (!err)
		printf("xskx %s, port on the \"%s\" backend\n", xskx_version(),
		       info.backend);
	if (xskx_port_close(port) || xskx_sim_destroy(sim) || err) {
		fprintf(stderr, "%s\n", xskx_last_error());
		return 1;
	}
	return 0;
}
