/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The FILL ring: frames from the pool to the peer, in batches, up to the
 * queue's share (docs/FRAME_SHARING.md).
 */
#ifndef XSKX_RINGS_FILL_H
#define XSKX_RINGS_FILL_H

#include <stdbool.h>
#include <stdint.h>

#include "frames/frame_pool.h"
#include "rings/rings.h"

/*
 * Move up to max frames from the pool to the socket's FILL ring, as many as
 * fit, up to its pair's fill_max, leaving the socket's tx_reserve in the
 * pool. Returns how many.
 */
uint32_t xskx__fill_from_pool(struct xskx_socket *sock, uint32_t max);

/*
 * Top FILL up to the pair's share when a refill batch is missing from it, or
 * whatever there is when the peer ran dry and said so (the refill of every
 * RX call and of xskx_socket_poll()).
 */
void xskx__refill(struct xskx_socket *sock);

/*
 * Whether n frames given back can go straight onto the socket's FILL ring
 * instead of through the pool (saving a second copy of every address): the
 * refill would post them now anyway — FILL lacks a refill batch, or the
 * peer asked — they all fit the pair's share and the ring, and the pool
 * already holds the socket's TX reserve.
 */
static inline bool xskx__recycle_to_fill(const struct xskx_socket *s, uint32_t n)
{
	struct xskx_fq_cq *fq = s->fq;
	uint32_t missing =
		fq->fill_max > fq->posted ? fq->fill_max - fq->posted : 0;

	if (!s->umem->frame_shift || s->umem->pool.count < s->tx_reserve ||
	    n > missing)
		return false;
	if (missing < s->refill_batch && !xskx_ring_needs_wakeup(&fq->fill))
		return false;
	return xsk_prod_nb_free(&fq->fill, n) >= n;
}

#endif /* XSKX_RINGS_FILL_H */
