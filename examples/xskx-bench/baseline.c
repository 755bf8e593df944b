// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench --baseline: each mode on the same rings as its burst-API step,
 * driven with libxdp's inline ring operations only, the way an application
 * on bare libxdp does it (xdpsock's loops): no frame pool, no packet views
 * built by a library, no statistics in between. Each step does the work the
 * burst-API step does, so that what it costs less is the cost of the
 * wrapper:
 *   rxdrop  read each packet's data pointer and length into the
 *           application's array, give its frame straight back to FILL;
 *   txonly  reclaim COMPLETION onto the application's own free stack,
 *           write a descriptor per frame sent;
 *   l2fwd   swap each received packet's MACs, put its descriptor on TX,
 *           and give completed frames straight back to FILL.
 * Kicks follow the burst API's rules (need_wakeup, or every idle burst
 * with busy polling), through the same xskx_socket_kick_rx/_tx.
 */
#include <errno.h>
#include <stdlib.h>

#include "bench.h"
#include "eth.h"

/*
 * txonly: the baseline owns every frame from the start, as an application
 * on bare libxdp owns its whole UMEM; the library's pool is left empty.
 */
int bench_baseline_prepare(struct bench *b)
{
	uint32_t count = xskx_umem_frame_count(b->umem);

	if (b->opts->mode != BENCH_TXONLY)
		return 0;
	b->free_frames = calloc(count, sizeof(*b->free_frames));
	if (!b->free_frames)
		return run_lib_error("calloc", -ENOMEM);
	b->free_count = xskx_frame_alloc(b->umem, b->free_frames, count);
	return 0;
}

/*
 * Before the socket closes: every frame back to the library, those still on
 * the rings too, which the socket's close then finds the pool already holds
 * (and counts as given back twice, harmlessly): the baseline sent them
 * behind the library's back.
 */
void bench_baseline_finish(struct bench *b)
{
	uint32_t count = xskx_umem_frame_count(b->umem);
	uint32_t size = xskx_umem_frame_size(b->umem);
	int err;

	if (!b->free_frames)
		return;
	for (uint32_t i = 0; i < count; i++)
		b->free_frames[i] = (uint64_t)i * size;
	err = xskx_frame_free(b->umem, b->free_frames, count);
	if (err)
		run_lib_error("xskx_frame_free", err);
}

static int kick_rx_if_asked(struct bench *b, uint32_t received)
{
	if (received ||
	    !(b->opts->busy_poll || xsk_ring_prod__needs_wakeup(b->rings.fill)))
		return 0;
	return xskx_socket_kick_rx(b->sock);
}

static int kick_tx_if_asked(struct bench *b, uint32_t sent)
{
	struct xsk_ring_prod *tx = b->rings.tx;

	if (!(b->opts->busy_poll || xsk_ring_prod__needs_wakeup(tx)) ||
	    (!sent && xsk_prod_nb_free(tx, tx->size) == tx->size))
		return 0;
	return xskx_socket_kick_tx(b->sock);
}

int bench_baseline_rxdrop_step(struct bench *b)
{
	struct xsk_ring_cons *rx = b->rings.rx;
	struct xsk_ring_prod *fill = b->rings.fill;
	/* Locals: the stores to views[] could alias the rings' fields. */
	struct bench_view *views = b->views;
	const uint64_t mask = b->frame_mask;
	void *area = b->rings.area;
	uint32_t rx_idx = 0, fill_idx = 0;
	uint32_t n = xsk_ring_cons__peek(rx, b->opts->batch, &rx_idx);
	int err = kick_rx_if_asked(b, n);

	if (err || !n)
		return err;
	/*
	 * Every frame in circulation came off FILL, and the socket put no more
	 * on FILL than it holds, so there is a slot for each received frame.
	 */
	if (xsk_ring_prod__reserve(fill, n, &fill_idx) != n) {
		xsk_ring_cons__cancel(rx, n);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct xdp_desc *d =
			xsk_ring_cons__rx_desc(rx, rx_idx + i);

		views[i].data = xsk_umem__get_data(area, d->addr);
		views[i].len = d->len;
		*xsk_ring_prod__fill_addr(fill, fill_idx + i) = d->addr & mask;
	}
	xsk_ring_prod__submit(fill, n);
	xsk_ring_cons__release(rx, n);
	b->rx_packets += n;
	return (int)n;
}

