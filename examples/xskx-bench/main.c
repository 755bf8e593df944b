// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: an xdpsock-style benchmark on the xskx public API.
 *
 *   xskx-bench --sim -r            receive and drop on the simulated NIC
 *   xskx-bench -i veth0 -q 0 -l    forward on a real interface
 *   xskx-bench --sim --compare     the burst API against bare libxdp rings
 *
 * See --help for every option; bench.h for the map of the source.
 */
#include <stdio.h>

#include "bench.h"
#include "signals.h"

static bench_step_fn step_of(const struct bench_opts *o, bool baseline)
{
	if (baseline)
		return bench_baseline_rxdrop_step;
	if (o->xdp_action != BENCH_XDP_REDIRECT)
		return bench_xdp_step;
	switch (o->mode) {
	case BENCH_TXONLY:
		return bench_txonly_step;
	case BENCH_L2FWD:
		return bench_l2fwd_step;
	default:
		return bench_rxdrop_step;
	}
}

static int run_one(const struct bench_opts *o, bool baseline,
		   struct bench_result *res)
{
	struct bench b;
	int err = bench_setup(&b, o);

	if (!err)
		err = bench_run(&b, step_of(o, baseline),
				baseline ? "baseline" : "burst", res);
	bench_teardown(&b);
	return err;
}

int main(int argc, char **argv)
{
	struct bench_result first, second;
	struct bench_opts o;
	int err;

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
	signals_catch(false);

	err = run_one(&o, o.baseline, &first);
	if (err)
		return 1;
	if (!o.compare || signals_stop_requested()) {
		bench_report_result(&o, &first);
		return 0;
	}
	err = run_one(&o, true, &second);
	if (err)
		return 1;
	bench_report_compare(&o, &first, &second);
	return 0;
}
