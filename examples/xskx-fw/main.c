// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: a user-space firewall on the xskx public API.
 *
 *   xskx-fw -i veth1 -o veth2 -r fw.rules    between two interfaces
 *   xskx-fw --sim -r fw.rules -d 5           on the simulated NIC
 *   xskx-fw --check fw.rules                 validate a rule file
 *   xskx-fw -i veth1 -o veth2 --queues 4 -r fw.rules   queues 0..3 of both
 *
 * A thread per queue forwards (fw_step; queue -q + k of both ports, with
 * its own UMEM), all of them judging with the one rule set; this thread
 * prints the counters every second, reloads the rules at SIGHUP (every
 * queue switches: fw.h says how) and, at the end of --duration or at
 * SIGINT/SIGTERM, stops the others, prints the summary and closes the
 * sockets, which detaches the XDP program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fwapp.h"
#include "fwd_sim.h"
#include "fwd_watch.h"
#include "run.h"
#include "signals.h"



void fwapp_print_errors(FILE *f, const char *path, const struct fw_errors *errs)
{
	for (uint32_t i = 0; i < errs->count; i++) {
		const struct fw_error *e = &errs->list[i];

		if (e->line)
			fprintf(f, "%s:%u: %s\n", path, e->line, e->text);
		else if (e->kind == FW_ERR_FILE)
			fprintf(f, "%s\n", e->text);
		else
			fprintf(f, "%s: %s\n", path, e->text);
	}
}

/* A queue's thread: its fw_queue and the counters it publishes. */
struct queue_step {
	struct fw_queue *q;
	struct fwd_published *pub;
};

static int step_queue(void *arg)
{
	struct queue_step *s = arg;

	return fwd_publish_every(&s->q->fwd, s->pub, fw_step(s->q));
}

static int wait_queue(void *arg, int timeout_ms)
{
	struct queue_step *s = arg;

	return fwd_wait(&s->q->fwd, timeout_ms);
}

/* Publish every queue's socket counters: at the start and once stopped. */
static int publish_all(struct fwapp *app)
{
	for (uint32_t k = 0; k < app->fw.nqueues; k++) {
		int err = fwd_publish(&app->fw.queues[k].fwd, &app->pub[k]);

		if (err)
			return run_lib_error("xskx_socket_stats", err);
	}
	return 0;
}

static int start_queues(struct fwapp *app, struct queue_step steps[])
{
	const struct fwd_options *o = &app->opts->fwd;

	for (uint32_t k = 0; k < app->fw.nqueues; k++) {
		int err;

		steps[k] = (struct queue_step){ &app->fw.queues[k], &app->pub[k] };
		app->threads[k] = (struct worker){
			.step = step_queue, .wait = wait_queue,
			.ctx = &steps[k],
			.cpu = o->first_cpu < 0 ? -1 : o->first_cpu + (int)k,
		};
		if ((err = worker_start(&app->threads[k])))
			return err;
	}
	return 0;
}

/* Stop and join every queue's thread; the first error that ended one. */
static int stop_queues(struct fwapp *app)
{
	int err = 0;

	signals_request_stop();
	for (uint32_t k = 0; k < app->fw.nqueues; k++) {
		int thread_err = worker_join(&app->threads[k]);

		err = err ? err : thread_err;
	}
	return err;
}

static uint32_t count_in_xdp(const struct fw_ruleset *rs)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rs->count; i++)
		n += rs->rules[i].in_xdp;
	return n;
}

/* --check: every error, or the rules with the stage each runs in. */
static int check_file(const char *path)
{
	struct xskx_filter_entry *entries = calloc(FW_MAX_RULES, sizeof(*entries));
	struct fw_ruleset *rs;
	struct fw_errors errs;
	int err;

	if (!entries)
		return 1;
	err = fw_rules_load(path, &rs, &errs);
	if (err) {
		fwapp_print_errors(stderr, path, &errs);
		fprintf(stderr, "xskx-fw: %s: %u error%s, nothing loaded\n", path,
			errs.count, errs.count == 1 ? "" : "s");
		fw_errors_free(&errs);
		free(entries);
		return 1;
	}
	fw_rules_split(rs, entries);
	for (uint32_t i = 0; i < rs->count; i++) {
		char text[160];

		fw_rule_format(&rs->rules[i], text, sizeof(text));
		printf("%s:%u: %-10s %s\n", path, rs->rules[i].line,
		       rs->rules[i].in_xdp ? "xdp+user" : "user", text);
	}
	printf("%s: %u rule%s (%u in the XDP program), default %s\n", path,
	       rs->count, rs->count == 1 ? "" : "s", count_in_xdp(rs),
	       rs->default_action == FW_ALLOW ? "allow" : "deny");
	fw_rules_free(rs);
	free(entries);
	return 0;
}

