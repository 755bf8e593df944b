// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench --api batch: the three modes on the batch API (xskx/batch.h),
 * doing the work the burst-API steps and the baseline do: rxdrop reads
 * each packet's data pointer and length and gives the frames back; txonly
 * sends frames the packet was written into once (bench_txonly_prepare());
 * l2fwd swaps MACs and forwards each packet in the frame it arrived in.
 */
#include "bench.h"
#include "eth.h"

/* -F: the packets among a batch's first n entries are its chain ends. */
static uint32_t batch_packets(const struct xskx_rx_batch *batch, uint32_t n)
{
	uint32_t ends = 0;

	for (uint32_t i = 0; i < n; i++)
		ends += !(xskx_rx_batch_options(batch, i) & XDP_PKT_CONTD);
	return ends;
}

int bench_batch_rxdrop_step(struct bench *b)
{
	struct xskx_rx_batch batch;
	struct bench_view *views = b->views;
	int n = xskx_rx_peek(b->sock, &batch, b->opts->batch);
	int err;

	if (n <= 0)
		return n;
	for (int i = 0; i < n; i++) {
		views[i].data = xskx_rx_batch_data(&batch, (uint32_t)i);
		views[i].len = xskx_rx_batch_len(&batch, (uint32_t)i);
	}
	b->rx_packets += b->opts->multi_buffer ?
				 batch_packets(&batch, (uint32_t)n) :
				 (uint32_t)n;
	if (b->opts->rx_meta)
		bench_rx_meta_count_batch(&b->rx_meta, b->sock, &batch,
					  (uint32_t)n);
	err = xskx_rx_recycle(b->sock, &batch);
	return err < 0 ? err : n;
}

int bench_batch_txonly_step(struct bench *b)
{
	struct xskx_tx_batch batch;
	uint32_t want = bench_pace(b, bench_txonly_batch(b));
	int n = xskx_tx_reserve(b->sock, &batch, want, b->opts->pkt_size);

	if (n < 0)
		return n;
	if (b->opts->packet.timestamp) {
		struct timespec now;

		clock_gettime(b->opts->clock, &now);
		for (int i = 0; i < n; i++)
			bench_packet_stamp(xskx_tx_batch_data(&batch, (uint32_t)i),
					   &b->opts->packet, b->tx_seq++, &now);
	}
	/* Even an empty batch: the submit wakes a peer that waits. */
	n = xskx_tx_submit(b->sock, &batch, (uint32_t)n);
	if (n > 0)
		b->tx_packets += (uint32_t)n;
	return n;
}

/*
 * Swap the MACs of the packets peeked; with -F, of first fragments only.
 * Without -F every entry is a packet: no chain to follow, as in the burst
 * step and the baseline.
 */
static void swap_batch(struct bench *b, const struct xskx_rx_batch *batch)
{
	if (!b->opts->multi_buffer) {
		for (uint32_t i = 0; i < batch->n; i++)
			eth_swap_macs(xskx_rx_batch_data(batch, i));
		return;
	}
	for (uint32_t i = 0; i < batch->n; i++) {
		if (!b->rx_in_chain)
			eth_swap_macs(xskx_rx_batch_data(batch, i));
		b->rx_in_chain = xskx_rx_batch_options(batch, i) & XDP_PKT_CONTD;
	}
}

/*
 * Peek when the last batch is all forwarded, then forward what TX takes;
 * what it cannot take yet stays on the RX ring for the next step, so a
 * slow TX side slows RX down (backpressure) instead of dropping.
 */
int bench_batch_l2fwd_step(struct bench *b)
{
	struct xskx_rx_batch *batch = &b->fwd_batch;
	struct xskx_rx_batch before;
	int n;

	if (!batch->n) {
		n = xskx_rx_peek(b->sock, batch, b->opts->batch);
		if (n < 0)
			return n;
		if (b->opts->rx_meta)
			bench_rx_meta_count_batch(&b->rx_meta, b->sock, batch,
						  (uint32_t)n);
		swap_batch(b, batch);
		b->rx_packets += b->opts->multi_buffer ?
					 batch_packets(batch, (uint32_t)n) :
					 (uint32_t)n;
	}
	before = *batch;
	n = xskx_rx_forward(b->sock, batch, b->tx_sock);
	if (n > 0)
		b->tx_packets += b->opts->multi_buffer ?
					 batch_packets(&before, (uint32_t)n) :
					 (uint32_t)n;
	return n;
}
