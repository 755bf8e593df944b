// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The FILL ring's refill: frames from the pool's top to FILL, in one
 * batch once a refill batch is missing, or at once when the peer ran dry
 * and asked (need_wakeup). Frames given back by the application or
 * completed by the peer skip the pool when the refill would post them
 * now anyway (xskx__recycle_to_fill(), fill.h).
 */
#include <string.h>

#include "rings/fill.h"

/*
 * Write n addresses into FILL slots [idx, idx + n): at most two stretches,
 * split where the ring wraps. The pool hands out its top n frames in one
 * block; their order does not matter.
 */
static void copy_to_ring(struct xsk_ring_prod *fill, uint32_t idx,
			 const uint64_t *addrs, uint32_t n)
{
	uint32_t first = xskx__ring_run(idx, fill->size, n);

	memcpy(xsk_ring_prod__fill_addr(fill, idx), addrs, first * sizeof(*addrs));
	memcpy(xsk_ring_prod__fill_addr(fill, idx + first), addrs + first,
	       (n - first) * sizeof(*addrs));
}

uint32_t xskx__fill_from_pool(struct xskx_socket *s, uint32_t max)
{
	struct xskx_fq_cq *fq = s->fq;
	struct xskx_frame_pool *pool = &s->umem->pool;
	uint32_t spare = pool->count > s->tx_reserve ? pool->count - s->tx_reserve : 0;
	uint32_t room = fq->fill_max > fq->posted ? fq->fill_max - fq->posted : 0;
	uint32_t n = xsk_prod_nb_free(&fq->fill, max);
	uint32_t idx = 0;

	if (n > max)
		n = max;
	if (n > spare)
		n = spare;
	if (n > room)
		n = room;
	if (!n)
		return 0;
	xsk_ring_prod__reserve(&fq->fill, n, &idx);
	pool->count -= n;
	copy_to_ring(&fq->fill, idx, pool->addrs + pool->count, n);
	xsk_ring_prod__submit(&fq->fill, n);
	fq->posted += n;
	return n;
}

/*
 * Top FILL up to the pair's share: in one batch once refill_batch frames are
 * missing from it, or at once, whatever there is, when the peer ran dry and
 * said so.
 */
void xskx__refill(struct xskx_socket *s)
{
	struct xskx_fq_cq *fq = s->fq;

	/* Nothing spare in the pool (released frames went to FILL already). */
	if (s->umem->pool.count <= s->tx_reserve)
		return;
	if (!xskx_ring_needs_wakeup(&fq->fill) &&
	    (fq->posted + s->refill_batch > fq->fill_max ||
	     xsk_prod_nb_free(&fq->fill, s->refill_batch) < s->refill_batch))
		return;
	if (xskx__fill_from_pool(s, UINT32_MAX))
		s->stats.fill_refills++;
}