/*
 * The replaced set's counters once they are final: stage 1's are from the
 * swap on, stage 2's once every queue's thread judges with the new set (or
 * they stopped). Then the set is freed.
 */
static void retire(struct fwapp *app, struct fw_ruleset **retired)
{
	fprintf(stderr, "xskx-fw: the replaced rules' counters:\n");
	fwapp_report_rules(stderr, app, *retired);
	fw_rules_free(*retired);
	*retired = NULL;
}

/*
 * SIGHUP: read and check the whole file, then swap. Until the previous set
 * is retired a further reload waits (the flag stays set).
 */
static void reload(struct fwapp *app, struct fw_ruleset **retired)
{
	const char *path = app->opts->rules_path;
	struct fw_ruleset *rs;
	struct fw_errors errs;
	int err;

	if (*retired)
		return;
	signals_reload_done();
	err = fw_rules_load(path, &rs, &errs);
	if (err) {
		fwapp_print_errors(stderr, path, &errs);
		fprintf(stderr, "xskx-fw: reload of %s rejected (%u error%s): the old rules stay\n",
			path, errs.count, errs.count == 1 ? "" : "s");
		fw_errors_free(&errs);
		app->reloads_rejected++;
		return;
	}
	err = fw_install(&app->fw, rs, retired);
	if (err) {
		run_lib_error("reload: xskx_filter_set", err);
		fprintf(stderr, "xskx-fw: reload of %s rejected: the old rules stay\n",
			path);
		fw_rules_free(rs);
		app->reloads_rejected++;
		return;
	}
	app->reloads++;
	fprintf(stderr, "xskx-fw: reloaded %s: %u rule%s (%u in the XDP program)\n",
		path, rs->count, rs->count == 1 ? "" : "s", count_in_xdp(rs));
}

static void take_sample(void *app, double t, void *sample)
{
	fwapp_sample_take(app, t, sample);
}

/* The set a reload replaced, retired once final; SIGHUP's reload. */
struct reloads {
	struct fwapp *app;
	struct fw_ruleset *retired;
};

static void look(void *ctx)
{
	struct reloads *r = ctx;

	if (r->retired && fw_adopted(&r->app->fw))
		retire(r->app, &r->retired);
	if (signals_reload_requested())
		reload(r->app, &r->retired);
}

/* Print a line every second, reload at SIGHUP, until the run ends. */
static const char *watch(struct fwapp *app, struct fw_ruleset **retired)
{
	static struct fwapp_sample a, b;
	struct reloads r = { app, *retired };
	struct fwd_watch w = {
		.opts = &app->opts->fwd, .start = app->start, .ctx = app,
		.samples = { &a, &b }, .take = take_sample,
		.line = fwapp_report_line, .json_line = fwapp_report_json_line,
		.look = look, .look_ctx = &r,
		.nqueues = app->fw.nqueues, .out_port = 1, .sim = app->sim,
		.sim_in = app->sim_ports[0], .sim_out = app->sim_ports[1],
	};
	const char *reason;

	for (uint32_t k = 0; k < w.nqueues; k++)
		w.queues[k] = &app->fw.queues[k].fwd;
	reason = fwd_watch_run(&w);
	*retired = r.retired;
	return reason;
}

