// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: what the user reads — a line per second while running, then
 * a summary in text or, with --json, one JSON object on stdout.
 *
 * Rates count the packets the mode's steps moved, so the burst API and the
 * baseline are measured the same way. Bits per second come from the
 * library's byte counters; the baseline bypasses the library, so for it they
 * are packets × --pkt-size, which is exact for the simulated source.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "census.h"
#include "json.h"
#include "median.h"

struct counter {
	const char *name;
	size_t off;
};

/* One counter a line: */
/* clang-format off */
#define FIELD(type, name) { #name, offsetof(struct type, name) }

/* The kernel's XDP_STATISTICS, under the kernel's names. */
static const struct counter xdp_counters[] = {
	FIELD(xskx_stats, rx_dropped),
	FIELD(xskx_stats, rx_invalid_descs),
	FIELD(xskx_stats, tx_invalid_descs),
	FIELD(xskx_stats, rx_ring_full),
	FIELD(xskx_stats, rx_fill_ring_empty_descs),
	FIELD(xskx_stats, tx_ring_empty_descs),
};

/* The library's own, but for its packet counts (the steps count those). */
static const struct counter library_counters[] = {
	FIELD(xskx_stats, rx_bytes),
	FIELD(xskx_stats, tx_bytes),
	FIELD(xskx_stats, tx_completed),
	FIELD(xskx_stats, rx_kicks),
	FIELD(xskx_stats, tx_kicks),
	FIELD(xskx_stats, kicks_skipped),
	FIELD(xskx_stats, kick_retries),
	FIELD(xskx_stats, fill_refills),
	FIELD(xskx_stats, tx_ring_full),
	FIELD(xskx_stats, tx_bad_completions),
};

/* Library counters worth a mention in the live line when they move. */
static const struct counter live_counters[] = {
	FIELD(xskx_stats, rx_kicks),
	FIELD(xskx_stats, tx_kicks),
	FIELD(xskx_stats, kick_retries),
	FIELD(xskx_stats, tx_ring_full),
};

static const struct counter port_counters[] = {
	FIELD(xskx_sim_port_stats, rx_packets),
	FIELD(xskx_sim_port_stats, rx_missed),
	FIELD(xskx_sim_port_stats, xdp_redirect),
	FIELD(xskx_sim_port_stats, xdp_pass),
	FIELD(xskx_sim_port_stats, xdp_drop),
	FIELD(xskx_sim_port_stats, xdp_tx),
	FIELD(xskx_sim_port_stats, xdp_redirect_err),
	FIELD(xskx_sim_port_stats, napi_polls),
	FIELD(xskx_sim_port_stats, napi_stops),
	FIELD(xskx_sim_port_stats, hw_refills),
	FIELD(xskx_sim_port_stats, tx_packets),
	FIELD(xskx_sim_port_stats, tx_bytes),
	FIELD(xskx_sim_port_stats, wire_drops),
	FIELD(xskx_sim_port_stats, source_packets),
	FIELD(xskx_sim_port_stats, wasted_polls),
};
/* clang-format on */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t value(const void *base, const struct counter *c)
{
	return *(const uint64_t *)((const char *)base + c->off);
}

static const char *const stop_names[] = {
	[BENCH_STOP_DURATION] = "duration",
	[BENCH_STOP_PACKETS] = "packets",
	[BENCH_STOP_SIGNAL] = "signal",
	[BENCH_STOP_IDLE] = "idle",
};

static double mbit(uint64_t lib_bytes, uint64_t packets, uint32_t pkt_size,
		   double seconds)
{
	uint64_t bytes = lib_bytes ? lib_bytes : packets * pkt_size;

	return seconds > 0 ? (double)bytes * 8 / seconds / 1e6 : 0;
}

static double rate(uint64_t packets, double seconds)
{
	return seconds > 0 ? (double)packets / seconds : 0;
}

/* The live line goes to stderr when stdout is reserved for the JSON. */
static FILE *live_stream(const struct bench_opts *o)
{
	return o->json ? stderr : stdout;
}

