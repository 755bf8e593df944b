// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: an xdpsock-style benchmark on the xskx public API.
 *
 *   xskx-bench --sim -r            receive and drop on the simulated NIC
 *   xskx-bench -i veth0 -q 0 -l    forward on a real interface
 *   xskx-bench --sim --compare     the burst API against bare libxdp rings,
 *                                  in interleaved pairs
 *   xskx-bench --sim --queues 2 --flows 16   a thread per queue (queues.c)
 *
 * See --help for every option; bench.h for the map of the source.
 */
#include <stdio.h>

#include "bench.h"
#include "signals.h"

/* Each mode's step on each of the library's APIs, and on bare rings. */
static const bench_step_fn api_steps[][3] = {
	[BENCH_API_BURST] = {
		[BENCH_RXDROP] = bench_rxdrop_step,
		[BENCH_TXONLY] = bench_txonly_step,
		[BENCH_L2FWD] = bench_l2fwd_step,
	},
	[BENCH_API_BATCH] = {
		[BENCH_RXDROP] = bench_batch_rxdrop_step,
		[BENCH_TXONLY] = bench_batch_txonly_step,
		[BENCH_L2FWD] = bench_batch_l2fwd_step,
	},
};
static const bench_step_fn baseline_steps[3] = {
	[BENCH_RXDROP] = bench_baseline_rxdrop_step,
	[BENCH_TXONLY] = bench_baseline_txonly_step,
	[BENCH_L2FWD] = bench_baseline_l2fwd_step,
};

static bench_step_fn step_of(const struct bench_opts *o, bool baseline)
{
	if (o->xdp_action != BENCH_XDP_REDIRECT)
		return bench_xdp_step;
	return baseline ? baseline_steps[o->mode] : api_steps[o->api][o->mode];
}

static int run_one(const struct bench_opts *o, bool baseline,
		   struct bench_result *res)
{
	struct bench b;
	int err = bench_setup(&b, o);

	if (!err && baseline)
		err = bench_baseline_prepare(&b);
	if (!err)
		err = bench_run(&b, step_of(o, baseline),
				baseline ? "baseline" : bench_api_name(o->api),
				res);
	bench_teardown(&b);
	return err;
}

/*
 * --compare: burst and baseline runs in turn, pair after pair, so that the
 * machine's load falls on both alike. Returns the pairs completed (a
 * signal ends the series early), or -1 on an error.
 */
static int run_pairs(const struct bench_opts *o, struct bench_result *burst,
		     struct bench_result *baseline)
{
	uint32_t done = 0;

	while (done < o->pairs && !signals_stop_requested()) {
		if (run_one(o, false, &burst[done]) ||
		    run_one(o, true, &baseline[done]))
			return -1;
		done++;
	}
	return (int)done;
}

int main(int argc, char **argv)
{
	struct bench_result burst[BENCH_MAX_PAIRS], baseline[BENCH_MAX_PAIRS];
	struct bench_opts o;
	int err, pairs;

	switch (bench_parse_options(argc, argv, &o)) {
	case BENCH_PARSE_HELP:
		return 0;
	case BENCH_PARSE_BAD:
		return 2;
	case BENCH_PARSE_RUN:
		break;
	}
#ifndef __OPTIMIZE__
	fprintf(stderr,
		"xskx-bench: warning: built without optimization; the figures mean little\n");
#endif
	/* The library's errors come with the call that failed (run_lib_error). */
	run_log_to_stderr(API_WORDS_BENCH);
	run_set_clock(o.clock);
	if (o.capture.in && o.mode == BENCH_TXONLY && bench_load_capture(&o))
		return 1;
	signals_catch(false);

	if (o.queue_threads) {
		err = bench_run_queues(&o, step_of(&o, false), &burst[0]);
		if (err)
			return 1;
		bench_report_result(&o, &burst[0]);
		return 0;
	}
	if (!o.compare) {
		err = run_one(&o, o.baseline, &burst[0]);
		capture_load_free(&o.replay);
		if (err)
			return 1;
		bench_report_result(&o, &burst[0]);
		return 0;
	}
	pairs = run_pairs(&o, burst, baseline);
	if (pairs < 0)
		return 1;
	if (pairs)
		bench_report_compare(&o, burst, baseline, (uint32_t)pairs);
	return 0;
}
