// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reclaiming COMPLETION (lib/rings/completion.h): completed frames go
 * straight back to FILL when the refill would post them now anyway, else
 * onto the pool's stack, in stretches that wrap neither ring; addresses
 * outside the UMEM are counted, never pooled. xskx_tx_reclaim() is the
 * public call for it.
 */
#include <errno.h>

#include "api.h"
#include "log_internal.h"
#include "rings/completion.h"
#include "rings/fill.h"
#include "rings/kick.h"
#include "rings/tx_meta.h"

/*
 * Where n frames go back on the pool's stack in one stretch, or NULL when the
 * per-frame path is needed (frames not a power of two, or a pool too full to
 * take them all: the peer returned a frame twice).
 */
static uint64_t *pool_room(struct xskx_umem *umem, uint32_t n, uint64_t *mask)
{
	struct xskx_frame_pool *pool = &umem->pool;

	*mask = xskx_umem_base_mask(umem);
	if (!*mask || pool->count + n > umem->frame_count)
		return NULL;
	pool->count += n;
	return pool->addrs + pool->count - n;
}

/*
 * Copy mode completes invalid TX descriptors too (kernel 6.18), whatever
 * their address: one outside the UMEM is no frame. Aligned mode has no
 * offset bits, so any of them set is outside too.
 */
static bool addr_in_umem(const struct xskx_umem *umem, uint64_t addr)
{
	if (!(umem->flags & XSKX_UMEM_UNALIGNED))
		return addr < umem->size;
	return xsk_umem__extract_addr(addr) < umem->size;
}

/*
 * A peer that sends only inside sendto() (copy mode: the TX flag stays up)
 * leaves descriptors on TX until kicked again; reclaiming is when the
 * application waits for them, so kick once if any are still queued.
 * Returns 0 or the kick's hard error.
 */
static int drain_copy_mode_tx(struct xskx_socket *s)
{
	if (!s->tx.ring || !xskx_ring_needs_wakeup(&s->tx) ||
	    xsk_prod_nb_free(&s->tx, s->tx.size) == s->tx.size)
		return 0;
	return xskx_socket_kick_tx(s);
}

/*
 * The common case of reclaim_completions(), aligned mode: the addresses
 * inside the UMEM, as frame starts, into slots[(first + k) & slot_mask] for
 * the k-th — the pool's stack (slot_mask all ones, a constant: no masking
 * in the loop) or FILL's reserved slots. The size is a local: the stores
 * could alias the UMEM's fields. Returns how many were inside (kept).
 */
static inline __attribute__((always_inline)) uint32_t
reclaim_aligned(const struct xsk_ring_cons *comp, uint32_t idx, uint32_t n,
		const uint64_t size, const uint64_t base_mask, uint64_t *slots,
		uint32_t first, uint32_t slot_mask)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(comp, idx + i);

		if (__builtin_expect(addr < size, 1))
			slots[(first + kept++) & slot_mask] = addr & base_mask;
	}
	return kept;
}

/*
 * k addresses from src to dst, as frame starts, both stretches that do not
 * wrap; returns a bound on every address seen so far (bound included), so
 * that one compare after the whole copy says whether all were inside the
 * UMEM. or_bound: the addresses OR-ed together, which is no lower than any
 * of them and, on a UMEM a power of two in size, below it exactly when all
 * are; the loop then vectorizes (SSE2 has no 64-bit compare for a maximum)
 * and costs about half as much. Otherwise the highest address. The callers
 * pass or_bound as a constant, so each gets its own loop.
 */
static inline __attribute__((always_inline)) uint64_t
comp_stretch(const uint64_t *src, uint64_t *dst, uint32_t k,
	     const uint64_t base_mask, uint64_t bound, const bool or_bound)
{
	for (uint32_t i = 0; i < k; i++) {
		uint64_t addr = src[i];

		dst[i] = addr & base_mask;
		if (or_bound)
			bound |= addr;
		else
			bound = addr > bound ? addr : bound;
	}
	return bound;
}

/*
 * n COMPLETION entries from idx into dst's slots from dst_idx, in
 * stretches that wrap neither ring; returns comp_stretch()'s bound on
 * them.
 */
static inline __attribute__((always_inline)) uint64_t
comp_stretches(const struct xsk_ring_cons *comp, uint32_t idx, uint32_t n,
	       uint64_t *dst, uint32_t dst_idx, uint32_t dst_mask,
	       const uint64_t base_mask, const bool or_bound)
{
	const uint64_t *src = comp->ring;
	uint64_t bound = 0;

	while (n) {
		uint32_t from = idx & comp->mask, to = dst_idx & dst_mask;
		uint64_t k = n;

		if (k > comp->size - from)
			k = comp->size - from;
		if (k > (uint64_t)dst_mask + 1 - to)
			k = (uint64_t)dst_mask + 1 - to;
		bound = comp_stretch(src + from, dst + to, (uint32_t)k,
				     base_mask, bound, or_bound);
		idx += (uint32_t)k;
		dst_idx += (uint32_t)k;
		n -= (uint32_t)k;
	}
	return bound;
}

/*
 * The fast path of reclaim_aligned(): n COMPLETION entries from idx into
 * dst's slots from dst_idx (dst_mask all ones for the pool's stack), in
 * stretches that wrap neither ring. Returns false when an address was
 * outside the UMEM: the slots then hold garbage, for reclaim_aligned() to
 * write again.
 */