int bench_baseline_txonly_step(struct bench *b)
{
	struct xsk_ring_cons *comp = b->rings.comp;
	struct xsk_ring_prod *tx = b->rings.tx;
	uint64_t *free_frames = b->free_frames;
	uint32_t idx = 0, n = xsk_ring_cons__peek(comp, comp->size, &idx);
	uint32_t count = b->free_count;
	int err;

	for (uint32_t i = 0; i < n; i++)
		free_frames[count++] =
			*xsk_ring_cons__comp_addr(comp, idx + i) &
			b->frame_mask;
	xsk_ring_cons__release(comp, n);
	n = xsk_prod_nb_free(tx, b->opts->batch);
	if (n > b->opts->batch)
		n = b->opts->batch;
	if (n > count)
		n = count;
	if (n) {
		xsk_ring_prod__reserve(tx, n, &idx);
		for (uint32_t i = 0; i < n; i++) {
			struct xdp_desc *d =
				xsk_ring_prod__tx_desc(tx, idx + i);

			d->addr = free_frames[--count] + b->tx_offset;
			d->len = b->opts->pkt_size;
		}
		xsk_ring_prod__submit(tx, n);
	}
	b->free_count = count;
	b->tx_packets += n;
	err = kick_tx_if_asked(b, n);
	return err ? err : (int)n;
}

/* l2fwd: completed frames straight back to FILL, which holds every frame. */
static void recycle_completions(struct bench *b)
{
	struct xsk_ring_cons *comp = b->rings.comp;
	struct xsk_ring_prod *fill = b->rings.fill;
	uint32_t comp_idx = 0, fill_idx = 0;
	uint32_t n = xsk_ring_cons__peek(comp, comp->size, &comp_idx);

	if (!n)
		return;
	xsk_ring_prod__reserve(fill, n, &fill_idx);
	for (uint32_t i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(fill, fill_idx + i) =
			*xsk_ring_cons__comp_addr(comp, comp_idx + i) &
			b->frame_mask;
	xsk_ring_prod__submit(fill, n);
	xsk_ring_cons__release(comp, n);
}

/*
 * Forward in place: receive no more than TX has room for, so that nothing
 * waits between the rings (the burst-API step holds such packets instead).
 */
int bench_baseline_l2fwd_step(struct bench *b)
{
	struct xsk_ring_cons *rx = b->rings.rx;
	struct xsk_ring_prod *tx = b->rings.tx;
	uint32_t room, rx_idx = 0, tx_idx = 0, n;
	int err;

	recycle_completions(b);
	room = xsk_prod_nb_free(tx, b->opts->batch);
	n = xsk_ring_cons__peek(
		rx, room < b->opts->batch ? room : b->opts->batch, &rx_idx);
	err = kick_rx_if_asked(b, n);
	if (err)
		return err;
	if (n) {
		void *area = b->rings.area;

		xsk_ring_prod__reserve(tx, n, &tx_idx);
		for (uint32_t i = 0; i < n; i++) {
			const struct xdp_desc *in =
				xsk_ring_cons__rx_desc(rx, rx_idx + i);
			struct xdp_desc *out =
				xsk_ring_prod__tx_desc(tx, tx_idx + i);

			/* The packet as the application looks at it. */
			eth_swap_macs(xsk_umem__get_data(area, in->addr));
			*out = (struct xdp_desc){ .addr = in->addr,
						  .len = in->len };
		}
		xsk_ring_prod__submit(tx, n);
		xsk_ring_cons__release(rx, n);
		b->rx_packets += n;
	}
	b->tx_packets += n;
	err = kick_tx_if_asked(b, n);
	return err ? err : (int)n;
}
