/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-bench: one run of one mode.
 *
 *   setup.c     UMEM, simulated NIC, socket          bench_setup/teardown
 *   modes.c     rxdrop, txonly, l2fwd on the burst API    bench_*_step
 *               and the step of --xdp-action tx|drop (only kicks)
 *   baseline.c  the three modes on bare libxdp ring operations
 *   run.c       the loop: step until --duration or --packets
 *   queues.c    --queues N: a struct bench and a thread per queue
 *   report.c    a line per second, the summary, JSON (the losses by
 *               stage: examples/common/loss.c)
 *   packet.c    the UDP frame txonly sends
 *   flags.c     the flag table: getopt's tables and --help (options.c
 *               applies and checks the flags)
 *   pace.c      --rate and -T: when txonly may send
 *   sizes.c     the TX packet against the interface's MTU and the frame
 *   irq.c       -I: interrupts from /proc/interrupts
 */
#ifndef XSKX_BENCH_H
#define XSKX_BENCH_H

#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "loss.h"
#include "options.h"
#include "run.h" /* run_lib_error() */

/*
 * The longest chain of fragments the kernel builds (MAX_SKB_FRAGS + 1):
 * l2fwd -F keeps room for one that an RX burst left open.
 */
#define BENCH_MAX_FRAGS 18

/* A received packet, as an application on bare libxdp looks at it. */
struct bench_view {
	uint8_t *data;
	uint32_t len;
};

/* --rx-meta: received packets with a struct xskx_rx_meta, and per field. */
struct bench_rx_meta {
	uint64_t packets, timestamp, hash, vlan_tag;
	bool in_chain; /* the next descriptor continues a packet */
};

struct bench {
	const struct bench_opts *opts;
	uint32_t queue_id;	  /* the sockets' queue */
	/* sim, sim_port and port are another queue's bench's (--queues) */
	bool borrowed_port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	struct xskx_socket *tx_sock; /* sock, or -M's second socket */
	struct xskx_sim *sim; /* NULL on the kernel backend */
	struct xskx_sim_port *sim_port;
	struct xskx_port *port;	  /* the library's: on sim_port or the interface */
	bool sim_running;	  /* the NIC thread is started */
	struct xskx_rings rings;  /* for the baseline */
	uint64_t frame_mask;	  /* address -> its frame's start */
	uint32_t tx_offset;	  /* frame start -> where a sent packet is */
	struct xskx_pkt *pkts;	  /* one burst */
	struct bench_view *views; /* one burst, as the baseline reads it */
	uint64_t *frames;	  /* one burst of frames (txonly) */
	/* the txonly baseline's own frames: a stack of free frame starts */
	uint64_t *free_frames;
	uint32_t free_count;
	/* txonly: a packet's fragments (-F), its bytes, its sequence (-y) */
	uint32_t frags_per_pkt, frag_room;
	uint8_t *pkt_bytes;
	uint32_t tx_seq;
	double pace_start; /* --rate, -T */
	/* l2fwd: received packets the TX ring has not taken yet */
	uint32_t fwd_next, fwd_pending;
	/* l2fwd --api batch: the peeked packets TX has not taken yet */
	struct xskx_rx_batch fwd_batch;
	/* l2fwd -F: fragments of an open chain after them, and whether the
	 * next fragment received continues a chain */
	uint32_t fwd_carried;
	bool rx_in_chain;
	/* xskx_socket_poll() before every burst, and why (bench_wakeup()) */
	bool poll;
	const char *wakeup_why;
	/* counted by the steps, so both variants count the same way */
	uint64_t rx_packets, tx_packets;
	uint64_t steps, idle_steps, polls; /* -a */
	uint64_t irqs_at_start;		   /* -I */
	/* the TX packet is larger than the interface's MTU lets through */
	bool tx_over_mtu;
	struct loss_port loss; /* baselines, from the start of the run */
	struct bench_rx_meta rx_meta;
};

/* Count the RX metadata of n received descriptors, burst or batch API. */
void bench_rx_meta_count(struct bench_rx_meta *c, const struct xskx_socket *s,
			 const struct xskx_pkt *pkts, uint32_t n);
void bench_rx_meta_count_batch(struct bench_rx_meta *c,
			       const struct xskx_socket *s,
			       const struct xskx_rx_batch *batch, uint32_t n);
void bench_rx_meta_add(struct bench_rx_meta *sum,
		       const struct bench_rx_meta *add);

/*
 * One step of a mode: a burst. Returns the packets it moved (0: nothing to
 * do) or a negative errno from the library.
 */
typedef int (*bench_step_fn)(struct bench *b);

int bench_rxdrop_step(struct bench *b);
int bench_txonly_step(struct bench *b);
int bench_l2fwd_step(struct bench *b);
int bench_batch_rxdrop_step(struct bench *b);
int bench_batch_txonly_step(struct bench *b);
int bench_batch_l2fwd_step(struct bench *b);
int bench_baseline_rxdrop_step(struct bench *b);
int bench_baseline_txonly_step(struct bench *b);
int bench_baseline_l2fwd_step(struct bench *b);
/* Hand the txonly baseline every frame (a no-op in the other modes). */
int bench_baseline_prepare(struct bench *b);
/* Give the txonly baseline's frames back before teardown. */
void bench_baseline_finish(struct bench *b);
int bench_xdp_step(struct bench *b);

/* txonly: the packets of the next batch (the rest of -C's count at the end). */
uint32_t bench_txonly_batch(const struct bench *b);

