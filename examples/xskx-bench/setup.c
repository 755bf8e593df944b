// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: build what a run needs — the UMEM, on --sim a simulated
 * machine with one port, and one socket on it — and take it down again.
 *
 * Simulated topologies (one port, no wire):
 *   rxdrop  source -> port -> socket
 *   txonly            socket -> port -> sink
 *   l2fwd   source -> port -> socket -> same socket's TX -> port -> sink
 * The sink counts what the port transmitted (xskx_sim_port_stats). With
 * --xdp-action tx the port's XDP hook reflects each packet itself, and with
 * --xdp-action drop drops it: the socket only binds the UMEM and kicks.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "eth.h"

static enum xskx_xdp_verdict xdp_reflect(uint8_t *data, uint32_t len,
					 uint32_t queue, void *ctx)
{
	(void)len;
	(void)queue;
	(void)ctx;
	eth_swap_macs(data);
	return XSKX_XDP_TX;
}

static enum xskx_xdp_verdict xdp_drop(uint8_t *data, uint32_t len,
				      uint32_t queue, void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	(void)ctx;
	return XSKX_XDP_DROP;
}

static int set_xdp_action(struct bench *b)
{
	xskx_sim_xdp_fn hook =
		b->opts->xdp_action == BENCH_XDP_TX ? xdp_reflect : xdp_drop;
	int err;

	if (b->opts->xdp_action == BENCH_XDP_REDIRECT)
		return 0;
	err = xskx_sim_port_set_xdp(b->sim_port, hook, NULL);
	return err ? run_lib_error("xskx_sim_port_set_xdp", err) : 0;
}

static int setup_sim(struct bench *b)
{
	const struct bench_opts *o = b->opts;
	XSKX_OPTS(xskx_sim_opts, sim_opts,
		  .mode = o->sim_deterministic ? XSKX_SIM_DETERMINISTIC :
						 XSKX_SIM_THREADED,
		  .cpu_plus_one = o->nic_cpu + 1, .busy_poll = o->same_core);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "sim0",
		  /* an MTU that carries the packets (sizes.c) */
		  .mtu = o->pkt_size - 14 > 1500 ? o->pkt_size - 14 : 0,
		  .hw_ring_size = o->hw_ring, .hw_tx_ring_size = o->hw_tx_ring,
		  .napi_budget = o->nic_budget, .refill_batch = o->refill_batch,
		  .rx_full_policy = o->rx_full_policy, .queues = o->queues);
	/* Same core: a wire at line rate fills every posted buffer per kick. */
	XSKX_OPTS(xskx_sim_source_opts, source_opts, .pkt_size = o->pkt_size,
		  .count = o->packets, .flows = o->flows,
		  .rate_pps = o->rate_pps,
		  .burst = o->same_core ? UINT32_MAX : 0);
	XSKX_OPTS(xskx_sim_capture_source_opts, replay, .path = o->capture.in,
		  .timing = o->capture.timing, .rate_pps = o->capture.rate_pps,
		  .loops = o->capture.loops ? o->capture.loops :
					      XSKX_SIM_CAPTURE_FOREVER,
		  .burst = o->same_core ? UINT32_MAX : 0);
	int err;

	err = xskx_sim_create(&b->sim, &sim_opts);
	if (err)
		return run_lib_error("xskx_sim_create", err);
	err = xskx_sim_port_create(b->sim, &port_opts, &b->sim_port);
	if (err)
		return run_lib_error("xskx_sim_port_create", err);
	err = set_xdp_action(b);
	if (err)
		return err;
	if (o->mode == BENCH_TXONLY)
		return 0;
	if (o->capture.in) {
		err = xskx_sim_port_add_capture_source(b->sim_port, &replay);
		return err ? run_lib_error("xskx_sim_port_add_capture_source",
					   err) :
			     0;
	}
	err = xskx_sim_port_add_source(b->sim_port, &source_opts);
	if (err)
		return run_lib_error("xskx_sim_port_add_source", err);
	return 0;
}

/* The first socket's flags: with -M it receives and the second one sends. */
static uint32_t socket_flags(const struct bench_opts *o)
{
	uint32_t flags = 0;

	if (o->mode == BENCH_RXDROP || o->shared_umem)
		flags |= XSKX_SOCKET_NO_TX;
	if (o->mode == BENCH_TXONLY)
		flags |= XSKX_SOCKET_NO_RX;
	if (o->no_need_wakeup)
		flags |= XSKX_SOCKET_NO_WAKEUP;
	if (o->multi_buffer)
		flags |= XSKX_SOCKET_MULTI_BUFFER;
	return flags;
}

