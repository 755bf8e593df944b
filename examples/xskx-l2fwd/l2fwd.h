/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-l2fwd: an L2 forwarder on xskx. The map of the source:
 *
 *   options.c  the command line (its own flags and --help)
 *   sim.c      --sim: a simulated machine with a traffic source per port
 *   main.c     a thread per queue, the run
 *   report.c   a line per port and queue every second, the summary, JSON
 *              (the losses by stage: examples/common/loss.c)
 *
 * and from examples/common, shared with xskx-fw: fwd.c (the forwarding
 * core: one queue, one UMEM, a socket per port), fwd_options.c (the shared
 * flags), fwd_sim.c (--sim's NIC), fwd_watch.c (the main thread's watch),
 * cli.c (numbers on the command line), signals.c (the stop flag), run.c
 * (the worker loop, pinning, error messages).
 */
#ifndef XSKX_L2FWD_H
#define XSKX_L2FWD_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_run.h"
#include "fwd.h"
#include "fwd_options.h"
#include "fwd_ports.h"
#include "fwd_publish.h"
#include "worker.h"
#include "loss.h"

struct l2fwd_opts {
	struct fwd_options fwd;
	bool reflect;	    /* one port, MACs swapped */
	bool multi_buffer;  /* XDP_USE_SG: jumbo frames as chains */
};

/* The command line (fwd_options.h). */
enum fwd_parse_result l2fwd_parse_options(int argc, char **argv,
					  struct l2fwd_opts *o);

/* One queue: its forwarding core and the thread that runs it. */
struct l2fwd_queue {
	struct fwd_queue fwd;
	uint32_t index;
	struct worker thread;
	/* its sockets' counters, published by the thread (loss.h) */
	struct fwd_published pub;
};

struct l2fwd {
	const struct l2fwd_opts *opts;
	const char *port_names[FWD_MAX_PORTS];
	uint32_t nports;
	struct l2fwd_queue *queues;
	struct xskx_sim *sim; /* NULL on the kernel backend */
	struct xskx_sim_port *sim_ports[FWD_MAX_PORTS];
	struct xskx_port *ports[FWD_MAX_PORTS]; /* the library's, per port */
	double start; /* CLOCK_MONOTONIC seconds when forwarding began */
	struct loss_port loss[FWD_MAX_PORTS]; /* baselines, from start */
	struct capture_run captures; /* --pcap-out on interfaces */
};

/* Publish queue q's socket counters for the reporting thread. */

int l2fwd_sim_create(struct l2fwd *app);
void l2fwd_sim_destroy(struct l2fwd *app);

/* report.c */
struct l2fwd_sample {
	double t;
	struct fwd_counters ports[FWD_MAX_QUEUES][FWD_MAX_PORTS];
	struct loss loss[FWD_MAX_PORTS]; /* lost of what arrived on each port */
	uint64_t sent;			 /* accepted by every TX ring */
};

void l2fwd_sample_take(const struct l2fwd *app, double t,
		       struct l2fwd_sample *s);
/*
 * One interval, prev to now (struct l2fwd_sample; each second, and the
 * short last one): the lines on the terminal, the object of --json-lines
 * (fwd_watch.h calls them).
 */
void l2fwd_report_line(void *app, const void *prev, const void *now);
void l2fwd_report_json_line(void *app, const void *prev, const void *now);
/*
 * After the threads and the NIC stopped and fwd_finish(), before the sockets
 * close: the final counters, the sockets' statistics, the frame census.
 */
void l2fwd_report_summary(const struct l2fwd *app, double seconds,
			  const char *stop_reason);

#endif /* XSKX_L2FWD_H */