/* -a: this program's calls in the interval, per second and in all. */
static void report_app_stats(FILE *f, const struct bench_sample *prev,
			     const struct bench_sample *now)
{
	double dt = now->t - prev->t;
	const struct {
		const char *name;
		uint64_t now, prev;
	} calls[] = {
		{ "bursts", now->steps, prev->steps },
		{ "empty_bursts", now->idle_steps, prev->idle_steps },
		{ "polls", now->polls, prev->polls },
		{ "kicks", now->stats.rx_kicks + now->stats.tx_kicks,
		  prev->stats.rx_kicks + prev->stats.tx_kicks },
		{ "kicks_skipped", now->stats.kicks_skipped,
		  prev->stats.kicks_skipped },
	};

	for (size_t i = 0; i < COUNT(calls); i++)
		fprintf(f, "  %s %.0f/s (%llu)", calls[i].name,
			rate(calls[i].now - calls[i].prev, dt),
			(unsigned long long)calls[i].now);
}

static void report_line(const struct bench *b, const char *variant,
			double start, const struct bench_sample *prev,
			const struct bench_sample *now)
{
	const struct bench_opts *o = b->opts;
	FILE *f = live_stream(o);
	double dt = now->t - prev->t;
	uint64_t rx = now->rx_packets - prev->rx_packets;
	uint64_t tx = now->tx_packets - prev->tx_packets;
	struct loss lost;

	fprintf(f,
		"%6.1fs %5.2fs  %s %-8s rx %8.3f Mpps %9.1f Mbit/s %11llu pkts  tx %8.3f Mpps %9.1f Mbit/s %11llu pkts",
		now->t - start, dt, bench_mode_name(o->mode), variant,
		rate(rx, dt) / 1e6,
		mbit(now->stats.rx_bytes - prev->stats.rx_bytes, rx,
		     o->pkt_size, dt),
		(unsigned long long)now->rx_packets, rate(tx, dt) / 1e6,
		mbit(now->stats.tx_bytes - prev->stats.tx_bytes, tx,
		     o->pkt_size, dt),
		(unsigned long long)now->tx_packets);
	for (size_t i = 0; i < COUNT(xdp_counters); i++) {
		uint64_t d = value(&now->stats, &xdp_counters[i]) -
			     value(&prev->stats, &xdp_counters[i]);

		/* -x: every one, with its total, as xdpsock's extra stats. */
		if (o->extra_stats)
			fprintf(f, "  %s +%llu (%llu)", xdp_counters[i].name,
				(unsigned long long)d,
				(unsigned long long)value(&now->stats,
							  &xdp_counters[i]));
		else if (d)
			fprintf(f, "  %s +%llu", xdp_counters[i].name,
				(unsigned long long)d);
	}
	/* --queues: each queue's share of the rates above. */
	for (uint32_t k = 0; now->queues > 1 && k < now->queues; k++)
		fprintf(f, "  q%u rx %.3f tx %.3f Mpps", o->queue_id + k,
			rate(now->per_queue[k].rx_packets -
				     prev->per_queue[k].rx_packets, dt) / 1e6,
			rate(now->per_queue[k].tx_packets -
				     prev->per_queue[k].tx_packets, dt) / 1e6);
	if (o->app_stats)
		report_app_stats(f, prev, now);
	if (o->irq_match)
		fprintf(f, "  irqs %.0f/s (%llu)", rate(now->irqs - prev->irqs, dt),
			(unsigned long long)now->irqs);
	for (size_t i = 0; i < COUNT(live_counters); i++) {
		uint64_t d = value(&now->stats, &live_counters[i]) -
			     value(&prev->stats, &live_counters[i]);

		if (d)
			fprintf(f, "  %s +%llu", live_counters[i].name,
				(unsigned long long)d);
	}
	loss_since(&lost, &now->loss, &prev->loss);
	if (loss_total(&now->loss)) {
		fputs("  ", f);
		loss_print_interval(f, &lost, &now->loss, dt);
	}
	fputc('\n', f);
	fflush(f);
}

/* The mode's own rate: received for rxdrop, sent (forwarded) otherwise. */
static double mode_pps(const struct bench_opts *o, const struct bench_result *r)
{
	return rate(o->mode == BENCH_RXDROP ? r->rx_packets : r->tx_packets,
		    r->seconds);
}

