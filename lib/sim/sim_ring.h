/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The NIC's side of an AF_XDP ring: it consumes FILL and TX and produces RX
 * and COMPLETION, with the protocol of include/xskx/ring.h seen from the
 * other end:
 *
 *   NIC consuming FILL/TX                 NIC producing RX/COMPLETION
 *   load_acquire(producer)      (B)       write entries [prod, prod+n)
 *   read entries [cons, cons+m)           store_release(producer)     (A)
 *   store_release(consumer)     (C)       load_acquire(consumer)      (D)
 *
 * Each side keeps cached copies of both indices and reloads the
 * application's index only when the cached view runs out, so a batch costs
 * one shared load and one shared store.
 *
 * The shared block is laid out as the kernel's struct xdp_ring (see
 * net/xdp/xsk_queue.h): producer, consumer and flags each on a cache line
 * of their own with a padding line between producer and consumer (so the
 * adjacent-line prefetcher does not couple them), then the descriptor array
 * on a cache-line boundary.
 */
#ifndef XSKX_SIM_RING_H
#define XSKX_SIM_RING_H

#include <linux/if_xdp.h>
#include <stdbool.h>
#include <stdint.h>

#define SIM_CACHE_LINE 64

struct sim_ring_shared {
	uint32_t producer __attribute__((aligned(SIM_CACHE_LINE)));
	uint32_t pad1 __attribute__((aligned(SIM_CACHE_LINE)));
	uint32_t consumer __attribute__((aligned(SIM_CACHE_LINE)));
	uint32_t pad2 __attribute__((aligned(SIM_CACHE_LINE)));
	uint32_t flags;
	uint32_t pad3 __attribute__((aligned(SIM_CACHE_LINE)));
};

struct sim_ring {
	struct sim_ring_shared *shared;
	void *desc; /* uint64_t[] (FILL, COMP) or xdp_desc[] (RX, TX) */
	uint32_t mask;
	uint32_t entries;
	uint32_t cached_prod;
	uint32_t cached_cons;
	/* Counted by the NIC, read by getsockopt: see sim_count(). */
	uint64_t invalid_descs;
	uint64_t queue_empty_descs;
};

/* entries: a power of two; desc_size: 8 (FILL, COMP) or 16 (RX, TX). */
struct sim_ring *xskx__sim_ring_create(uint32_t entries, uint32_t desc_size);
void xskx__sim_ring_destroy(struct sim_ring *ring);

/* Consumer side (FILL, TX). */

/* Entries published and not yet taken, at most max. */
static inline uint32_t sim_ring_cons_avail(struct sim_ring *r, uint32_t max)
{
	uint32_t n = r->cached_prod - r->cached_cons;

	if (n < max) {
		/* (B) pairs with the application's (A) */
		r->cached_prod =
			__atomic_load_n(&r->shared->producer, __ATOMIC_ACQUIRE);
		n = r->cached_prod - r->cached_cons;
	}
	return n < max ? n : max;
}

/* Hand n entries back after reading them. */
static inline void sim_ring_cons_release(struct sim_ring *r, uint32_t n)
{
	r->cached_cons += n;
	/* (C) pairs with the application's (D) */
	__atomic_store_n(&r->shared->consumer, r->cached_cons,
			 __ATOMIC_RELEASE);
}

/* Producer side (RX, COMPLETION). */

/* Free slots, at most max; counts slots written and not yet submitted. */
static inline uint32_t sim_ring_prod_free(struct sim_ring *r, uint32_t max)
{
	uint32_t n = r->entries - (r->cached_prod - r->cached_cons);

	if (n < max) {
		/* (D) pairs with the application's (C) */
		r->cached_cons =
			__atomic_load_n(&r->shared->consumer, __ATOMIC_ACQUIRE);
		n = r->entries - (r->cached_prod - r->cached_cons);
	}
	return n < max ? n : max;
}

/* Publish every slot written since the last submit. */
static inline void sim_ring_prod_submit(struct sim_ring *r)
{
	/* (A) pairs with the application's (B) */
	__atomic_store_n(&r->shared->producer, r->cached_prod,
			 __ATOMIC_RELEASE);
}

/* Entries of either kind by index (free-running, masked here). */
static inline uint64_t *sim_ring_addr(const struct sim_ring *r, uint32_t idx)
{
	return (uint64_t *)r->desc + (idx & r->mask);
}

static inline struct xdp_desc *sim_ring_desc(const struct sim_ring *r,
					     uint32_t idx)
{
	return (struct xdp_desc *)r->desc + (idx & r->mask);
}

/*
 * Published and not yet released entries, from the shared indices: what
 * poll() looks at. Not for the fast path.
 */
static inline uint32_t sim_ring_present(const struct sim_ring *r)
{
	return __atomic_load_n(&r->shared->producer, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&r->shared->consumer, __ATOMIC_ACQUIRE);
}

/*
 * The need_wakeup flag. Setting it is sequentially consistent so that the
 * NIC's look at the application's index right after it cannot be ordered
 * before it, as a driver looks at its ring again after raising the flag.
 * That is only half of a handshake: the application publishes entries
 * with a release store and then reads the flag with a plain load, without
 * a barrier between them (libxdp's xsk_ring_prod__needs_wakeup(),
 * include/xskx/ring.h, lib/rings/; the kernel's protocol is the same), and
 * x86 may perform that load before the store is visible. The application
 * can then find the flag clear while the NIC's look finds no entry. The
 * entries become visible a moment later, so the NIC looks again: on the
 * NIC thread a queue whose flag went up looks at its rings in each of the
 * next rounds (xskx__sim_watch_wakeup()), and every queue after each idle sleep.
 * In deterministic mode the NIC works inside the application's calls.
 */
static inline void sim_ring_set_need_wakeup(struct sim_ring *r)
{
	__atomic_store_n(&r->shared->flags, XDP_RING_NEED_WAKEUP,
			 __ATOMIC_SEQ_CST);
}

static inline void sim_ring_clear_need_wakeup(struct sim_ring *r)
{
	__atomic_store_n(&r->shared->flags, 0, __ATOMIC_RELAXED);
}

static inline bool sim_ring_needs_wakeup(const struct sim_ring *r)
{
	return __atomic_load_n(&r->shared->flags, __ATOMIC_RELAXED) &
	       XDP_RING_NEED_WAKEUP;
}

/* Entries published, seen right after the flag went up or later. */
static inline bool sim_ring_cons_has_more(struct sim_ring *r)
{
	return __atomic_load_n(&r->shared->producer, __ATOMIC_SEQ_CST) !=
	       r->cached_cons;
}

#endif /* XSKX_SIM_RING_H */
