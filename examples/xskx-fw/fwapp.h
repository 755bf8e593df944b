/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-fw: a user-space firewall between two ports on xskx. The map of the
 * source:
 *
 *   rules.h        the rule file's grammar; rules_parse.c reads it,
 *                  rules_match.c matches packets and splits the stages
 *   fw.c           the firewall core: the common forwarding core with a
 *                  verdict per packet, the two stages, the rule-set swap
 *   options.c      the command line (its own flags and --help)
 *   sim.c          --sim: two simulated ports with traffic sources
 *   main.c         --check, a forwarding thread per queue, reloads
 *   report.c       a line every second, the summary, JSON (the losses
 *                  by stage: examples/common/loss.c)
 *
 * and from examples/common, shared with xskx-l2fwd: fwd.c (the forwarding
 * core), fwd_options.c (the shared flags), fwd_sim.c (--sim's NIC),
 * fwd_watch.c (the main thread's watch), cli.c (numbers on the command
 * line), signals.c (the stop and reload flags), run.c (the worker loop,
 * error messages).
 */
#ifndef XSKX_FWAPP_H
#define XSKX_FWAPP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_run.h"
#include "fw.h"
#include "fwd_options.h"
#include "fwd_ports.h"
#include "fwd_publish.h"
#include "worker.h"
#include "loss.h"

struct fwapp_opts {
	struct fwd_options fwd;
	const char *rules_path;	/* -r */
	const char *check_path;	/* --check: validate and exit */
	bool multi_buffer;	/* -F: jumbo frames as chains */
};

/* The command line (fwd_options.h). */
enum fwd_parse_result fwapp_parse_options(int argc, char **argv,
					  struct fwapp_opts *o);

struct fwapp {
	const struct fwapp_opts *opts;
	const char *port_names[FWD_MAX_PORTS];
	struct fw fw;
	struct xskx_sim *sim; /* NULL on the kernel backend */
	struct xskx_sim_port *sim_ports[FWD_MAX_PORTS];
	struct xskx_port *ports[FWD_MAX_PORTS]; /* the library's, per port */
	uint32_t reloads, reloads_rejected;
	double start;
	/* per queue of fw: its thread, its sockets' counters it publishes */
	struct worker threads[FWD_MAX_QUEUES];
	struct fwd_published pub[FWD_MAX_QUEUES];
	struct loss_port loss[FWD_MAX_PORTS]; /* baselines, from start */
	struct capture_run captures; /* --pcap-out on interfaces, --pcap-drops */
};

/* Publish the sockets' counters for the reporting thread (main.c). */

int fwapp_sim_create(struct fwapp *app);
void fwapp_sim_destroy(struct fwapp *app);

/* Print every error of a rule file as "PATH:LINE: ..." on f. */
void fwapp_print_errors(FILE *f, const char *path,
			const struct fw_errors *errs);

/* report.c */
struct fwapp_sample {
	double t;
	struct fwd_counters queues[FWD_MAX_QUEUES][FWD_MAX_PORTS];
	struct fwd_counters ports[FWD_MAX_PORTS]; /* summed over the queues */
	struct fw_counter stage1;
	struct fw_stage2 stage2;
	struct loss loss[FWD_MAX_PORTS]; /* lost of what arrived on each port */
	uint64_t sent;			 /* accepted by both TX rings */
};

void fwapp_sample_take(const struct fwapp *app, double t,
		       struct fwapp_sample *s);
/*
 * One interval, prev to now (struct fwapp_sample; each second, and the
 * short last one): the line on the terminal, the object of --json-lines
 * (fwd_watch.h calls them).
 */
void fwapp_report_line(void *app, const void *prev, const void *now);
void fwapp_report_json_line(void *app, const void *prev, const void *now);
/* The rule set's counters, per rule, as a table on f. */
void fwapp_report_rules(FILE *f, const struct fwapp *app,
			const struct fw_ruleset *rs);
/* After the thread stopped, before the sockets close. */
void fwapp_report_summary(const struct fwapp *app, double seconds,
			  const char *stop_reason);

#endif /* XSKX_FWAPP_H */
