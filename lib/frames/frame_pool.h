/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The UMEM's frames as the data path sees them: the area, the pool of free
 * frames (lib/frames/frame_pool.c) and the map of the frames the
 * application holds. struct xskx_umem is created and destroyed by
 * lib/umem.c.
 */
#ifndef XSKX_FRAMES_FRAME_POOL_H
#define XSKX_FRAMES_FRAME_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/ring.h>
#include <xskx/umem.h>

#include "backend.h"

struct xskx_backend_ops;
struct xskx_fq_cq;
struct xskx_socket;

/*
 * The free frames: a stack of frame start addresses (O(1) push and pop of a
 * batch, LIFO so that recently used, cache-warm frames go out first).
 */
struct xskx_frame_pool {
	uint64_t *addrs;
	uint32_t count;
};

/*
 * umem->flags, the library's own (bit 31; the public flags are refused
 * there): a socket of the UMEM reads TX timestamps back, so reclaiming
 * completions takes the path that reads them (lib/rings/tx_meta.c).
 */
#define XSKX_UMEM_TX_TIMESTAMPS (1u << 31)

struct xskx_umem {
	void *area;
	uint64_t size;
	bool area_owned;		/* mapped by us: unmap on destroy */
	uint64_t mapped;		/* bytes mapped (whole hugepages) */
	uint32_t frame_size;
	uint32_t frame_shift;		/* log2(frame_size), 0 when not a power of 2 */
	uint32_t frame_count;
	/*
	 * The frames this process may use, what shares and reserves divide:
	 * frame_count, or the slice of a UMEM shared with other processes
	 * (xskx__umem_keep_slice()).
	 */
	uint32_t usable_frames;
	uint32_t headroom;
	uint32_t tx_metadata_len;	/* room in front of TX data; 0: none */
	uint32_t fill_size;
	uint32_t comp_size;
	uint32_t flags;
	struct xskx_frame_pool pool;
	/*
	 * Which frames the application holds, a bool per frame (not a char
	 * type, so that stores to it do not make the compiler reload the
	 * UMEM's fields on the fast path): set when a frame is handed out
	 * (RX burst, frame_alloc), checked and cleared when it comes back (release, free, TX burst). This is what makes a
	 * double release or a foreign address an error instead of a lost or
	 * duplicated frame.
	 */
	bool *held;
	uint32_t frames_in_app;		/* frames with held set */
	uint64_t double_frees;		/* given back while not held, refused */
	uint64_t foreign_frees;		/* addresses outside the UMEM, refused */
	const struct xskx_backend_ops *backend; /* set by the first socket */
	struct xskx_peer_umem peer;	/* what the backend sees of it */
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

/*
 * The index of the frame that holds addr, ignoring unaligned-mode offset
 * bits (any address inside a frame names it), or false when addr is outside
 * the UMEM.
 */
static inline bool xskx_umem_frame_index(const struct xskx_umem *umem,
					 uint64_t addr, uint32_t *index)
{
	uint64_t a = xsk_umem__extract_addr(addr);
	uint64_t i = umem->frame_shift ? a >> umem->frame_shift
				       : a / umem->frame_size;

	*index = (uint32_t)i;
	return i < umem->frame_count;
}

/* Allocate the pool's stack and fill it with every frame; free it. */
int xskx__pool_init(struct xskx_umem *umem);
void xskx__pool_fini(struct xskx_umem *umem);

/* Pool operations that do not touch frames_in_app (ring <-> pool moves). */
uint32_t xskx__pool_take(struct xskx_umem *umem, uint64_t *addrs, uint32_t n);

/*
 * Give one frame back; inline because TX completion calls it for every
 * packet. A full pool means the peer returned a frame twice: refuse it and
 * count it rather than overrun the stack.
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

/* The frame of an address the peer handed to the application is now its. */
static inline void xskx_mark_held(struct xskx_umem *umem, uint64_t addr)
{
	uint32_t i;

	if (__builtin_expect(xskx_umem_frame_index(umem, addr, &i), 1))
		umem->held[i] = true;
}

/*
 * After the peer let go of the UMEM (its last socket closed): every frame
 * neither in the pool nor held by the application was the peer's, kept
 * where the library could not see it (a copy-mode kernel socket keeps the
 * frame of a packet that found the RX ring full, for the next packet). It
 * is free now: back to the pool.
 */
void xskx__pool_take_back_from_peer(struct xskx_umem *umem);

/*
 * Give back the frames of n addresses the application held (RX release,
 * frame_free). Returns 0, or -EINVAL with a message naming the first
 * refused address and why, having taken back all the others.
 */
int xskx__pool_put_many_from_app(struct xskx_umem *umem, const char *call,
				 const uint64_t *addrs, size_t stride,
				 uint32_t n);

/*
 * The same, but the frames taken back go straight onto a producer ring (a
 * FILL ring) instead of the pool: into its n slots reserved at idx, in
 * order, skipping the refused. Only for frames a power of two in size
 * (frame_shift set). *kept: the slots written; the caller submits them and
 * cancels the rest.
 */
int xskx__recycle_to_ring(struct xskx_umem *umem, const char *call,
			  const uint64_t *addrs, size_t stride, uint32_t n,
			  struct xsk_ring_prod *ring, uint32_t idx,
			  uint32_t *kept);

#endif /* XSKX_FRAMES_FRAME_POOL_H */
