// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The main thread's watch over a forwarding run (fwd_watch.h). */
#include "fwd_watch.h"
#include "fwd_sim.h"
#include "run.h"
#include "signals.h"

#define WATCH_TICK_NS 100000000L

/* --pcap-in: the replay on the first port handled all through (fwd_sim.h). */
static bool replay_done(const struct fwd_watch *w, struct fwd_sim_replay *r)
{
	uint64_t rx = 0, tx = 0;

	for (uint32_t k = 0; k < w->nqueues; k++) {
		struct fwd_counters c;

		fwd_counters_read(&w->queues[k]->ports[0], &c);
		rx += c.rx;
		fwd_counters_read(&w->queues[k]->ports[w->out_port], &c);
		tx += c.tx;
	}
	return fwd_sim_replay_done(r, w->sim, w->sim_in, w->sim_out, rx, tx);
}

/*
 * One interval, prev to now. False for an interval too short to report
 * (the run ended on a line): prev stays the last one reported.
 */
static bool report_interval(const struct fwd_watch *w, double prev_t,
			    double now_t, const void *prev, const void *now)
{
	if (now_t - prev_t < 1e-3)
		return false;
	if (!w->opts->quiet)
		w->line(w->ctx, prev, now);
	if (w->opts->json_lines)
		w->json_line(w->ctx, prev, now);
	return true;
}

const char *fwd_watch_run(const struct fwd_watch *w)
{
	const struct fwd_options *o = w->opts;
	void *prev = w->samples[0], *now = w->samples[1], *swap;
	double prev_t = w->start, next_line = w->start + 1;
	bool replay_ends = o->capture.in && o->capture.loops;
	struct fwd_sim_replay replay = { 0 };
	const char *reason = "duration";
	double t;

	w->take(w->ctx, w->start, prev);
	while (!signals_stop_requested()) {
		run_nap(WATCH_TICK_NS);
		if (w->look)
			w->look(w->look_ctx);
		t = run_now_s();
		if (o->duration_s && t - w->start >= o->duration_s)
			break;
		if (replay_ends && replay_done(w, &replay)) {
			reason = "replayed";
			break;
		}
		if (t < next_line)
			continue;
		next_line += 1;
		w->take(w->ctx, t, now);
		if (!report_interval(w, prev_t, t, prev, now))
			continue;
		prev_t = t;
		swap = prev;
		prev = now;
		now = swap;
	}
	/* The short last interval, since the last line. */
	t = run_now_s();
	w->take(w->ctx, t, now);
	report_interval(w, prev_t, t, prev, now);
	return signals_stop_requested() ? "signal" : reason;
}
