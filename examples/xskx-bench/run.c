// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the run loop. It calls one mode's step until --duration has
 * passed, --packets have been counted or a signal arrives, prints a line
 * per second, and collects the final counters once the NIC has stopped.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "signals.h"

/* The losses: nothing is held by the program (app 0), one socket. */
static void read_losses(const struct bench *b, const struct xskx_stats *stats,
			struct loss *l)
{
	struct loss_sock sock = { 0 };

	loss_sock_add(&sock, stats);
	loss_port_read(&b->loss, &sock, 0, l);
}

void bench_stats_add(struct xskx_stats *sum, const struct xskx_stats *add)
{
	uint64_t *s = (uint64_t *)sum;
	const uint64_t *a = (const uint64_t *)add;

	_Static_assert(sizeof(*add) % sizeof(uint64_t) == 0,
		       "struct xskx_stats holds uint64_t counters only");
	for (size_t i = 0; i < sizeof(*add) / sizeof(uint64_t); i++)
		s[i] += a[i];
}

int bench_socket_stats(const struct bench *b, struct xskx_stats *stats)
{
	struct xskx_stats tx;
	int err = xskx_socket_stats(b->sock, stats);

	if (err || b->tx_sock == b->sock)
		return err;
	err = xskx_socket_stats(b->tx_sock, &tx);
	if (!err)
		bench_stats_add(stats, &tx);
	return err;
}

/* -I: the interrupts since the run started. */
static int irqs_since_start(const struct bench *b, uint64_t *irqs)
{
	int err;

	*irqs = 0;
	if (!b->opts->irq_match)
		return 0;
	err = bench_irq_count(b->opts->irq_match, irqs);
	if (err)
		return run_lib_error("reading /proc/interrupts (-I)", err);
	*irqs -= b->irqs_at_start;
	return 0;
}

static int sample(struct bench *b, double t, struct bench_sample *s)
{
	int err = bench_socket_stats(b, &s->stats);

	if (err)
		return run_lib_error("xskx_socket_stats", err);
	err = irqs_since_start(b, &s->irqs);
	if (err)
		return err;
	read_losses(b, &s->stats, &s->loss);
	s->offered_known = loss_port_offered(&b->loss, &s->offered);
	s->t = t;
	s->queues = 1;
	s->per_queue[0] = (struct bench_queue_counts){ b->rx_packets,
						       b->tx_packets };
	s->rx_packets = b->rx_packets;
	s->tx_packets = b->tx_packets;
	s->steps = b->steps;
	s->idle_steps = b->idle_steps;
	s->polls = b->polls;
	return 0;
}

/* Poll or loop, once this thread is pinned where it will run (bench.h). */
int bench_wakeup(struct bench *b)
{
	enum xskx_wakeup mode;
	int err;

	if (b->opts->wakeup != BENCH_WAKEUP_AUTO) {
		b->poll = b->opts->wakeup == BENCH_WAKEUP_POLL;
		b->wakeup_why = "the command line says so";
		return 0;
	}
	err = xskx_socket_choose_wakeup(b->sock, &mode, &b->wakeup_why);
	if (err)
		return run_lib_error("xskx_socket_choose_wakeup", err);
	b->poll = mode == XSKX_WAKEUP_POLL;
	return 0;
}

/*
 * --poll: wait the way xdpsock -p does, in slices short enough to notice
 * the end of the run. A signal cuts the wait short (-EINTR): that is no
 * error, the run loop sees the stop it asked for.
 */
int bench_wait_ready(struct bench *b)
{
	short events = b->opts->mode == BENCH_TXONLY ? POLLOUT : POLLIN;
	int ret = xskx_socket_poll(b->sock, events, 100);

	b->polls++;
	if (ret == -EINTR)
		return 0;
	return ret < 0 ? run_lib_error("xskx_socket_poll", ret) : 0;
}

/* Deterministic mode: this thread is the NIC too, between bursts. */
static int run_nic(struct bench *b)
{
	int moved = xskx_sim_poll(b->sim);

	return moved < 0 ? run_lib_error("xskx_sim_poll", moved) : moved;
}

int bench_finish(struct bench *b, struct bench_result *res)
{
	int err = bench_stop(b);

	if (err)
		return err;
	res->queues = 1;
	res->per_queue[0] = (struct bench_queue_counts){ b->rx_packets,
							 b->tx_packets };
	res->rx_packets = b->rx_packets;
	res->tx_packets = b->tx_packets;
	res->steps = b->steps;
	res->idle_steps = b->idle_steps;
	res->polls = b->polls;
	res->tx_over_mtu = b->tx_over_mtu ? b->tx_packets : 0;
	res->rx_meta = b->rx_meta;
	err = irqs_since_start(b, &res->irqs);
	if (err)
		return err;
	err = bench_socket_stats(b, &res->stats);
	if (err)
		return run_lib_error("xskx_socket_stats", err);
	read_losses(b, &res->stats, &res->loss);
	res->offered_known = loss_port_offered(&b->loss, &res->offered);
	if (b->sim_port) {
		err = xskx_sim_port_stats(b->sim_port, &res->port);
		if (err)
			return run_lib_error("xskx_sim_port_stats", err);
		res->have_port = true;
	}
	err = xskx_socket_info(b->sock, &res->info);
	if (err)
		return run_lib_error("xskx_socket_info", err);
	if (!b->sim) {
		struct xskx_port_info info;

		err = xskx_port_info(b->port, &info);
		if (err)
			return run_lib_error("xskx_port_info", err);
		/* Not attached: a TX-only socket, which needs no XDP program. */
		if (info.xdp_attached)
			res->xdp_mode = info.xdp_mode == XSKX_XDP_NATIVE ?
						"native" : "generic";
	}
	res->frame_count = xskx_umem_frame_count(b->umem);
	res->frame_size = xskx_umem_frame_size(b->umem);
	/*
	 * The txonly baseline took every frame from the library once and
	 * sends them behind its back: the library counts those on the rings
	 * as the application's too, so its census means nothing here.
	 */
	if (b->free_frames)
		return 0;
	err = xskx_umem_census(b->umem, &res->census);
	if (err)
		return run_lib_error("xskx_umem_census", err);
	return 0;
}

