// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the three modes of xdpsock on the xskx burst API. Each step is
 * one burst; run.c calls it in a loop. The burst calls refill FILL, reclaim
 * COMPLETION and kick the peer themselves, only when it asks for it.
 */
#include <errno.h>
#include <stdlib.h>

#include "bench.h"
#include "eth.h"

int bench_rxdrop_step(struct bench *b)
{
	int n = xskx_rx_burst(b->sock, b->pkts, b->opts->batch);

	if (n <= 0)
		return n;
	xskx_rx_release(b->sock, b->pkts, (uint32_t)n);
	b->rx_packets += (uint32_t)n;
	return n;
}

int bench_txonly_prepare(struct bench *b)
{
	uint32_t count = xskx_umem_frame_count(b->umem);
	void *area = xskx_umem_area(b->umem);
	uint64_t *frames = calloc(count, sizeof(*frames));
	uint32_t n;

	if (!frames)
		return run_lib_error("calloc", -ENOMEM);
	n = xskx_frame_alloc(b->umem, frames, count);
	for (uint32_t i = 0; i < n; i++)
		bench_build_udp_frame(
			xskx_umem_addr_data(area, xskx_umem_tx_addr(b->umem,
								    frames[i])),
			b->opts->pkt_size);
	xskx_frame_free(b->umem, frames, n);
	free(frames);
	return 0;
}

int bench_txonly_step(struct bench *b)
{
	uint32_t n = xskx_frame_alloc(b->umem, b->frames, b->opts->batch);
	int sent;

	for (uint32_t i = 0; i < n; i++)
		b->pkts[i] = (struct xskx_pkt){
			.addr = b->frames[i] + b->tx_offset,
			.len = b->opts->pkt_size,
		};
	/*
	 * Even with no frame to send (all in flight), the burst reclaims
	 * completions for the next round and wakes the NIC if it stopped.
	 */
	sent = xskx_tx_burst(b->sock, b->pkts, n);
	if (sent < 0) {
		xskx_frame_free(b->umem, b->frames, n);
		return sent;
	}
	if ((uint32_t)sent < n)
		xskx_frame_free(b->umem, b->frames + sent, n - (uint32_t)sent);
	b->tx_packets += (uint32_t)sent;
	return sent;
}

/*
 * Forward what was received back out of the same socket: the TX descriptor
 * points at the very frame the packet arrived in, no copy. Packets the TX
 * ring cannot take yet are held and retried before receiving more, so a
 * slow TX side slows RX down (backpressure) instead of dropping.
 */
int bench_l2fwd_step(struct bench *b)
{
	int sent;

	if (!b->fwd_pending) {
		int n = xskx_rx_burst(b->sock, b->pkts, b->opts->batch);

		if (n < 0)
			return n;
		for (int i = 0; i < n; i++)
			eth_swap_macs(b->pkts[i].data);
		b->rx_packets += (uint32_t)n;
		b->fwd_next = 0;
		b->fwd_pending = (uint32_t)n;
	}
	/* With nothing to forward, still reclaim completions and wake TX. */
	sent = xskx_tx_burst(b->sock, b->pkts + b->fwd_next, b->fwd_pending);
	if (sent < 0)
		return sent;
	b->fwd_next += (uint32_t)sent;
	b->fwd_pending -= (uint32_t)sent;
	b->tx_packets += (uint32_t)sent;
	return sent;
}

/*
 * --xdp-action tx|drop: the port's XDP hook decides every packet and none
 * reaches the RX ring; this thread only kicks the NIC (the burst does, on
 * busy polling or when FILL asks) and counts what the hook did.
 */
int bench_xdp_step(struct bench *b)
{
	struct xskx_sim_port_stats port;
	uint64_t before = b->rx_packets;
	int n = xskx_rx_burst(b->sock, b->pkts, b->opts->batch);
	int err;

	if (n < 0)
		return n;
	err = xskx_sim_port_stats(b->port, &port);
	if (err)
		return err;
	b->rx_packets = b->opts->xdp_action == BENCH_XDP_TX ? port.xdp_tx :
							      port.xdp_drop;
	b->tx_packets = port.tx_packets;
	return (int)(b->rx_packets - before);
}