static int open_port(struct bench *b, const struct bench_opts *o)
{
	XSKX_OPTS(xskx_port_opts, port_opts,
		  .flags = (o->busy_poll ? XSKX_PORT_BUSY_POLL : 0) |
			   (o->kernel_tx_budget ? XSKX_PORT_KERNEL_TX_BUDGET : 0) |
			   (o->napi ? XSKX_PORT_NAPI : 0) |
			   (o->rx_meta ? XSKX_PORT_RX_METADATA : 0),
		  .xdp_mode = o->xdp_mode, .xdp_fallback = o->xdp_fallback,
		  .napi_defer_hard_irqs = o->napi_defer_hard_irqs,
		  .napi_gro_flush_timeout_ns = o->napi_gro_flush_timeout_ns,
		  .napi_irq_suspend_timeout_ns = o->napi_irq_suspend_timeout_ns,
		  .napi_threaded = o->napi_threaded);
	int err = o->sim ? xskx_port_open_sim(&b->port, b->sim_port, &port_opts)
			 : xskx_port_open(&b->port, o->ifname, &port_opts);

	return err ? run_lib_error("xskx_port_open", err) : 0;
}

/* Where the sockets are: the port's queue -q (+ k with --queues). */
static void socket_place(struct xskx_socket_opts *so, const struct bench *b)
{
	so->port = b->port;
	so->queue_id = b->queue_id;
}

/*
 * -M: TX on a second socket of the same queue and UMEM. It shares the
 * first one's FILL and COMPLETION rings and binds in its mode (the kernel's
 * XDP_SHARED_UMEM rule), so it takes no wakeup or multi-buffer flag.
 */
static int open_tx_socket(struct bench *b)
{
	const struct bench_opts *o = b->opts;
	XSKX_OPTS(xskx_socket_opts, sock_opts, .tx_size = o->tx_size,
		  .flags = XSKX_SOCKET_NO_RX, .copy_mode = o->copy_mode,
		  .tx_reserve = XSKX_TX_RESERVE_NONE,
		  .tx_kick_batch = o->tx_kick_batch,
		  .tx_kick_usec = o->tx_kick_usec);
	int err;

	socket_place(&sock_opts, b);
	err = xskx_socket_open(&b->tx_sock, b->umem, &sock_opts);
	return err ? run_lib_error("xskx_socket_open (-M's TX socket)", err) :
		     0;
}

/*
 * Packet views a burst needs: a batch of packets, each a chain of
 * fragments in txonly -F, and room for an open chain l2fwd -F carries.
 */
static uint32_t burst_capacity(struct bench *b)
{
	const struct bench_opts *o = b->opts;

	b->frag_room = xskx_umem_frame_size(b->umem) -
		       xskx_umem_headroom(b->umem);
	b->frags_per_pkt = o->mode == BENCH_TXONLY ?
				   (o->pkt_size + b->frag_room - 1) / b->frag_room :
				   1;
	return o->batch * b->frags_per_pkt +
	       (o->multi_buffer ? BENCH_MAX_FRAGS : 0);
}

int bench_setup(struct bench *b, const struct bench_opts *o)
{
	return bench_setup_queue(b, o, 0, NULL);
}

