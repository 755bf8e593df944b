/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The main thread's part of a run of xskx-l2fwd or xskx-fw, while the
 * queues' threads forward: a look every tenth of a second, a line (and with
 * --json-lines an object) every second, the short last interval at the end,
 * and why the run ended: "duration", "replayed" (--pcap-in, finite loops)
 * or "signal". Each program keeps its own samples and what it prints of
 * them.
 */
#ifndef XSKX_EXAMPLES_FWD_WATCH_H
#define XSKX_EXAMPLES_FWD_WATCH_H

#include <stdint.h>

#include "fwd.h"
#include "fwd_options.h"

struct fwd_watch {
	const struct fwd_options *opts;
	double start; /* CLOCK_MONOTONIC seconds when forwarding began */
	void *ctx;    /* the program's, passed to every callback */
	/* two of the program's samples, which take() fills in turn */
	void *samples[2];
	void (*take)(void *ctx, double t, void *sample);
	/* an interval's line (unless --quiet) and object (--json-lines) */
	void (*line)(void *ctx, const void *prev, const void *now);
	void (*json_line)(void *ctx, const void *prev, const void *now);
	/* NULL, or called with look_ctx at every look: xskx-fw's reloads */
	void (*look)(void *look_ctx);
	void *look_ctx;
	/* --pcap-in: the queues' forwarding cores and the simulated NIC */
	struct fwd_queue *queues[FWD_MAX_QUEUES];
	uint32_t nqueues;
	uint32_t out_port; /* the port the replayed frames leave by */
	struct xskx_sim *sim;
	struct xskx_sim_port *sim_in, *sim_out;
};

/* Watch until the run ends (SIGINT/SIGTERM, --duration, a replay's end). */
const char *fwd_watch_run(const struct fwd_watch *w);

#endif /* XSKX_EXAMPLES_FWD_WATCH_H */
