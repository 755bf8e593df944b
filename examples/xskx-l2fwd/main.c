// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd: an L2 forwarder on the xskx public API.
 *
 *   xskx-l2fwd -i veth1 -o veth2        forward between two interfaces
 *   xskx-l2fwd -i veth1                 reflect on one, MACs swapped
 *   xskx-l2fwd --sim -q 2 -d 5          the same on the simulated NIC
 *
 * One thread per queue, each with its own UMEM and forwarding core (fwd.c);
 * this thread prints the counters every second and, at the end of
 * --duration or at SIGINT/SIGTERM, stops the others, prints the summary and
 * closes every socket, which detaches the XDP program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "l2fwd.h"

int l2fwd_stop;

/* An idle forwarder naps between polls rather than spin a core at 100%. */
#define IDLE_STEPS_BEFORE_NAP 256
#define IDLE_NAP_NS 20000L
#define MAIN_TICK_NS 100000000L

int l2fwd_lib_error(const char *call, int err)
{
	const char *why = xskx_last_error();

	fprintf(stderr, "xskx-l2fwd: %s: %s%s%s\n", call, xskx_strerror(err),
		*why ? ": " : "", why);
	return err;
}

/* Errors are printed by l2fwd_lib_error() with the call that failed. */
static void log_to_stderr(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level != XSKX_LOG_ERROR)
		fprintf(stderr, "xskx: %s\n", msg);
}

static void request_stop(int sig)
{
	(void)sig;
	__atomic_store_n(&l2fwd_stop, 1, __ATOMIC_RELAXED);
}

static bool stop_requested(void)
{
	return __atomic_load_n(&l2fwd_stop, __ATOMIC_RELAXED);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = request_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(long ns)
{
	struct timespec ts = { .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

static void pin_this_thread(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		fprintf(stderr,
			"xskx-l2fwd: warning: cannot pin to CPU %d (%s): running unpinned\n",
			cpu, xskx_strerror(err));
}

static void *run_queue(void *arg)
{
	struct l2fwd_queue *q = arg;
	uint32_t idle = 0;

	if (q->cpu >= 0)
		pin_this_thread(q->cpu);
	while (!stop_requested()) {
		int moved = fwd_step(&q->fwd);

		if (moved < 0) {
			q->error = moved;
			request_stop(0);
			break;
		}
		idle = moved ? 0 : idle + 1;
		if (idle >= IDLE_STEPS_BEFORE_NAP)
			nap(IDLE_NAP_NS);
	}
	return NULL;
}

static int open_queues(struct l2fwd *app)
{
	const struct l2fwd_opts *o = app->opts;

	app->queues = calloc(o->queues, sizeof(*app->queues));
	if (!app->queues)
		return l2fwd_lib_error("calloc", -ENOMEM);
	for (uint32_t k = 0; k < o->queues; k++) {
		struct l2fwd_queue *q = &app->queues[k];
		struct fwd_config cfg = {
			.nports = app->nports, .queue_id = k,
			.batch = o->batch, .frames = o->frames,
			.xdp_mode = o->xdp_mode,
		};
		int err;

		for (uint32_t i = 0; i < app->nports; i++)
			cfg.ports[i] = (struct fwd_endpoint){
				.ifname = o->ifnames[i],
				.sim_port = app->sim_ports[i],
			};
		q->index = k;
		q->cpu = o->first_cpu < 0 ? -1 : o->first_cpu + (int)k;
		err = fwd_open(&q->fwd, &cfg);
		if (err)
			return l2fwd_lib_error("opening the sockets", err);
	}
	return 0;
}

static int start_queues(struct l2fwd *app)
{
	int err;

	if (app->sim && (err = xskx_sim_start(app->sim)))
		return l2fwd_lib_error("xskx_sim_start", err);
	for (uint32_t k = 0; k < app->opts->queues; k++) {
		struct l2fwd_queue *q = &app->queues[k];

		err = pthread_create(&q->thread, NULL, run_queue, q);
		if (err)
			return l2fwd_lib_error("pthread_create", -err);
		q->running = true;
	}
	return 0;
}

/* Stop the threads, then the NIC, so that the counters read next are final. */
static int stop_queues(struct l2fwd *app)
{
	int err = 0;

	request_stop(0);
	for (uint32_t k = 0; app->queues && k < app->opts->queues; k++) {
		struct l2fwd_queue *q = &app->queues[k];

		if (q->running)
			pthread_join(q->thread, NULL);
		q->running = false;
		if (q->error)
			err = l2fwd_lib_error("forwarding", q->error);
		fwd_finish(&q->fwd);
	}
	if (app->sim)
		xskx_sim_stop(app->sim);
	return err;
}

static void close_queues(struct l2fwd *app)
{
	for (uint32_t k = 0; app->queues && k < app->opts->queues; k++) {
		int err = fwd_close(&app->queues[k].fwd);

		if (err)
			l2fwd_lib_error("closing the sockets", err);
	}
	free(app->queues);
	app->queues = NULL;
	l2fwd_sim_destroy(app);
}

/* Print a line per port and queue every second until the run ends. */
static const char *watch(struct l2fwd *app, double start)
{
	const struct l2fwd_opts *o = app->opts;
	static struct l2fwd_sample a, b;
	struct l2fwd_sample *prev = &a, *now = &b, *swap;
	double next_line = start + 1;

	l2fwd_sample_take(app, start, prev);
	while (!stop_requested()) {
		double t;

		nap(MAIN_TICK_NS);
		t = now_s();
		if (o->duration_s && t - start >= o->duration_s)
			break;
		if (t < next_line)
			continue;
		next_line += 1;
		l2fwd_sample_take(app, t, now);
		if (!o->quiet)
			l2fwd_report_line(app, prev, now);
		swap = prev;
		prev = now;
		now = swap;
	}
	return stop_requested() ? "signal" : "duration";
}

int main(int argc, char **argv)
{
	struct l2fwd_opts o;
	struct l2fwd app = { .opts = &o };
	const char *stop_reason;
	int err;

	switch (l2fwd_parse_options(argc, argv, &o)) {
	case L2FWD_PARSE_HELP:
		return 0;
	case L2FWD_PARSE_BAD:
		return 2;
	case L2FWD_PARSE_RUN:
		break;
	}
	xskx_set_log(log_to_stderr, NULL);
	catch_signals();
	app.nports = o.reflect ? 1 : 2;
	for (uint32_t i = 0; i < app.nports; i++)
		app.port_names[i] = o.ifnames[i];

	err = o.sim ? l2fwd_sim_create(&app) : 0;
	if (!err)
		err = open_queues(&app);
	if (!err)
		err = start_queues(&app);
	if (err) {
		stop_queues(&app);
		close_queues(&app);
		return 1;
	}
	app.start = now_s();
	stop_reason = watch(&app, app.start);
	/* A thread that failed stopped the run: that is the reason. */
	err = stop_queues(&app);
	l2fwd_report_summary(&app, now_s() - app.start,
			     err ? "error" : stop_reason);
	close_queues(&app);
	return err ? 1 : 0;
}