/*
 * What the mode delivered: received (rxdrop), or sent and not lost on the
 * way out (txonly, l2fwd).
 */
static uint64_t delivered_of(const struct bench_opts *o, uint64_t rx_packets,
			     uint64_t tx_packets, const struct loss *l)
{
	return o->mode == BENCH_RXDROP ? rx_packets :
					 loss_delivered(tx_packets, l);
}

static uint64_t delivered(const struct bench_opts *o,
			  const struct bench_result *r)
{
	return delivered_of(o, r->rx_packets, r->tx_packets, &r->loss);
}

static void json_counters(struct json *j, const void *base,
			  const struct counter *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_u64(j, c[i].name, value(base, &c[i]));
}

static void json_settings(struct json *j, const struct bench_opts *o)
{
	json_str(j, "mode", bench_mode_name(o->mode));
	json_str(j, "api", bench_api_name(o->api));
	json_str(j, "backend", o->sim ? "sim" : "kernel");
	if (o->sim)
		json_str(j, "sim_mode",
			 o->sim_deterministic ? "deterministic" : "threaded");
	else
		json_str(j, "interface", o->ifname);
	json_u64(j, "queue", o->queue_id);
	json_u64(j, "queues", o->queues);
	json_u64(j, "batch", o->batch);
	json_u64(j, "pkt_size", o->pkt_size);
	json_bool(j, "multi_buffer", o->multi_buffer);
	json_bool(j, "unaligned", o->unaligned);
	json_bool(j, "hugepages", o->hugepages);
	json_bool(j, "rx_meta", o->rx_meta);
	json_bool(j, "shared_umem", o->shared_umem);
	json_u64(j, "rate_pps", o->rate_pps);
	json_str(j, "wakeup", bench_wakeup_name(o->wakeup));
	json_bool(j, "busy_poll", o->busy_poll);
	if (!o->sim)
		return;
	/* 0: the simulated NIC's default. */
	json_bool(j, "same_core", o->same_core);
	json_str(j, "xdp_action", bench_xdp_action_name(o->xdp_action));
	json_str(j, "rx_full_policy", bench_policy_name(o->rx_full_policy));
	json_u64(j, "nic_budget", o->nic_budget);
	json_u64(j, "hw_ring", o->hw_ring);
	json_u64(j, "hw_tx_ring", o->hw_tx_ring);
	json_u64(j, "refill_batch", o->refill_batch);
	json_u64(j, "tx_kick_batch", o->tx_kick_batch);
	json_u64(j, "tx_kick_usec", o->tx_kick_usec);
	json_u64(j, "flows", o->flows);
}

/*
 * The counters a summary and an interval share: totals since the start,
 * and the rates of the rx and tx packets moved in `seconds` (for the
 * summary, the whole run: rx = rx_packets, tx = tx_packets).
 */
static void json_totals(struct json *j, const struct bench_opts *o,
			uint64_t rx_packets, uint64_t tx_packets, uint64_t rx,
			uint64_t tx, double seconds,
			const struct xskx_stats *stats, const struct loss *l,
			const uint64_t *offered)
{
	json_u64(j, "rx_packets", rx_packets);
	json_u64(j, "tx_packets", tx_packets);
	json_num(j, "pps", rate(o->mode == BENCH_RXDROP ? rx : tx, seconds), 4);
	json_num(j, "rx_pps", rate(rx, seconds), 4);
	json_num(j, "tx_pps", rate(tx, seconds), 4);
	json_counters(j, stats, xdp_counters, COUNT(xdp_counters));
	json_counters(j, stats, library_counters, COUNT(library_counters));
	json_u64(j, "delivered", delivered_of(o, rx_packets, tx_packets, l));
	json_u64(j, "lost", loss_total(l));
	if (offered)
		json_u64(j, "offered", *offered);
	loss_json(j, "loss", l);
}

/*
 * Each queue's packets since the start and its rates over `seconds`
 * (prev: the counts at its start; NULL: 0), in "per_queue".
 */
