// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The simulated NIC of --sim (fwd_sim.h). */
#include <stdio.h>
#include <string.h>

#include "fwd_sim.h"
#include "run.h"

/* Looks in a row that must find a replay handled and unchanged. */
#define REPLAY_STILL_LOOKS 3

static int add_traffic(struct xskx_sim_port *port, uint32_t i,
		       const struct xskx_sim_source_opts *source,
		       const struct capture_opts *capture)
{
	XSKX_OPTS(xskx_sim_capture_source_opts, replay, .path = capture->in,
		  .timing = capture->timing, .rate_pps = capture->rate_pps,
		  .loops = capture->loops ? capture->loops :
					    XSKX_SIM_CAPTURE_FOREVER);
	int err;

	if (!capture->in) {
		err = xskx_sim_port_add_source(port, source);
		return err ? run_lib_error("xskx_sim_port_add_source", err) : 0;
	}
	if (i)
		return 0;
	err = xskx_sim_port_add_capture_source(port, &replay);
	return err ? run_lib_error("xskx_sim_port_add_capture_source", err) : 0;
}

int fwd_sim_create(uint32_t nports, uint32_t queues,
		   const struct xskx_sim_source_opts *source,
		   const struct capture_opts *capture, struct xskx_sim **sim,
		   struct xskx_sim_port *ports[], const char *names[])
{
	static const char *const port_names[FWD_MAX_PORTS] = { "sim0", "sim1" };
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_THREADED);
	XSKX_OPTS(xskx_sim_capture_opts, out, .path = capture->out,
		  .clock = XSKX_SIM_CAPTURE_CLOCK_COUNT);
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
		err = add_traffic(ports[i], i, source, capture);
		if (err)
			return err;
		names[i] = port_names[i];
	}
	if (capture->out &&
	    (err = xskx_sim_port_capture_open(ports[nports - 1], &out)))
		return run_lib_error("xskx_sim_port_capture_open", err);
	return 0;
}

int fwd_sim_capture_close(struct xskx_sim_port *out, const char *path,
			  const char *program)
{
	struct xskx_sim_port_stats stats;
	int err = xskx_sim_port_stats(out, &stats);

	if (!err)
		err = xskx_sim_port_capture_close(out);
	if (err)
		return run_lib_error("xskx_sim_port_capture_close", err);
	fprintf(stderr, "%s: wrote %llu frames to %s\n", program,
		(unsigned long long)stats.capture_frames, path);
	return 0;
}

void fwd_sim_destroy(struct xskx_sim **sim)
{
	int err;

	if (*sim && (err = xskx_sim_destroy(*sim)))
		run_lib_error("xskx_sim_destroy", err);
	*sim = NULL;
}

bool fwd_sim_replay_done(struct fwd_sim_replay *r, const struct xskx_sim *sim,
			 const struct xskx_sim_port *in,
			 const struct xskx_sim_port *out, uint64_t app_rx,
			 uint64_t app_tx)
{
	struct xskx_sim_port_stats i, o;
	uint64_t judged, seen[4];
	bool handled;

	if (xskx_sim_sources_active(sim) || xskx_sim_port_stats(in, &i) ||
	    xskx_sim_port_stats(out, &o))
		return false;
	judged = i.rx_missed + i.xdp_redirect + i.xdp_drop + i.xdp_pass +
		 i.xdp_redirect_err + i.xdp_tx;
	handled = judged == i.source_packets && app_rx == i.xdp_redirect &&
		  o.tx_packets == app_tx;
	memcpy(seen, (uint64_t[4]){ judged, app_rx, app_tx, o.tx_packets },
	       sizeof(seen));
	/* A first look that finds all handled counts as one of the row. */
	if (!handled)
		r->still = 0;
	else if (memcmp(seen, r->seen, sizeof(seen)))
		r->still = 1;
	else
		r->still++;
	memcpy(r->seen, seen, sizeof(seen));
	return r->still >= REPLAY_STILL_LOOKS;
}
