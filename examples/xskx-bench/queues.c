// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench --queues N (even 1): queue -q + k of the one port, each with its
 * own UMEM and sockets (a struct bench of its own), stepped by a thread of
 * its own (examples/common/worker.c) on --app-cpu + k. This thread watches:
 * it prints the line per interval from what the queues publish, stops them
 * at the end of the run and sums their final counters, keeping each queue's
 * packets. On --sim the NIC runs on a thread of its own (--nic-cpu): one
 * port of N queues, over which RSS spreads the source's flows.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "signals.h"
#include "worker.h"

/* Steps between two publications: rare against a burst, many per second. */
#define STEPS_PER_PUBLISH 1024
#define WATCH_NAP_NS 10000000L

#define U64S(s) (sizeof(s) / sizeof(uint64_t))

struct bench_queue {
	struct bench b;
	bench_step_fn step;
	struct worker worker;
	uint32_t unpublished_steps;
	/*
	 * The queue's counters, published by its thread for the watching one
	 * (a socket's statistics are its owner's to read), an atomic store
	 * per field. Only uint64_t fields: copied as arrays of them.
	 */
	struct published {
		uint64_t rx_packets, tx_packets, steps, idle_steps, polls;
		struct xskx_stats stats;
	} pub;
};

static int publish(struct bench_queue *q)
{
	struct published now = {
		.rx_packets = q->b.rx_packets, .tx_packets = q->b.tx_packets,
		.steps = q->b.steps, .idle_steps = q->b.idle_steps,
		.polls = q->b.polls,
	};
	uint64_t *dst = (uint64_t *)&q->pub;
	const uint64_t *src = (const uint64_t *)&now;
	int err = bench_socket_stats(&q->b, &now.stats);

	if (err)
		return run_lib_error("xskx_socket_stats", err);
	_Static_assert(sizeof(now) % sizeof(uint64_t) == 0,
		       "struct published holds uint64_t counters only");
	for (size_t i = 0; i < U64S(now); i++)
		__atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
	q->unpublished_steps = 0;
	return 0;
}

