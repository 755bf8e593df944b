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
#include <stdlib.h>

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
	err = xskx_sim_port_set_xdp(b->port, hook, NULL);
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
		  .mtu = o->pkt_size - 14 > 1500 ? o->pkt_size - 14 : 0,
		  .hw_ring_size = o->hw_ring, .hw_tx_ring_size = o->hw_tx_ring,
		  .napi_budget = o->nic_budget, .refill_batch = o->refill_batch,
		  .rx_full_policy = o->rx_full_policy);
	/* Same core: a wire at line rate fills every posted buffer per kick. */
	XSKX_OPTS(xskx_sim_source_opts, source_opts, .pkt_size = o->pkt_size,
		  .count = o->packets, .flows = o->flows,
		  .rate_pps = o->rate_pps,
		  .burst = o->same_core ? UINT32_MAX : 0);
	int err;

	err = xskx_sim_create(&b->sim, &sim_opts);
	if (err)
		return run_lib_error("xskx_sim_create", err);
	err = xskx_sim_port_create(b->sim, &port_opts, &b->port);
	if (err)
		return run_lib_error("xskx_sim_port_create", err);
	err = set_xdp_action(b);
	if (err)
		return err;
	if (o->mode == BENCH_TXONLY)
		return 0;
	err = xskx_sim_port_add_source(b->port, &source_opts);
	if (err)
		return run_lib_error("xskx_sim_port_add_source", err);
	return 0;
}

static uint32_t socket_flags(const struct bench_opts *o)
{
	uint32_t flags = 0;

	if (o->mode == BENCH_RXDROP)
		flags |= XSKX_SOCKET_NO_TX;
	if (o->mode == BENCH_TXONLY)
		flags |= XSKX_SOCKET_NO_RX;
	if (o->no_need_wakeup)
		flags |= XSKX_SOCKET_NO_WAKEUP;
	if (o->busy_poll)
		flags |= XSKX_SOCKET_BUSY_POLL;
	return flags;
}

int bench_setup(struct bench *b, const struct bench_opts *o)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = o->frames,
		  .frame_size = o->frame_size, .fill_size = o->fill_size,
		  .comp_size = o->comp_size);
	int err;

	*b = (struct bench){ .opts = o };
	b->pkts = calloc(o->batch, sizeof(*b->pkts));
	b->frames = calloc(o->batch, sizeof(*b->frames));
	b->views = calloc(o->batch, sizeof(*b->views));
	if (!b->pkts || !b->frames || !b->views)
		return run_lib_error("calloc", -ENOMEM);

	err = xskx_umem_create(&b->umem, &umem_opts);
	if (err)
		return run_lib_error("xskx_umem_create", err);
	b->frame_mask = ~(uint64_t)(xskx_umem_frame_size(b->umem) - 1);
	/*
	 * What xskx_umem_tx_addr() adds to a frame start, once: frames from
	 * xskx_frame_alloc() are starts, and a call per packet costs more
	 * than the packet's other work.
	 */
	b->tx_offset = xskx_umem_headroom(b->umem);
	if (o->sim) {
		err = setup_sim(b);
		if (err)
			return err;
	}

	XSKX_OPTS(xskx_socket_opts, sock_opts, .ifname = o->ifname,
		  .sim_port = b->port, .queue_id = o->queue_id,
		  .rx_size = o->rx_size, .tx_size = o->tx_size,
		  .flags = socket_flags(o), .copy_mode = o->copy_mode,
		  .xdp_mode = o->xdp_mode, .xdp_fallback = o->xdp_fallback,
		  /* l2fwd sends the frames it received: keep none aside. */
		  .tx_reserve = o->mode == BENCH_L2FWD ? XSKX_TX_RESERVE_NONE :
							 0);
	err = xskx_socket_open(&b->sock, b->umem, &sock_opts);
	if (err)
		return run_lib_error("xskx_socket_open", err);
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
	int err;

	if (b->opts->app_cpu >= 0)
		run_pin_this_thread(b->opts->app_cpu);
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
	if (b->sock && (err = xskx_socket_close(b->sock)))
		run_lib_error("xskx_socket_close", err);
	if (b->sim && (err = xskx_sim_destroy(b->sim)))
		run_lib_error("xskx_sim_destroy", err);
	if (b->umem && (err = xskx_umem_destroy(b->umem)))
		run_lib_error("xskx_umem_destroy", err);
	free(b->pkts);
	free(b->frames);
	free(b->views);
	free(b->free_frames);
	*b = (struct bench){ 0 };
}