int bench_setup_queue(struct bench *b, const struct bench_opts *o,
		      uint32_t k, const struct bench *first)
{
	/*
	 * --tx-checksum: room for the TX metadata, and the kernel's software
	 * checksum, which veth (its "offload" passes the sum on unfinished)
	 * needs for a right one on the wire.
	 */
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = o->frames,
		  .frame_size = o->frame_size, .fill_size = o->fill_size,
		  .comp_size = o->comp_size,
		  .flags = (o->unaligned ? XSKX_UMEM_UNALIGNED : 0) |
			   (o->hugepages ? XSKX_UMEM_HUGEPAGES : 0) |
			   (o->packet.tx_checksum ? XSKX_UMEM_TX_SW_CSUM : 0),
		  .tx_metadata_len = o->packet.tx_checksum ?
					     XSKX_TX_METADATA_LEN_MIN :
					     0);
	uint32_t capacity;
	int err;

	*b = (struct bench){ .opts = o, .queue_id = o->queue_id + k };
	err = xskx_umem_create(&b->umem, &umem_opts);
	if (err)
		return run_lib_error("xskx_umem_create", err);
	b->frame_mask = ~(uint64_t)(xskx_umem_frame_size(b->umem) - 1);
	capacity = burst_capacity(b);
	b->pkts = calloc(capacity, sizeof(*b->pkts));
	b->frames = calloc(capacity, sizeof(*b->frames));
	b->views = calloc(capacity, sizeof(*b->views));
	if (!b->pkts || !b->frames || !b->views)
		return run_lib_error("calloc", -ENOMEM);
	/*
	 * What xskx_umem_tx_addr() adds to a frame start, once: frames from
	 * xskx_frame_alloc() are starts, and a call per packet costs more
	 * than the packet's other work.
	 */
	b->tx_offset = xskx_umem_tx_addr(b->umem, 0);
	if (first) {
		b->sim = first->sim;
		b->sim_port = first->sim_port;
		b->port = first->port;
		b->borrowed_port = true;
	} else {
		if (o->sim && (err = setup_sim(b)))
			return err;
		if ((err = open_port(b, o)))
			return err;
	}

	XSKX_OPTS(xskx_socket_opts, sock_opts, .rx_size = o->rx_size,
		  .tx_size = o->tx_size, .flags = socket_flags(o),
		  .copy_mode = o->copy_mode,
		  /* l2fwd sends the frames it received: keep none aside. */
		  .tx_reserve = o->mode == BENCH_L2FWD ? XSKX_TX_RESERVE_NONE : 0,
		  .tx_metadata = o->packet.tx_checksum ? XSKX_TX_META_CHECKSUM :
							  0,
		  .tx_kick_batch = o->tx_kick_batch,
		  .tx_kick_usec = o->tx_kick_usec);
	socket_place(&sock_opts, b);
	err = xskx_socket_open(&b->sock, b->umem, &sock_opts);
	if (err)
		return run_lib_error("xskx_socket_open", err);
	b->tx_sock = b->sock;
	if (o->shared_umem && (err = open_tx_socket(b)))
		return err;
	bench_check_sizes(b);
	err = xskx_socket_rings(b->sock, &b->rings);
	if (err)
		return run_lib_error("xskx_socket_rings", err);
	/*
	 * The UMEM's only socket: an empty burst posts its frames on FILL
	 * before traffic, for the burst API and the bare-ring baseline alike.
	 */
	if (b->rings.rx) {
		err = xskx_rx_burst(b->sock, NULL, 0);
		if (err < 0)
			return run_lib_error("xskx_rx_burst", err);
	}
	if (o->mode == BENCH_TXONLY)
		return bench_txonly_prepare(b);
	return 0;
}

int bench_start(struct bench *b)
{
	if (b->opts->app_cpu >= 0)
		run_pin_this_thread(b->opts->app_cpu);
	if (b->opts->sched_policy >= 0) {
		struct sched_param param = {
			.sched_priority = b->opts->sched_priority,
		};

		if (sched_setscheduler(0, b->opts->sched_policy, &param))
			return run_lib_error("sched_setscheduler (-W, -U)",
					     -errno);
	}
	return bench_start_nic(b);
}

int bench_start_nic(struct bench *b)
{
	int err;

	if (!b->sim || b->opts->sim_deterministic)
		return 0;
	err = xskx_sim_start(b->sim);
	if (err)
		return run_lib_error("xskx_sim_start", err);
	b->sim_running = true;
	return 0;
}

int bench_stop(struct bench *b)
{
	int err;

	if (!b->sim_running)
		return 0;
	b->sim_running = false;
	err = xskx_sim_stop(b->sim);
	if (err)
		return run_lib_error("xskx_sim_stop", err);
	return 0;
}

/* Teardown failures are reported but change nothing: the process exits. */
void bench_teardown(struct bench *b)
{
	int err;

	bench_stop(b);
	bench_baseline_finish(b);
	if (b->tx_sock && b->tx_sock != b->sock &&
	    (err = xskx_socket_close(b->tx_sock)))
		run_lib_error("xskx_socket_close", err);
	if (b->sock && (err = xskx_socket_close(b->sock)))
		run_lib_error("xskx_socket_close", err);
	if (b->borrowed_port) { /* the first queue's bench closes them */
		b->port = NULL;
		b->sim = NULL;
	}
	if (b->port && (err = xskx_port_close(b->port)))
		run_lib_error("xskx_port_close", err);
	if (b->sim && (err = xskx_sim_destroy(b->sim)))
		run_lib_error("xskx_sim_destroy", err);
	if (b->umem && (err = xskx_umem_destroy(b->umem)))
		run_lib_error("xskx_umem_destroy", err);
	free(b->pkts);
	free(b->frames);
	free(b->pkt_bytes);
	free(b->views);
	free(b->free_frames);
	*b = (struct bench){ 0 };
}
