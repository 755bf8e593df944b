/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-bench: one run of one mode.
 *
 *   setup.c     UMEM, simulated NIC, socket          bench_setup/teardown
 *   modes.c     rxdrop, txonly, l2fwd on the burst API    bench_*_step
 *               and the step of --xdp-action tx|drop (only kicks)
 *   baseline.c  rxdrop on bare libxdp ring operations
 *   run.c       the loop: step until --duration or --packets
 *   report.c    a line per second, the summary, JSON (the losses by
 *               stage: examples/common/loss.c)
 *   packet.c    the UDP frame txonly sends
 */
#ifndef XSKX_BENCH_H
#define XSKX_BENCH_H

#include <stdint.h>
#include <xskx/xskx.h>

#include "loss.h"
#include "options.h"
#include "run.h" /* run_lib_error() */

struct bench {
	const struct bench_opts *opts;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	struct xskx_sim *sim; /* NULL on the kernel backend */
	struct xskx_sim_port *port;
	bool sim_running;	 /* the NIC thread is started */
	struct xskx_rings rings; /* for the baseline */
	uint64_t frame_mask;	 /* address -> its frame's start */
	struct xskx_pkt *pkts;	 /* one burst */
	uint64_t *frames;	 /* one burst of frames (txonly) */
	/* l2fwd: received packets the TX ring has not taken yet */
	uint32_t fwd_next, fwd_pending;
	/* xskx_socket_poll() before every burst, and why (bench_wakeup()) */
	bool poll;
	const char *wakeup_why;
	/* counted by the steps, so both variants count the same way */
	uint64_t rx_packets, tx_packets;
	struct loss_port loss; /* baselines, from the start of the run */
};

/*
 * One step of a mode: a burst. Returns the packets it moved (0: nothing to
 * do) or a negative errno from the library.
 */
typedef int (*bench_step_fn)(struct bench *b);

int bench_rxdrop_step(struct bench *b);
int bench_txonly_step(struct bench *b);
int bench_l2fwd_step(struct bench *b);
int bench_baseline_rxdrop_step(struct bench *b);
int bench_xdp_step(struct bench *b);

/* Write the txonly packet into every frame once, as xdpsock does. */
int bench_txonly_prepare(struct bench *b);

int bench_setup(struct bench *b, const struct bench_opts *opts);
/* Pin this thread (--app-cpu) and, threaded --sim, start the NIC thread. */
int bench_start(struct bench *b);
/* Stop the NIC thread, so that the counters read afterwards are final. */
int bench_stop(struct bench *b);
void bench_teardown(struct bench *b);

enum bench_stop_reason {
	BENCH_STOP_DURATION,
	BENCH_STOP_PACKETS,
	BENCH_STOP_SIGNAL,
	BENCH_STOP_IDLE, /* deterministic: the source is done, all quiet */
};

struct bench_result {
	const char *variant; /* "burst" or "baseline" */
	enum bench_stop_reason stop;
	double seconds;
	uint64_t rx_packets, tx_packets;
	uint64_t steps, idle_steps; /* bursts, and those that moved nothing */
	struct xskx_stats stats;
	struct xskx_socket_info info;
	const char *xdp_mode; /* kernel backend, RX: "native", "generic" */
	bool poll;	      /* the wakeup the run used, and why */
	const char *wakeup_why;
	bool have_port;
	struct xskx_sim_port_stats port;
	struct xskx_frame_census census;
	uint32_t frame_count, frame_size;
	struct loss loss;	  /* by stage (examples/common/loss.h) */
	bool offered_known;	  /* --sim: the port counts what arrived */
	uint64_t offered;
};

int bench_run(struct bench *b, bench_step_fn step, const char *variant,
	      struct bench_result *res);

/* Live output and the summary (report.c). */
struct bench_sample {
	double t;
	uint64_t rx_packets, tx_packets;
	struct xskx_stats stats;
	struct loss loss;
	bool offered_known;
	uint64_t offered;
};

/*
 * One interval, from prev to now (each second, and the short last one of
 * the run): the line on the terminal unless --quiet, the JSON line with
 * --json-lines. start: when the run started. Then *prev = *now.
 */
void bench_report_interval(const struct bench *b, const char *variant,
			   double start, struct bench_sample *prev,
			   const struct bench_sample *now);
void bench_report_result(const struct bench_opts *o,
			 const struct bench_result *res);
void bench_report_compare(const struct bench_opts *o,
			  const struct bench_result *burst,
			  const struct bench_result *baseline);

/* Packets (packet.c). */
void bench_build_udp_frame(uint8_t *frame, uint32_t len);

#endif /* XSKX_BENCH_H */
