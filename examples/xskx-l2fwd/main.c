// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd: an L2 forwarder on the xskx public API.
 *
 *   xskx-l2fwd -i veth1 -o veth2        forward between two interfaces
 *   xskx-l2fwd -i veth1                 reflect on one, MACs swapped
 *   xskx-l2fwd -i veth1 -q 2 --queues 2 queues 2 and 3 of veth1
 *   xskx-l2fwd --sim --queues 2 -d 5    the same on the simulated NIC
 *
 * One thread per queue, each with its own UMEM and forwarding core (fwd.c);
 * this thread prints the counters every second and, at the end of
 * --duration or at SIGINT/SIGTERM, stops the others, prints the summary and
 * closes every socket, which detaches the XDP program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fwd_sim.h"
#include "fwd_watch.h"
#include "l2fwd.h"
#include "run.h"
#include "signals.h"


static int step_queue(void *arg)
{
	struct l2fwd_queue *q = arg;

	return fwd_publish_every(&q->fwd, &q->pub, fwd_step(&q->fwd));
}

static int wait_queue(void *arg, int timeout_ms)
{
	struct l2fwd_queue *q = arg;

	return fwd_wait(&q->fwd, timeout_ms);
}

static int open_queues(struct l2fwd *app)
{
	const struct l2fwd_opts *o = app->opts;

	int err = fwd_ports_open(&o->fwd, app->sim_ports, app->nports,
				 app->ports);

	if (err)
		return run_lib_error("opening the ports", err);
	err = capture_run_open(&app->captures, &o->fwd.capture, !o->fwd.sim,
			       o->fwd.queues, "xskx-l2fwd");
	if (err)
		return err;
	app->queues = calloc(o->fwd.queues, sizeof(*app->queues));
	if (!app->queues)
		return run_lib_error("calloc", -ENOMEM);
	for (uint32_t k = 0; k < o->fwd.queues; k++) {
		struct l2fwd_queue *q = &app->queues[k];
		struct fwd_config cfg = {
			.nports = app->nports, .queue_id = o->fwd.first_queue + k,
			.batch = o->fwd.batch, .frames = o->fwd.frames,
			.tx_full = o->fwd.tx_full,
			.multi_buffer = o->multi_buffer,
			.keep_partial_csum = o->fwd.keep_partial_csum,
			.tx_kick_batch = o->fwd.tx_kick_batch,
			.tx_kick_usec = o->fwd.tx_kick_usec,
			.capture = app->captures.out,
		};

		for (uint32_t i = 0; i < app->nports; i++)
			cfg.ports[i] = app->ports[i];
		q->index = o->fwd.first_queue + k;
		q->thread = (struct worker){
			.step = step_queue, .wait = wait_queue, .ctx = q,
			.cpu = o->fwd.first_cpu < 0 ? -1 : o->fwd.first_cpu + (int)k,
		};
		err = fwd_open(&q->fwd, &cfg);
		if (err)
			return run_lib_error("opening the sockets", err);
		err = fwd_publish(&q->fwd, &q->pub);
		if (err)
			return run_lib_error("xskx_socket_stats", err);
	}
	/* The kernel's counters run since boot: the baseline is now. */
	for (uint32_t i = 0; i < app->nports; i++)
		loss_port_begin(&app->loss[i], o->fwd.sim ? NULL : o->fwd.ifnames[i],
				app->sim_ports[i], app->ports[i]);
	return 0;
}

static int start_queues(struct l2fwd *app)
{
	int err;

	if (app->sim && (err = xskx_sim_start(app->sim)))
		return run_lib_error("xskx_sim_start", err);
	for (uint32_t k = 0; k < app->opts->fwd.queues; k++)
		if ((err = worker_start(&app->queues[k].thread)))
			return err;
	return 0;
}

/* Stop the threads, then the NIC, so that the counters read next are final. */
static int stop_queues(struct l2fwd *app)
{
	int err = 0;

	signals_request_stop();
	for (uint32_t k = 0; app->queues && k < app->opts->fwd.queues; k++) {
		struct l2fwd_queue *q = &app->queues[k];
		int thread_err = worker_join(&q->thread);

		err = thread_err ? thread_err : err;
		fwd_finish(&q->fwd);
	}
	if (app->sim)
		xskx_sim_stop(app->sim);
	return err;
}

static void close_queues(struct l2fwd *app)
{
	/* After a failed start: the run's end closed them otherwise. */
	capture_run_close(&app->captures, &app->opts->fwd.capture, "xskx-l2fwd");
	for (uint32_t k = 0; app->queues && k < app->opts->fwd.queues; k++) {
		int err = fwd_close(&app->queues[k].fwd);

		if (err)
			run_lib_error("closing the sockets", err);
	}
	free(app->queues);
	app->queues = NULL;
	fwd_ports_close(app->ports, app->nports);
	l2fwd_sim_destroy(app);
}

static void take_sample(void *app, double t, void *sample)
{
	l2fwd_sample_take(app, t, sample);
}

/* Print a line per port and queue every second until the run ends. */
static const char *watch(struct l2fwd *app)
{
	static struct l2fwd_sample a, b;
	struct fwd_watch w = {
		.opts = &app->opts->fwd, .start = app->start, .ctx = app,
		.samples = { &a, &b }, .take = take_sample,
		.line = l2fwd_report_line, .json_line = l2fwd_report_json_line,
		.nqueues = app->opts->fwd.queues, .out_port = app->nports - 1,
		.sim = app->sim, .sim_in = app->sim_ports[0],
		.sim_out = app->sim_ports[app->nports - 1],
	};

	for (uint32_t k = 0; k < w.nqueues; k++)
		w.queues[k] = &app->queues[k].fwd;
	return fwd_watch_run(&w);
}

int main(int argc, char **argv)
{
	struct l2fwd_opts o;
	struct l2fwd app = { .opts = &o };
	const char *stop_reason;
	int err;

	switch (l2fwd_parse_options(argc, argv, &o)) {
	case FWD_PARSE_HELP:
		return 0;
	case FWD_PARSE_BAD:
		return 2;
	case FWD_PARSE_RUN:
		break;
	}
	run_log_to_stderr(API_WORDS_L2FWD);
	signals_catch(false);
	app.nports = o.reflect ? 1 : 2;
	for (uint32_t i = 0; i < app.nports; i++)
		app.port_names[i] = o.fwd.ifnames[i];

	err = o.fwd.sim ? l2fwd_sim_create(&app) : 0;
	if (!err)
		err = open_queues(&app);
	if (!err)
		err = start_queues(&app);
	if (err) {
		stop_queues(&app);
		close_queues(&app);
		return 1;
	}
	app.start = run_now_s();
	stop_reason = watch(&app);
	/* A thread that failed stopped the run: that is the reason. */
	err = stop_queues(&app);
	if (capture_run_close(&app.captures, &o.fwd.capture, "xskx-l2fwd"))
		err = -EIO;
	if (o.fwd.sim && o.fwd.capture.out &&
	    fwd_sim_capture_close(app.sim_ports[app.nports - 1],
				  o.fwd.capture.out, "xskx-l2fwd"))
		err = -EIO;
	/* The threads are gone: this one reads the sockets now. */
	for (uint32_t k = 0; k < o.fwd.queues; k++) {
		int publish_err = fwd_publish(&app.queues[k].fwd, &app.queues[k].pub);

		if (publish_err)
			run_lib_error("xskx_socket_stats", publish_err);
	}
	l2fwd_report_summary(&app, run_now_s() - app.start,
			     err ? "error" : stop_reason);
	close_queues(&app);
	return err ? 1 : 0;
}
