// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_sim_port_add_capture_source(): the options checked, the capture
 * read (sim_capture_read.c), and a source made of it (sim_source.c).
 */
#include <errno.h>

#include "api.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "sim_capture_read.h"
#include "sim_internal.h"
#include "sim_source.h"

static int check_timing(const struct xskx_sim_port *port,
			const struct xskx_sim_capture_source_opts *o)
{
	switch (o->timing) {
	case XSKX_SIM_CAPTURE_ASAP:
	case XSKX_SIM_CAPTURE_RECORDED:
		if (!o->rate_pps)
			return 0;
		return xskx__fail(
			-EINVAL,
			"port %s: capture source: rate_pps %llu is for XSKX_SIM_CAPTURE_RATE; leave it 0 or choose that timing",
			port->name, (unsigned long long)o->rate_pps);
	case XSKX_SIM_CAPTURE_RATE:
		if (o->rate_pps)
			return 0;
		return xskx__fail(
			-EINVAL,
			"port %s: capture source: XSKX_SIM_CAPTURE_RATE needs rate_pps",
			port->name);
	}
	return xskx__fail(-EINVAL,
			  "port %s: capture source: timing %d is unknown",
			  port->name, (int)o->timing);
}

XSKX_API int xskx_sim_port_add_capture_source(
	struct xskx_sim_port *port,
	const struct xskx_sim_capture_source_opts *opts)
{
	struct xskx_sim_capture_source_opts o;
	struct sim_capture cap;
	int err;

	if (!port)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_add_capture_source: port is NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_sim_capture_source_opts);
	if (err)
		return err;
	if (!o.path)
		return xskx__fail(
			-EINVAL,
			"port %s: capture source: path names no capture file",
			port->name);
	err = check_timing(port, &o);
	if (err)
		return err;
	err = xskx__sim_capture_read(o.path, port->mtu + XSKX_L2_OVERHEAD,
				     port->name, &cap);
	if (err)
		return err;
	return xskx__sim_source_add_capture(port, &cap, &o);
}
