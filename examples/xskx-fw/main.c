// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: a user-space firewall on the xskx public API.
 *
 *   xskx-fw -i veth1 -o veth2 -r fw.rules    between two interfaces
 *   xskx-fw --sim -r fw.rules -d 5           on the simulated NIC
 *   xskx-fw --check fw.rules                 validate a rule file
 *
 * One thread forwards (fw_step, queue 0 of both ports); this one prints the
 * counters every second, reloads the rules at SIGHUP and, at the end of
 * --duration or at SIGINT/SIGTERM, stops the other, prints the summary and
 * closes both sockets, which detaches the XDP program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fwapp.h"

/* An idle forwarder naps between polls rather than spin a core at 100%. */
#define IDLE_STEPS_BEFORE_NAP 256
#define IDLE_NAP_NS 20000L
#define MAIN_TICK_NS 100000000L

static int stop_flag, reload_flag; /* __atomic: set by signal handlers */
static int forward_error;	   /* the thread's negative errno, or 0 */

int fwapp_lib_error(const char *call, int err)
{
	const char *why = xskx_last_error();

	fprintf(stderr, "xskx-fw: %s: %s%s%s\n", call, xskx_strerror(err),
		*why ? ": " : "", why);
	return err;
}

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

/* Errors are printed by fwapp_lib_error() or the rule file's report. */
static void log_to_stderr(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level != XSKX_LOG_ERROR)
		fprintf(stderr, "xskx: %s\n", msg);
}

static void on_signal(int sig)
{
	__atomic_store_n(sig == SIGHUP ? &reload_flag : &stop_flag, 1,
			 __ATOMIC_RELAXED);
}

static bool stop_requested(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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

static void *run_forwarding(void *arg)
{
	struct fw *fw = arg;
	uint32_t idle = 0;

	while (!stop_requested()) {
		int moved = fw_step(fw);

		if (moved < 0) {
			__atomic_store_n(&forward_error, moved, __ATOMIC_RELAXED);
			on_signal(SIGTERM);
			break;
		}
		idle = moved ? 0 : idle + 1;
		if (idle >= IDLE_STEPS_BEFORE_NAP)
			nap(IDLE_NAP_NS);
	}
	return NULL;
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
 * SIGHUP: read and check the whole file, then swap. The previous set is
 * freed once the forwarding thread has moved to the new one; until then a
 * further reload waits (the flag stays set).
 */
static void reload(struct fwapp *app, struct fw_ruleset **retired)
{
	const char *path = app->opts->rules_path;
	struct fw_ruleset *rs;
	struct fw_errors errs;
	int err;

	if (*retired && !fw_adopted(&app->fw))
		return;
	__atomic_store_n(&reload_flag, 0, __ATOMIC_RELAXED);
	fw_rules_free(*retired);
	*retired = NULL;
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
		fwapp_lib_error("reload: xskx_filter_set", err);
		fprintf(stderr, "xskx-fw: reload of %s rejected: the old rules stay\n",
			path);
		fw_rules_free(rs);
		app->reloads_rejected++;
		return;
	}
	app->reloads++;
	fprintf(stderr, "xskx-fw: reloaded %s: %u rule%s (%u in the XDP program); the old rules' counters:\n",
		path, rs->count, rs->count == 1 ? "" : "s", count_in_xdp(rs));
	fwapp_report_rules(stderr, app, *retired);
}

/* Print a line every second, reload at SIGHUP, until the run ends. */
static const char *watch(struct fwapp *app, struct fw_ruleset **retired)
{
	const struct fwapp_opts *o = app->opts;
	static struct fwapp_sample a, b;
	struct fwapp_sample *prev = &a, *now = &b, *swap;
	double next_line = app->start + 1;

	fwapp_sample_take(app, app->start, prev);
	while (!stop_requested()) {
		double t;

		nap(MAIN_TICK_NS);
		if (__atomic_load_n(&reload_flag, __ATOMIC_RELAXED))
			reload(app, retired);
		t = now_s();
		if (o->duration_s && t - app->start >= o->duration_s)
			break;
		if (t < next_line)
			continue;
		next_line += 1;
		fwapp_sample_take(app, t, now);
		if (!o->quiet)
			fwapp_report_line(app, prev, now);
		swap = prev;
		prev = now;
		now = swap;
	}
	return stop_requested() ? "signal" : "duration";
}

static int open_firewall(struct fwapp *app)
{
	const struct fwapp_opts *o = app->opts;
	struct fwd_config cfg = { .nports = FWD_MAX_PORTS, .batch = o->batch,
				  .frames = o->frames, .xdp_mode = o->xdp_mode };
	struct fw_ruleset *rs;
	struct fw_errors errs;
	int err;

	err = fw_rules_load(o->rules_path, &rs, &errs);
	if (err) {
		fwapp_print_errors(stderr, o->rules_path, &errs);
		fw_errors_free(&errs);
		return err;
	}
	for (uint32_t i = 0; i < FWD_MAX_PORTS; i++)
		cfg.ports[i] = (struct fwd_endpoint){
			.ifname = o->ifnames[i], .sim_port = app->sim_ports[i],
		};
	err = fw_open(&app->fw, &cfg, rs);
	if (err)
		return fwapp_lib_error("opening the firewall", err);
	if (!app->fw.xdp_stage)
		fprintf(stderr, "xskx-fw: warning: this backend's XDP program has no deny list: every rule runs in user space\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct fwapp_opts o;
	struct fwapp app = { .opts = &o };
	struct fw_ruleset *retired = NULL;
	const char *stop_reason;
	pthread_t thread;
	int err, close_err;

	switch (fwapp_parse_options(argc, argv, &o)) {
	case FWAPP_PARSE_HELP:
		return 0;
	case FWAPP_PARSE_BAD:
		return 2;
	case FWAPP_PARSE_RUN:
		break;
	}
	xskx_set_log(log_to_stderr, NULL);
	if (o.check_path)
		return check_file(o.check_path);
	catch_signals();
	app.port_names[0] = o.ifnames[0];
	app.port_names[1] = o.ifnames[1];

	err = o.sim ? fwapp_sim_create(&app) : 0;
	if (!err)
		err = open_firewall(&app);
	if (!err && app.sim && (err = xskx_sim_start(app.sim)))
		fwapp_lib_error("xskx_sim_start", err);
	if (!err && (err = -pthread_create(&thread, NULL, run_forwarding,
					   &app.fw)))
		fwapp_lib_error("pthread_create", err);
	if (err) {
		if (app.sim)
			xskx_sim_stop(app.sim);
		fw_close(&app.fw);
		fwapp_sim_destroy(&app);
		return 1;
	}
	app.start = now_s();
	stop_reason = watch(&app, &retired);
	on_signal(SIGTERM);
	pthread_join(thread, NULL);
	if (app.sim)
		xskx_sim_stop(app.sim);
	fwd_finish(&app.fw.fwd);
	err = __atomic_load_n(&forward_error, __ATOMIC_RELAXED);
	if (err)
		fwapp_lib_error("forwarding", err);
	fwapp_report_summary(&app, now_s() - app.start,
			     err ? "error" : stop_reason);
	fw_rules_free(retired);
	if ((close_err = fw_close(&app.fw)))
		err = fwapp_lib_error("closing the sockets", close_err);
	fwapp_sim_destroy(&app);
	return err ? 1 : 0;
}