/* Write the txonly packet into every frame once, as xdpsock does. */
int bench_txonly_prepare(struct bench *b);

int bench_setup(struct bench *b, const struct bench_opts *opts);
/*
 * --queues: queue k's bench (queue -q + k) with its own UMEM and sockets,
 * on first's port and simulated NIC (NULL: k is the first, which makes
 * them, the simulated port with --queues queues).
 */
int bench_setup_queue(struct bench *b, const struct bench_opts *opts,
		      uint32_t k, const struct bench *first);
/* Pin this thread (--app-cpu) and, threaded --sim, start the NIC thread. */
int bench_start(struct bench *b);
/* Threaded --sim: start the NIC thread (bench_start's second half). */
int bench_start_nic(struct bench *b);
/* Stop the NIC thread, so that the counters read afterwards are final. */
int bench_stop(struct bench *b);
void bench_teardown(struct bench *b);

enum bench_stop_reason {
	BENCH_STOP_DURATION,
	BENCH_STOP_PACKETS,
	BENCH_STOP_SIGNAL,
	BENCH_STOP_IDLE, /* deterministic: the source is done, all quiet */
};

/* One queue's packets, for the per-queue figures of --queues. */
struct bench_queue_counts {
	uint64_t rx_packets, tx_packets;
};

struct bench_result {
	const char *variant; /* "burst" or "baseline" */
	uint32_t queues;     /* per_queue[0..queues) */
	struct bench_queue_counts per_queue[BENCH_MAX_QUEUES];
	enum bench_stop_reason stop;
	double seconds;
	uint64_t rx_packets, tx_packets;
	uint64_t steps, idle_steps; /* bursts, and those that moved nothing */
	uint64_t polls;
	uint64_t irqs;		    /* -I */
	uint64_t tx_over_mtu;	    /* packets sent larger than the MTU */
	struct xskx_stats stats;
	struct xskx_socket_info info;
	const char *xdp_mode; /* kernel backend, RX: "native", "generic" */
	bool poll;	      /* the wakeup the run used, and why */
	const char *wakeup_why;
	bool have_port;
	struct xskx_sim_port_stats port;
	struct xskx_frame_census census;
	uint32_t frame_count, frame_size;
	struct loss loss;   /* by stage (examples/common/loss.h) */
	bool offered_known; /* --sim: the port counts what arrived */
	uint64_t offered;
	struct bench_rx_meta rx_meta;
};

int bench_run(struct bench *b, bench_step_fn step, const char *variant,
	      struct bench_result *res);
/*
 * After the run, the NIC stopped: b's final counters into res (one queue:
 * its per_queue[0] too). 0 or a negative errno, reported.
 */
int bench_finish(struct bench *b, struct bench_result *res);
/* --poll: xskx_socket_poll() the way xdpsock -p waits; 0 or reported error. */
int bench_wait_ready(struct bench *b);
/*
 * Poll or loop (b->poll, and b->wakeup_why), on the thread that will run
 * the bursts: as the options say, or as xskx_socket_choose_wakeup()
 * advises there. 0 or the library's negative errno, reported.
 */
int bench_wakeup(struct bench *b);
/* Both sockets' counters summed into a running total. */
void bench_stats_add(struct xskx_stats *sum, const struct xskx_stats *add);

/* --queues N (queues.c): the run, its figures summed and per queue. */
int bench_run_queues(const struct bench_opts *o, bench_step_fn step,
		     struct bench_result *res);

/* Live output and the summary (report.c). */
struct bench_sample {
	double t;
	uint32_t queues; /* per_queue[0..queues) */
	struct bench_queue_counts per_queue[BENCH_MAX_QUEUES];
	uint64_t rx_packets, tx_packets;
	uint64_t steps, idle_steps, polls, irqs;
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
/* --compare: n pairs of runs, burst[i] and baseline[i] taken in turn. */
void bench_report_compare(const struct bench_opts *o,
			  const struct bench_result *burst,
			  const struct bench_result *baseline, uint32_t n);

/* Packets (packet.c). */
void bench_build_udp_frame(uint8_t *frame, uint32_t len,
			   const struct bench_packet_opts *p);
/* -y: the sequence number and send time into a built frame. */
void bench_packet_stamp(uint8_t *frame, const struct bench_packet_opts *p,
			uint32_t seq, const struct timespec *now);
/* The shortest packet these settings can build. */
uint32_t bench_packet_min_size(const struct bench_packet_opts *p);
/* The bytes in front of the IP header: Ethernet and the VLAN tag. */
uint32_t bench_packet_l2_overhead(const struct bench_packet_opts *p);
/* --tx-checksum: where the UDP header, which the checksum covers, starts. */
uint32_t bench_packet_csum_start(const struct bench_packet_opts *p);

/* --rate and -T (pace.c): how many packets txonly may send now, <= want. */
uint32_t bench_pace(struct bench *b, uint32_t want);

/*
 * The TX packet against what carries it (sizes.c): warns once when it is
 * larger than the interface's MTU lets through (b->tx_over_mtu), and when
 * the interface's MTU is larger than a frame receives without -F.
 */
void bench_check_sizes(struct bench *b);

/* -I (irq.c): the interrupts of /proc/interrupts' lines naming match. */
int bench_irq_count(const char *match, uint64_t *count);

/* Both sockets' counters (one when there is no -M). */
int bench_socket_stats(const struct bench *b, struct xskx_stats *stats);

#endif /* XSKX_BENCH_H */