static inline __attribute__((always_inline)) bool
comp_copy(const struct xsk_ring_cons *comp, uint32_t idx, uint32_t n,
	  uint64_t *dst, uint32_t dst_idx, uint32_t dst_mask,
	  const uint64_t size, const uint64_t base_mask)
{
	if (!(size & (size - 1)))
		return comp_stretches(comp, idx, n, dst, dst_idx, dst_mask,
				      base_mask, true) < size;
	return comp_stretches(comp, idx, n, dst, dst_idx, dst_mask, base_mask,
			      false) < size;
}

/*
 * Completed frames straight back to FILL when the refill would post them
 * now anyway (xskx__recycle_to_fill()): l2fwd's frames go round without a
 * stop in the pool. Returns how many were inside the UMEM.
 */
static uint32_t reclaim_into_fill(struct xskx_socket *s, uint32_t idx,
				  uint32_t n)
{
	struct xsk_ring_prod *fill = &s->fq->fill;
	uint32_t fill_idx = 0, kept;

	xsk_ring_prod__reserve(fill, n, &fill_idx);
	if (comp_copy(&s->fq->comp, idx, n, fill->ring, fill_idx, fill->mask,
		      s->umem->size, xskx_umem_base_mask(s->umem)))
		kept = n;
	else
		kept = reclaim_aligned(&s->fq->comp, idx, n, s->umem->size,
				       xskx_umem_base_mask(s->umem), fill->ring,
				       fill_idx, fill->mask);
	xskx_ring_prod_cancel(fill, n - kept);
	xsk_ring_prod__submit(fill, kept);
	s->fq->posted += kept;
	if (kept)
		s->stats.fill_refills++;
	return kept;
}

/*
 * Linux 6.18's copy mode completes a TX address with bit 0 cleared (it
 * keeps the address in the skb with that bit as a flag): an unaligned frame
 * of an odd size that starts at an odd address comes back as the last byte
 * of the frame before it, which would put that frame in the pool twice and
 * lose this one. An even address one byte before a frame start is taken
 * for that frame. Frames of an even size never start at an odd address;
 * the one address this misreads, a one-byte packet sent from the last byte
 * of a frame before an odd frame start, is sent by nobody.
 */
static uint64_t comp_addr_bit0_restored(const struct xskx_umem *umem,
					uint64_t addr)
{
	uint64_t a = xsk_umem__extract_addr(addr);

	if (!(a & 1) && (a + 1) % umem->frame_size == 0 && a + 1 < umem->size)
		return a + 1;
	return addr;
}

/*
 * The UMEM flags that send reclaiming down its general path, address by
 * address: unaligned chunks, and sockets reading TX timestamps back.
 */
#define RECLAIM_GENERAL (XSKX_UMEM_UNALIGNED | XSKX_UMEM_TX_TIMESTAMPS)

/* Into the pool; returns how many were inside the UMEM. */
static uint32_t reclaim_into_pool(struct xskx_socket *s, uint32_t idx,
				  uint32_t n)
{
	struct xsk_ring_cons *comp = &s->fq->comp;
	struct xskx_umem *umem = s->umem;
	uint32_t kept = 0, bad = 0;
	uint64_t mask;
	uint64_t *room = pool_room(umem, n, &mask);

	if (room && !(umem->flags & RECLAIM_GENERAL)) {
		if (comp_copy(comp, idx, n, room, 0, UINT32_MAX, umem->size,
			      mask))
			kept = n;
		else
			kept = reclaim_aligned(comp, idx, n, umem->size, mask,
					       room, 0, UINT32_MAX);
		bad = n - kept;
	} else {
		if (s->tx_ts.ts)
			xskx__tx_ts_collect(s, idx, n);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t addr = *xsk_ring_cons__comp_addr(comp, idx + i);

			if (__builtin_expect(!addr_in_umem(umem, addr), 0)) {
				bad++;
				continue;
			}
			if (__builtin_expect(s->comp_clears_bit0, 0))
				addr = comp_addr_bit0_restored(umem, addr);
			if (__builtin_expect(room != NULL, 1))
				room[kept++] = addr & mask;
			else
				xskx_pool_put(umem, addr);
		}
	}
	if (room)
		umem->pool.count -= n - kept;
	return n - bad;
}

uint32_t xskx__reclaim_completions(struct xskx_socket *s)
{
	struct xsk_ring_cons *comp = &s->fq->comp;
	uint32_t idx = 0, good;
	uint32_t n = xsk_ring_cons__peek(comp, comp->size, &idx);

	if (!n)
		return 0;
	/*
	 * A UMEM whose sockets read TX timestamps takes the general path,
	 * which reads them: the common one pays no test of its own for it.
	 */
	if (!(s->umem->flags & RECLAIM_GENERAL) && xskx__recycle_to_fill(s, n))
		good = reclaim_into_fill(s, idx, n);
	else
		good = reclaim_into_pool(s, idx, n);
	xsk_ring_cons__release(comp, n);
	s->stats.tx_completed += good;
	s->stats.tx_bad_completions += n - good;
	return good;
}

XSKX_API int xskx_tx_reclaim(struct xskx_socket *s)
{
	uint32_t n;
	int err;

	if (!s)
		return xskx__fail(-EINVAL, "xskx_tx_reclaim: socket is NULL");
	err = drain_copy_mode_tx(s);
	/* The completions are reclaimed all the same: they are the pool's. */
	n = xskx__reclaim_completions(s);
	return err ? err : (int)n;
}
