/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The application side of the four AF_XDP rings.
 *
 * xskx keeps the kernel's ring ABI as its seam: the rings are libxdp's
 * struct xsk_ring_prod (FILL, TX: the application produces) and struct
 * xsk_ring_cons (RX, COMPLETION: the application consumes), mapped either
 * from a real AF_XDP socket or from the simulated NIC, which lays its rings
 * out exactly as the kernel does. libxdp's inline operations (reserve,
 * submit, peek, release, cancel) are the fast path; this header adds the few
 * that libxdp lacks.
 *
 * The protocol, once (see net/xdp/xsk_queue.h in the kernel):
 *
 *   producer                               consumer
 *   --------                               --------
 *   write entries [prod, prod+n)           load_acquire(producer)   (B)
 *   store_release(producer, prod+n)  (A)   read entries [cons, cons+m)
 *   ...                                    store_release(consumer, cons+m) (C)
 *   load_acquire(consumer)           (D)
 *
 * (A) pairs with (B): the consumer sees the entries before the index that
 * publishes them. (C) pairs with (D): the producer reuses a slot only after
 * the consumer is done reading it. Indices are free-running 32-bit counters,
 * masked on access, so they wrap past 2^32 on their own; every subtraction
 * below is modulo 2^32 and stays correct across the wrap. Each side caches
 * the other side's index and reloads it only when the cached view runs out.
 */
#ifndef XSKX_RING_H
#define XSKX_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <xdp/xsk.h>
#include <xskx/if_xdp_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Give back the last nb entries of a reservation that were not filled in.
 * Valid only between xsk_ring_prod__reserve() and xsk_ring_prod__submit():
 * nothing is published yet, so only the cached producer index moves.
 */
static inline void xskx_ring_prod_cancel(struct xsk_ring_prod *prod,
					 uint32_t nb)
{
	prod->cached_prod -= nb;
}

/*
 * Entries published by the producer and not yet released by the consumer,
 * read from the shared indices (not the caches). Costs two acquire loads; for
 * accounting and diagnostics, not the fast path.
 */
static inline uint32_t xskx_ring_prod_queued(const struct xsk_ring_prod *r)
{
	return __atomic_load_n(r->producer, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
}

static inline uint32_t xskx_ring_cons_queued(const struct xsk_ring_cons *r)
{
	return __atomic_load_n(r->producer, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
}

/*
 * Whether the peer asked for a wakeup on this ring. The peer writes the flags
 * word from another thread (or CPU) at any time; libxdp's
 * xsk_ring_prod__needs_wakeup() reads it plainly, this reads it atomically
 * (a plain load on x86 and arm64 all the same).
 */
static inline bool xskx_ring_needs_wakeup(const struct xsk_ring_prod *r)
{
	return __atomic_load_n(r->flags, __ATOMIC_RELAXED) & XDP_RING_NEED_WAKEUP;
}

/* Free slots the producer may fill right now (refreshes the cached view). */
static inline uint32_t xskx_ring_prod_free(struct xsk_ring_prod *r)
{
	return xsk_prod_nb_free(r, r->size);
}

/*
 * Data pointer of a UMEM address in either chunk mode: in unaligned mode the
 * kernel puts the offset of the data in the top 16 bits of the address; in
 * aligned mode those bits are zero, so one formula serves both.
 */
static inline void *xskx_umem_addr_data(void *area, uint64_t addr)
{
	return (char *)area + xsk_umem__add_offset_to_addr(addr);
}

#ifdef __cplusplus
}
#endif

#endif /* XSKX_RING_H */
