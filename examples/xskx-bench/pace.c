// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: txonly's pace (--rate PPS, or -T's batch per cycle). By time
 * t since the start, rate * t packets are due; what was sent falls short of
 * that is what may go now. Nothing due: sleep until the next packet is,
 * within a slice short enough to notice the end of the run.
 */
#include "bench.h"

#define PACE_MAX_NAP_S 0.01

/* --pcap-pace recorded: the frames due by now at their own times. */
static uint32_t pace_recorded(struct bench *b, uint32_t want)
{
	const struct capture_load *c = &b->opts->replay;
	double now = run_now_s(), next;
	uint32_t n = 0;

	while (n < want &&
	       b->pace_start +
			       (double)capture_load_due_ns(c, b->tx_packets + n) /
				       1e9 <=
		       now)
		n++;
	if (n)
		return n;
	next = b->pace_start +
	       (double)capture_load_due_ns(c, b->tx_packets) / 1e9;
	if (next - now > PACE_MAX_NAP_S)
		next = now + PACE_MAX_NAP_S;
	run_nap((long)((next - now) * 1e9));
	return 0;
}

uint32_t bench_pace(struct bench *b, uint32_t want)
{
	double rate = (double)b->opts->rate_pps;
	double now, next;
	uint64_t due;

	if (b->opts->replay.n &&
	    b->opts->capture.timing == XSKX_SIM_CAPTURE_RECORDED)
		return pace_recorded(b, want);
	if (!rate)
		return want;
	now = run_now_s();
	due = (uint64_t)((now - b->pace_start) * rate);
	if (due > b->tx_packets)
		return due - b->tx_packets < want ?
			       (uint32_t)(due - b->tx_packets) :
			       want;
	next = b->pace_start + (double)(b->tx_packets + 1) / rate;
	if (next - now > PACE_MAX_NAP_S)
		next = now + PACE_MAX_NAP_S;
	run_nap((long)((next - now) * 1e9));
	return 0;
}