/*
 * Deterministic mode ends early once the source is done and neither the NIC
 * nor the application moved anything for a few rounds in a row: a single
 * quiet round can be a kick that has just refilled the NIC. (txonly has no
 * source and never ends this way.)
 */
#define QUIET_ROUNDS_TO_STOP 4

/*
 * txonly and l2fwd -C (xdpsock's -O): the packets are counted when the TX
 * ring takes them; wait up to --retries seconds for the NIC to complete
 * them. xskx_tx_reclaim() also wakes a TX that --tx-kick-batch left
 * waiting for more.
 */
static int wait_for_completions(struct bench *b, bool deterministic)
{
	double until = run_now_s() + b->opts->tx_retries;
	struct xskx_stats stats;
	int err;

	while (!(err = xskx_socket_stats(b->tx_sock, &stats)) &&
	       stats.tx_completed < stats.tx_packets && run_now_s() < until &&
	       !signals_stop_requested()) {
		if (deterministic && (err = run_nic(b)) < 0)
			return err;
		xskx_tx_reclaim(b->tx_sock);
		if (!deterministic)
			run_nap(1000000);
	}
	return err ? run_lib_error("xskx_socket_stats", err) : 0;
}

static bool quiet_round(struct bench *b, int nic_moved, int app_moved)
{
	return b->opts->sim_deterministic && b->opts->mode != BENCH_TXONLY &&
	       !nic_moved && !app_moved && !b->fwd_pending &&
	       !xskx_sim_sources_active(b->sim);
}

int bench_run(struct bench *b, bench_step_fn step, const char *variant,
	      struct bench_result *res)
{
	const struct bench_opts *o = b->opts;
	const uint64_t *counted = o->mode == BENCH_TXONLY ? &b->tx_packets :
							    &b->rx_packets;
	/* Same core: the NIC runs inside the kicks alone. */
	bool deterministic = b->sim && o->sim_deterministic && !o->same_core;
	struct bench_sample last, cur;
	double start, deadline, next_line;
	unsigned int quiet_rounds = 0;
	int err;

	memset(res, 0, sizeof(*res));
	res->variant = variant;
	err = bench_start(b);
	if (!err)
		err = bench_wakeup(b);
	if (err)
		return err;
	res->poll = b->poll;
	res->wakeup_why = b->wakeup_why;
	/* The kernel's counters run since boot: the baseline is now. */
	loss_port_begin(&b->loss, o->sim ? NULL : o->ifname, b->sim_port, b->port);
	if (o->irq_match &&
	    (err = bench_irq_count(o->irq_match, &b->irqs_at_start))) {
		fprintf(stderr,
			"xskx-bench: -I %s: %s: name a string of /proc/interrupts' lines, such as the interface's name\n",
			o->irq_match,
			err == -ENOENT ? "no line of /proc/interrupts contains it" :
					 xskx_strerror(err));
		return err;
	}
	start = run_now_s();
	b->pace_start = start;
	deadline = start + o->duration_s;
	next_line = start + o->interval_s;
	err = sample(b, start, &last);
	res->stop = BENCH_STOP_DURATION;
	while (!err) {
		int moved = 0, n;
		double t;

		if (signals_stop_requested()) {
			res->stop = BENCH_STOP_SIGNAL;
			break;
		}
		if (deterministic && (moved = run_nic(b)) < 0)
			return moved;
		if (b->poll && (err = bench_wait_ready(b)))
			break;
		n = step(b);
		if (n < 0)
			return run_lib_error(bench_mode_name(o->mode), n);
		b->steps++;
		b->idle_steps += n == 0;
		if (o->packets && *counted >= o->packets) {
			res->stop = BENCH_STOP_PACKETS;
			break;
		}
		quiet_rounds = quiet_round(b, moved, n) ? quiet_rounds + 1 : 0;
		if (quiet_rounds == QUIET_ROUNDS_TO_STOP) {
			res->stop = BENCH_STOP_IDLE;
			break;
		}
		t = run_now_s();
		if (t >= deadline)
			break;
		if (t >= next_line) {
			next_line += o->interval_s;
			err = sample(b, t, &cur);
			if (!err)
				bench_report_interval(b, variant, start, &last,
						      &cur);
		}
	}
	res->seconds = run_now_s() - start;
	/* The short last interval, since the last line. */
	if (!err && !(err = sample(b, start + res->seconds, &cur)))
		bench_report_interval(b, variant, start, &last, &cur);
	if (!err && res->stop == BENCH_STOP_PACKETS && o->mode != BENCH_RXDROP)
		err = wait_for_completions(b, deterministic);
	return err ? err : bench_finish(b, res);
}
