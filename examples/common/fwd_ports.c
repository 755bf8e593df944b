// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>

#include "fwd_ports.h"

/*
 * With --no-csum-complete, a veth peer that offloads TX checksums sends
 * TCP and UDP whose checksums the far end will find bad: the one case in
 * which the flag breaks traffic, said once per port.
 */
static void warn_partial_csum(const struct fwd_options *o,
			      struct xskx_port *port, const char *ifname)
{
	struct xskx_port_info info;

	if (o->keep_partial_csum && xskx_port_info(port, &info) == 0 &&
	    info.peer_tx_csum == XSKX_PEER_TX_CSUM_ON)
		fprintf(stderr,
			"warning: %s: its veth peer offloads TX checksums, and with --no-csum-complete its TCP and UDP packets go on with partial checksums, which the receiver drops; leave the flag out, or turn the offload off on the peer (ethtool -K PEER tx off)\n",
			ifname);
}

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
	for (uint32_t i = 0; !err && !o->sim && i < n; i++)
		warn_partial_csum(o, ports[i], o->ifnames[i]);
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