static void json_per_queue(struct json *j, const struct bench_opts *o,
			   uint32_t queues,
			   const struct bench_queue_counts *now,
			   const struct bench_queue_counts *prev,
			   double seconds)
{
	json_array(j, "per_queue");
	for (uint32_t k = 0; k < queues; k++) {
		uint64_t rx0 = prev ? prev[k].rx_packets : 0;
		uint64_t tx0 = prev ? prev[k].tx_packets : 0;

		json_object(j, NULL);
		json_u64(j, "queue", o->queue_id + k);
		json_u64(j, "rx_packets", now[k].rx_packets);
		json_u64(j, "tx_packets", now[k].tx_packets);
		json_num(j, "rx_pps", rate(now[k].rx_packets - rx0, seconds), 4);
		json_num(j, "tx_pps", rate(now[k].tx_packets - tx0, seconds), 4);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_result(struct json *j, const struct bench_opts *o,
			const struct bench_result *r)
{
	const struct xskx_frame_census *c = &r->census;

	json_str(j, "variant", r->variant);
	json_bool(j, "zero_copy", r->info.zero_copy);
	json_bool(j, "need_wakeup", r->info.need_wakeup);
	if (r->xdp_mode)
		json_str(j, "xdp_mode", r->xdp_mode);
	json_bool(j, "poll", r->poll);
	json_str(j, "wakeup_why", r->wakeup_why);
	json_num(j, "duration_s", r->seconds, 4);
	json_str(j, "stopped_by", stop_names[r->stop]);
	json_totals(j, o, r->rx_packets, r->tx_packets, r->rx_packets,
		    r->tx_packets, r->seconds, &r->stats, &r->loss,
		    r->offered_known ? &r->offered : NULL);
	json_per_queue(j, o, r->queues, r->per_queue, NULL, r->seconds);
	json_u64(j, "steps", r->steps);
	json_u64(j, "idle_steps", r->idle_steps);
	json_u64(j, "polls", r->polls);
	json_u64(j, "tx_over_mtu", r->tx_over_mtu);
	if (o->irq_match)
		json_u64(j, "irqs", r->irqs);
	if (o->rx_meta) {
		json_object(j, "rx_meta_counts");
		json_u64(j, "packets", r->rx_meta.packets);
		json_u64(j, "timestamp", r->rx_meta.timestamp);
		json_u64(j, "hash", r->rx_meta.hash);
		json_u64(j, "vlan_tag", r->rx_meta.vlan_tag);
		json_object_end(j);
	}
	if (r->have_port) {
		json_object(j, "sim_port");
		json_counters(j, &r->port, port_counters, COUNT(port_counters));
		json_object_end(j);
	}
	json_object(j, "frames");
	json_u64(j, "size", r->frame_size);
	json_u64(j, "umem", r->frame_count);
	json_u64(j, "umem_bytes", (uint64_t)r->frame_count * r->frame_size);
	json_u64(j, "pool", c->pool);
	json_u64(j, "fill", c->fill);
	json_u64(j, "nic", c->nic);
	json_u64(j, "rx", c->rx);
	json_u64(j, "app", c->app);
	json_u64(j, "tx", c->tx);
	json_u64(j, "comp", c->comp);
	json_u64(j, "total", c->total);
	json_bool(j, "accounted", census_accounted(&r->census));
	json_object_end(j);
}

/* --json-lines: the interval's object, with the summary's counters. */
static void json_interval(const struct bench *b, const char *variant,
			  double start, const struct bench_sample *prev,
			  const struct bench_sample *now)
{
	const struct bench_opts *o = b->opts;
	struct json j;

	json_begin(&j, stdout, "xskx-bench", "interval");
	json_num(&j, "elapsed_s", now->t - start, 3);
	json_num(&j, "interval_s", now->t - prev->t, 3);
	json_settings(&j, o);
	json_str(&j, "variant", variant);
	json_totals(&j, o, now->rx_packets, now->tx_packets,
		    now->rx_packets - prev->rx_packets,
		    now->tx_packets - prev->tx_packets, now->t - prev->t,
		    &now->stats, &now->loss,
		    now->offered_known ? &now->offered : NULL);
	json_per_queue(&j, o, now->queues, now->per_queue, prev->per_queue,
		       now->t - prev->t);
	/* -a's and -I's counts, for plotting them */
	json_u64(&j, "steps", now->steps);
	json_u64(&j, "idle_steps", now->idle_steps);
	json_u64(&j, "polls", now->polls);
	if (o->irq_match)
		json_u64(&j, "irqs", now->irqs);
	json_end(&j);
}

void bench_report_interval(const struct bench *b, const char *variant,
			   double start, struct bench_sample *prev,
			   const struct bench_sample *now)
{
	/* Nothing left of the last second (the run ended on one). */
	if (now->t - prev->t < 1e-3)
		return;
	if (!b->opts->quiet)
		report_line(b, variant, start, prev, now);
	if (b->opts->json_lines)
		json_interval(b, variant, start, prev, now);
	*prev = *now;
}

static void text_counters(const char *title, const void *base,
			  const struct counter *c, size_t n)
{
	printf("  %s:", title);
	for (size_t i = 0; i < n; i++)
		printf(" %s %llu", c[i].name,
		       (unsigned long long)value(base, &c[i]));
	putchar('\n');
}

static void text_result(const struct bench_opts *o,
			const struct bench_result *r)
{
	const struct xskx_frame_census *c = &r->census;

	printf("%s %s on %s (%s%s%s), %.2f s (stopped by %s): rx %llu packets %.3f Mpps, tx %llu packets %.3f Mpps\n",
	       bench_mode_name(o->mode), r->variant, r->info.backend,
	       r->info.zero_copy ? "zero-copy" : "copy",
	       r->xdp_mode ? ", XDP " : "", r->xdp_mode ? r->xdp_mode : "",
	       r->seconds, stop_names[r->stop],
	       (unsigned long long)r->rx_packets,
	       rate(r->rx_packets, r->seconds) / 1e6,
	       (unsigned long long)r->tx_packets,
	       rate(r->tx_packets, r->seconds) / 1e6);
	printf("  wakeup: %s (%s)\n", r->poll ? "poll" : "busy loop",
	       r->wakeup_why);
	for (uint32_t k = 0; r->queues > 1 && k < r->queues; k++)
		printf("  queue %u: rx %llu packets %.3f Mpps, tx %llu packets %.3f Mpps\n",
		       o->queue_id + k,
		       (unsigned long long)r->per_queue[k].rx_packets,
		       rate(r->per_queue[k].rx_packets, r->seconds) / 1e6,
		       (unsigned long long)r->per_queue[k].tx_packets,
		       rate(r->per_queue[k].tx_packets, r->seconds) / 1e6);
	text_counters("XDP statistics", &r->stats, xdp_counters,
		      COUNT(xdp_counters));
	text_counters("library", &r->stats, library_counters,
		      COUNT(library_counters));
	if (r->have_port)
		text_counters("sim port", &r->port, port_counters,
			      COUNT(port_counters));
	printf("  delivered %llu, ", (unsigned long long)delivered(o, r));
	loss_print_text(stdout, &r->loss, 0);
	if (r->offered_known)
		printf("; offered %llu (what the port received)",
		       (unsigned long long)r->offered);
	putchar('\n');
	if (r->tx_over_mtu)
		printf("  tx_over_mtu %llu: packets sent larger than the interface's MTU carries\n",
		       (unsigned long long)r->tx_over_mtu);
	if (o->rx_meta)
		printf("  rx metadata: %llu packets carried it; timestamp %llu, hash %llu, VLAN tag %llu\n",
		       (unsigned long long)r->rx_meta.packets,
		       (unsigned long long)r->rx_meta.timestamp,
		       (unsigned long long)r->rx_meta.hash,
		       (unsigned long long)r->rx_meta.vlan_tag);
	if (o->irq_match)
		printf("  irqs %llu (lines of /proc/interrupts containing \"%s\")\n",
		       (unsigned long long)r->irqs, o->irq_match);
	printf("  frames: pool %u fill %u nic %u rx %u app %u tx %u comp %u = %u of %u\n",
	       c->pool, c->fill, c->nic, c->rx, c->app, c->tx, c->comp,
	       c->total, r->frame_count);
}

static void warn_unaccounted(const struct bench_result *r)
{
	if (!census_accounted(&r->census))
		fprintf(stderr,
			"xskx-bench: warning: %s run: the frame census counts %u frames, the UMEM has %u\n",
			r->variant, r->census.total, r->frame_count);
}

/*
 * Runs shorter than this give rates that a busy machine moves by several
 * per cent from one run to the next: a 3,000,000-packet --compare of 85 ms
 * gave ratios from 0.94 to 1.03 over repeated runs.
 */
#define MEANINGFUL_RUN_S 1.0

static void warn_short(const struct bench_result *r)
{
	if (r->seconds < MEANINGFUL_RUN_S && r->stop != BENCH_STOP_SIGNAL)
		fprintf(stderr,
			"xskx-bench: warning: the %s run lasted %.3f s: a rate from a run under %.0f s is noise, not a measurement; lengthen the run (--duration, --packets)\n",
			r->variant, r->seconds, MEANINGFUL_RUN_S);
}

void bench_report_result(const struct bench_opts *o,
			 const struct bench_result *r)
{
	struct json j = { 0 };

	warn_unaccounted(r);
	warn_short(r);
	if (!o->json) {
		text_result(o, r);
		return;
	}
	json_begin(&j, stdout, "xskx-bench", "summary");
	json_settings(&j, o);
	json_result(&j, o, r);
	json_end(&j);
}

void bench_report_compare(const struct bench_opts *o,
			  const struct bench_result *burst,
			  const struct bench_result *baseline, uint32_t n)
{
	double burst_pps[BENCH_MAX_PAIRS], baseline_pps[BENCH_MAX_PAIRS];
	double ratio[BENCH_MAX_PAIRS], sorted[BENCH_MAX_PAIRS];
	double mid_burst, mid_baseline, mid_ratio;
	struct json j = { 0 };

	for (uint32_t i = 0; i < n; i++) {
		warn_unaccounted(&burst[i]);
		warn_unaccounted(&baseline[i]);
		warn_short(&burst[i]);
		warn_short(&baseline[i]);
		burst_pps[i] = mode_pps(o, &burst[i]);
		baseline_pps[i] = mode_pps(o, &baseline[i]);
		ratio[i] = baseline_pps[i] > 0 ? burst_pps[i] / baseline_pps[i] : 0;
	}
	memcpy(sorted, ratio, n * sizeof(*ratio));
	mid_ratio = median_sort(sorted, n);
	mid_burst = median_sort(burst_pps, n);
	mid_baseline = median_sort(baseline_pps, n);
	if (!o->json) {
		text_result(o, &burst[n - 1]);
		text_result(o, &baseline[n - 1]);
		printf("%s: %s API %.3f Mpps, bare libxdp rings %.3f Mpps, %s/baseline %.3f (medians of %u interleaved pairs; ratios %.3f to %.3f)\n",
		       bench_mode_name(o->mode), bench_api_name(o->api),
		       mid_burst / 1e6,
		       mid_baseline / 1e6, bench_api_name(o->api), mid_ratio,
		       n, sorted[0],
		       sorted[n - 1]);
		return;
	}
	json_begin(&j, stdout, "xskx-bench", "summary");
	json_settings(&j, o);
	json_num(&j, "burst_pps", mid_burst, 4);
	json_num(&j, "baseline_pps", mid_baseline, 4);
	json_num(&j, "ratio", mid_ratio, 4);
	json_num(&j, "ratio_min", sorted[0], 4);
	json_num(&j, "ratio_max", sorted[n - 1], 4);
	json_array(&j, "ratios");
	for (uint32_t i = 0; i < n; i++)
		json_num(&j, NULL, ratio[i], 4);
	json_array_end(&j);
	/* The last pair's whole results. */
	json_object(&j, "burst");
	json_result(&j, o, &burst[n - 1]);
	json_object_end(&j);
	json_object(&j, "baseline");
	json_result(&j, o, &baseline[n - 1]);
	json_object_end(&j);
	json_end(&j);
}
