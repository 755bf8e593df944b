/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The UMEM, its frame pool and its FILL/COMPLETION pairs. */
#ifndef XSKX_UMEM_INTERNAL_H
#define XSKX_UMEM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/ring.h>
#include <xskx/umem.h>

struct xskx_backend_ops;
struct xskx_socket;
struct xskx_sim_port;

/*
 * One FILL/COMPLETION pair. The kernel gives one to every (device, queue)
 * that a UMEM is bound to: sockets on the same device and queue share it,
 * a socket on another one brings its own.
 */
struct xskx_fq_cq {
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	void *backend;			/* a socket's handle (sock->backend) on the pair */
	/* The key: device (sim port or interface name) and queue. */
	struct xskx_sim_port *sim_port;
	char ifname[16];
	uint32_t queue_id;
	uint32_t users;			/* sockets using this pair */
	struct xskx_fq_cq *next;	/* in umem->pairs */
};

/*
 * The free frames: a stack of frame start addresses (O(1) push and pop of a
 * batch, LIFO so that recently used, cache-warm frames go out first).
 */
struct xskx_frame_pool {
	uint64_t *addrs;
	uint32_t count;
};

struct xskx_umem {
	void *area;
	uint64_t size;
	bool area_owned;		/* mapped by us: unmap on destroy */
	uint32_t frame_size;
	uint32_t frame_shift;		/* log2(frame_size), 0 when not a power of 2 */
	uint32_t frame_count;
	uint32_t headroom;
	uint32_t fill_size;
	uint32_t comp_size;
	uint32_t flags;
	struct xskx_frame_pool pool;
	uint32_t frames_in_app;		/* handed out and not given back */
	uint64_t double_frees;		/* frames given back to a full pool */
	const struct xskx_backend_ops *backend; /* set by the first socket */
	void *backend_umem;		/* the peer's registration */
	struct xskx_fq_cq *pairs;
	struct xskx_socket *sockets;
};

/* The start of the frame that holds addr (offset bits of unaligned mode ignored). */
static inline uint64_t xskx_umem_frame_base(const struct xskx_umem *umem,
					    uint64_t addr)
{
	uint64_t a = xsk_umem__extract_addr(addr);

	if (umem->frame_shift)
		return a & ~((uint64_t)umem->frame_size - 1);
	return a - a % umem->frame_size;
}

/*
 * The mask that turns any address inside a frame (offset bits included) into
 * the frame's start, or 0 when frames are not a power of two in size and
 * xskx_umem_frame_base() must divide.
 */
static inline uint64_t xskx_umem_base_mask(const struct xskx_umem *umem)
{
	if (!umem->frame_shift)
		return 0;
	return XSK_UNALIGNED_BUF_ADDR_MASK & ~((uint64_t)umem->frame_size - 1);
}

/* Allocate the pool's stack and fill it with every frame; free it. */
int xskx_pool_init(struct xskx_umem *umem);
void xskx_pool_fini(struct xskx_umem *umem);

/* Pool operations that do not touch frames_in_app (ring <-> pool moves). */
uint32_t xskx_pool_take(struct xskx_umem *umem, uint64_t *addrs, uint32_t n);

/*
 * Give one frame back; inline because RX release and TX completion call it
 * for every packet. A full pool means a frame was given back twice: refuse
 * it and count it rather than overrun the stack.
 */
static inline bool xskx_pool_put(struct xskx_umem *umem, uint64_t addr)
{
	struct xskx_frame_pool *pool = &umem->pool;

	if (__builtin_expect(pool->count == umem->frame_count, 0)) {
		umem->double_frees++;
		return false;
	}
	pool->addrs[pool->count++] = xskx_umem_frame_base(umem, addr);
	return true;
}

/* Give back frames the application held: only those the pool took count. */
static inline void xskx_pool_put_from_app(struct xskx_umem *umem, uint64_t addr)
{
	umem->frames_in_app -= xskx_pool_put(umem, addr);
}

#endif /* XSKX_UMEM_INTERNAL_H */