static int open_firewall(struct fwapp *app)
{
	const struct fwapp_opts *o = app->opts;
	struct fwd_config cfg = { .nports = FWD_MAX_PORTS,
				  .queue_id = o->fwd.first_queue,
				  .batch = o->fwd.batch,
				  .frames = o->fwd.frames,
				  .tx_full = o->fwd.tx_full,
				  .keep_partial_csum =
					  o->fwd.keep_partial_csum,
				  .multi_buffer = o->multi_buffer,
				  .tx_kick_batch = o->fwd.tx_kick_batch,
				  .tx_kick_usec = o->fwd.tx_kick_usec };
	struct fw_ruleset *rs;
	struct fw_errors errs;
	int err;

	err = fw_rules_load(o->rules_path, &rs, &errs);
	if (err) {
		fwapp_print_errors(stderr, o->rules_path, &errs);
		fw_errors_free(&errs);
		return err;
	}
	err = fwd_ports_open(&o->fwd, app->sim_ports, FWD_MAX_PORTS, app->ports);
	if (err) {
		fw_rules_free(rs);
		return run_lib_error("opening the ports", err);
	}
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		cfg.ports[i] = app->ports[i];
	err = capture_run_open(&app->captures, &o->fwd.capture, !o->fwd.sim,
			       o->fwd.queues, "xskx-fw");
	if (err) {
		fw_rules_free(rs);
		return err;
	}
	cfg.capture = app->captures.out;
	cfg.drops = app->captures.drops;
	err = fw_open(&app->fw, &cfg, o->fwd.queues, rs);
	if (err)
		return run_lib_error("opening the firewall", err);
	err = publish_all(app);
	if (err)
		return err;
	/* The kernel's counters run since boot: the baseline is now. */
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		loss_port_begin(&app->loss[i], o->fwd.sim ? NULL : o->fwd.ifnames[i],
				app->sim_ports[i], app->ports[i]);
	if (o->fwd.capture.drops)
		fprintf(stderr, "xskx-fw: --pcap-drops: every rule runs in user space, so that every denied frame is written\n");
	else if (!app->fw.xdp_stage)
		fprintf(stderr, "xskx-fw: warning: this backend's XDP program has no deny list: every rule runs in user space\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct fwapp_opts o;
	struct fwapp app = { .opts = &o };
	struct fw_ruleset *retired = NULL;
	static struct queue_step steps[FWD_MAX_QUEUES];
	const char *stop_reason;
	int err, close_err;

	switch (fwapp_parse_options(argc, argv, &o)) {
	case FWD_PARSE_HELP:
		return 0;
	case FWD_PARSE_BAD:
		return 2;
	case FWD_PARSE_RUN:
		break;
	}
	run_log_to_stderr(API_WORDS_FW);
	if (o.check_path)
		return check_file(o.check_path);
	signals_catch(true);
	app.port_names[0] = o.fwd.ifnames[0];
	app.port_names[1] = o.fwd.ifnames[1];

	err = o.fwd.sim ? fwapp_sim_create(&app) : 0;
	if (!err)
		err = open_firewall(&app);
	if (!err && app.sim && (err = xskx_sim_start(app.sim)))
		run_lib_error("xskx_sim_start", err);
	if (!err)
		err = start_queues(&app, steps);
	if (err) {
		stop_queues(&app);
		if (app.sim)
			xskx_sim_stop(app.sim);
		capture_run_close(&app.captures, &o.fwd.capture, "xskx-fw");
		fw_close(&app.fw);
		fwd_ports_close(app.ports, FWD_MAX_PORTS);
		fwapp_sim_destroy(&app);
		return 1;
	}
	app.start = run_now_s();
	stop_reason = watch(&app, &retired);
	/* A thread that failed stopped the run: that is the reason. */
	err = stop_queues(&app);
	if (app.sim)
		xskx_sim_stop(app.sim);
	if (capture_run_close(&app.captures, &o.fwd.capture, "xskx-fw"))
		err = -EIO;
	if (o.fwd.sim && o.fwd.capture.out &&
	    fwd_sim_capture_close(app.sim_ports[1], o.fwd.capture.out,
				  "xskx-fw"))
		err = -EIO;
	fw_finish(&app.fw);
	/* The threads are gone: this one reads the sockets now. */
	publish_all(&app);
	if (retired)
		retire(&app, &retired);
	fwapp_report_summary(&app, run_now_s() - app.start,
			     err ? "error" : stop_reason);
	if ((close_err = fw_close(&app.fw)))
		err = run_lib_error("closing the sockets", close_err);
	fwd_ports_close(app.ports, FWD_MAX_PORTS);
	fwapp_sim_destroy(&app);
	return err ? 1 : 0;
}