static void read_published(const struct bench_queue *q, struct published *out)
{
	const uint64_t *src = (const uint64_t *)&q->pub;
	uint64_t *dst = (uint64_t *)out;

	for (size_t i = 0; i < U64S(*out); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* A queue's thread: the mode's step, as bench_run() takes it. */
static int step_queue(void *arg)
{
	struct bench_queue *q = arg;
	int n, err;

	/* Poll or loop, decided on this queue's own thread, where it runs. */
	if (!q->b.wakeup_why && (err = bench_wakeup(&q->b)))
		return err;
	if (q->b.poll && (err = bench_wait_ready(&q->b)))
		return err;
	n = q->step(&q->b);
	if (n < 0)
		return run_lib_error(bench_mode_name(q->b.opts->mode), n);
	q->b.steps++;
	q->b.idle_steps += n == 0;
	if (++q->unpublished_steps >= STEPS_PER_PUBLISH && (err = publish(q)))
		return err;
	return n;
}

/* Every queue's published counters, summed, and the port's losses. */
static void sample(const struct bench_queue *qs, uint32_t n, double t,
		   struct bench_sample *s)
{
	struct loss_sock sock = { 0 };

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->queues = n;
	for (uint32_t k = 0; k < n; k++) {
		struct published p;

		read_published(&qs[k], &p);
		s->per_queue[k] = (struct bench_queue_counts){ p.rx_packets,
							       p.tx_packets };
		s->rx_packets += p.rx_packets;
		s->tx_packets += p.tx_packets;
		s->steps += p.steps;
		s->idle_steps += p.idle_steps;
		s->polls += p.polls;
		bench_stats_add(&s->stats, &p.stats);
	}
	/* The port's stages once, the sockets' summed: loss.h. */
	loss_sock_add(&sock, &s->stats);
	loss_port_read(&qs[0].b.loss, &sock, 0, &s->loss);
	s->offered_known = loss_port_offered(&qs[0].b.loss, &s->offered);
}

static void census_add(struct xskx_frame_census *sum,
		       const struct xskx_frame_census *c)
{
	sum->pool += c->pool;
	sum->fill += c->fill;
	sum->nic += c->nic;
	sum->rx += c->rx;
	sum->app += c->app;
	sum->tx += c->tx;
	sum->comp += c->comp;
	sum->total += c->total;
	sum->double_frees += c->double_frees;
	sum->foreign_frees += c->foreign_frees;
	sum->unaccounted += c->unaccounted;
}

/* The threads are gone, the NIC stops here: every queue's final counters. */
static int finish_all(struct bench_queue *qs, uint32_t n,
		      struct bench_result *res)
{
	static struct bench_result one;
	struct loss_sock sock = { 0 };
	int err = bench_finish(&qs[0].b, res);

	for (uint32_t k = 1; k < n && !err; k++) {
		err = bench_finish(&qs[k].b, &one);
		if (err)
			break;
		res->per_queue[k] = one.per_queue[0];
		res->rx_packets += one.rx_packets;
		res->tx_packets += one.tx_packets;
		res->steps += one.steps;
		res->idle_steps += one.idle_steps;
		res->polls += one.polls;
		res->tx_over_mtu += one.tx_over_mtu;
		bench_stats_add(&res->stats, &one.stats);
		census_add(&res->census, &one.census);
		res->frame_count += one.frame_count;
	}
	res->queues = n;
	/* Queue 0's wakeup stands for all: each queue chose on its own thread. */
	res->poll = qs[0].b.poll;
	res->wakeup_why = qs[0].b.wakeup_why ? qs[0].b.wakeup_why :
					       "no burst ran";
	loss_sock_add(&sock, &res->stats);
	loss_port_read(&qs[0].b.loss, &sock, 0, &res->loss);
	return err;
}

static int setup_queues(struct bench_queue *qs, const struct bench_opts *o,
			bench_step_fn step)
{
	for (uint32_t k = 0; k < o->queues; k++) {
		struct bench_queue *q = &qs[k];
		int err = bench_setup_queue(&q->b, o, k, k ? &qs[0].b : NULL);

		if (err)
			return err;
		q->step = step;
		q->worker = (struct worker){
			.step = step_queue, .ctx = q,
			.cpu = o->app_cpu < 0 ? -1 : o->app_cpu + (int)k,
		};
		snprintf(q->worker.name, sizeof(q->worker.name), "bench-q%u",
			 q->b.queue_id);
		if ((err = publish(q)))
			return err;
	}
	return 0;
}

/*
 * Watch until --duration, --packets (summed) or a stop request, a line per
 * interval from *last on (the last one printed, then).
 */
static enum bench_stop_reason watch(const struct bench_queue *qs,
				    const struct bench_opts *o, double start,
				    struct bench_sample *last)
{
	static struct bench_sample cur;
	double next_line = start + o->interval_s;

	while (!signals_stop_requested()) {
		double t;

		run_nap(WATCH_NAP_NS);
		t = run_now_s();
		sample(qs, o->queues, t, &cur);
		if (o->packets && cur.rx_packets >= o->packets)
			return BENCH_STOP_PACKETS;
		if (t - start >= o->duration_s)
			return BENCH_STOP_DURATION;
		if (t >= next_line) {
			next_line += o->interval_s;
			bench_report_interval(&qs[0].b, bench_api_name(o->api),
					      start, last, &cur);
		}
	}
	return BENCH_STOP_SIGNAL;
}

int bench_run_queues(const struct bench_opts *o, bench_step_fn step,
		     struct bench_result *res)
{
	static struct bench_queue qs[BENCH_MAX_QUEUES];
	static struct bench_sample last, cur;
	uint32_t n = o->queues, started = 0;
	double start;
	int err;

	memset(res, 0, sizeof(*res));
	res->variant = bench_api_name(o->api);
	err = setup_queues(qs, o, step);
	if (!err) {
		/* The kernel's counters run since boot: the baseline is now. */
		loss_port_begin(&qs[0].b.loss, o->sim ? NULL : o->ifname,
				qs[0].b.sim_port, qs[0].b.port);
		err = bench_start_nic(&qs[0].b);
	}
	start = run_now_s();
	sample(qs, n, start, &last);
	/* --rate and -T pace each queue's sender from now. */
	for (uint32_t k = 0; k < n; k++)
		qs[k].b.pace_start = start;
	for (; !err && started < n; started++)
		err = worker_start(&qs[started].worker);
	if (!err)
		res->stop = watch(qs, o, start, &last);
	signals_request_stop();
	for (uint32_t k = 0; k < started; k++) {
		int thread_err = worker_join(&qs[k].worker);

		err = err ? err : thread_err;
	}
	res->seconds = run_now_s() - start;
	/* The threads are gone: this one reads their sockets now. */
	for (uint32_t k = 0; !err && k < n; k++)
		err = publish(&qs[k]);
	if (!err) {
		sample(qs, n, start + res->seconds, &cur);
		bench_report_interval(&qs[0].b, bench_api_name(o->api), start,
				      &last, &cur);
		err = finish_all(qs, n, res);
	}
	for (uint32_t k = n; k-- > 0;)
		bench_teardown(&qs[k].b);
	return err;
}
