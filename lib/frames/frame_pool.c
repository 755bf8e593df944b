// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The frame pool: a stack of free frame start addresses. Taking and putting
 * a batch is a memcpy-like loop, O(1) per frame, no syscall, no lock (a UMEM
 * is used from one thread).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "api.h"
#include "log_internal.h"
#include "frames/frame_pool.h"

int xskx__pool_init(struct xskx_umem *umem)
{
	struct xskx_frame_pool *pool = &umem->pool;

	pool->addrs = malloc((size_t)umem->frame_count * sizeof(*pool->addrs));
	umem->held = calloc(umem->frame_count, sizeof(*umem->held));
	if (!pool->addrs || !umem->held) {
		xskx__pool_fini(umem);
		return xskx__fail(-ENOMEM, "umem: no memory for a pool of %u frames",
				  umem->frame_count);
	}
	/* Pushed in reverse so that the first frames handed out are 0, 1, 2... */
	for (uint32_t i = 0; i < umem->frame_count; i++)
		pool->addrs[i] = (uint64_t)(umem->frame_count - 1 - i) * umem->frame_size;
	pool->count = umem->frame_count;
	return 0;
}

void xskx__pool_fini(struct xskx_umem *umem)
{
	free(umem->pool.addrs);
	free(umem->held);
	umem->held = NULL;
	umem->pool.addrs = NULL;
	umem->pool.count = 0;
}

uint32_t xskx__pool_take(struct xskx_umem *umem, uint64_t *addrs, uint32_t n)
{
	struct xskx_frame_pool *pool = &umem->pool;

	const uint64_t *top;

	if (n > pool->count)
		n = pool->count;
	/* A local: the stores to addrs[] could alias the pool's fields. */
	top = pool->addrs + pool->count;
	pool->count -= n;
	for (uint32_t i = 0; i < n; i++)
		addrs[i] = top[-1 - (ptrdiff_t)i];
	return n;
}

/*
 * The frames of addrs[0..n), just taken from the pool, are now the
 * application's. The pool holds frame starts, whose index is a shift away
 * when frames are a power of two in size. Locals: the stores to held[]
 * could alias the UMEM's fields.
 */
static void mark_taken_held(struct xskx_umem *umem, const uint64_t *addrs,
			    uint32_t n)
{
	const uint32_t shift = umem->frame_shift;
	bool *held = umem->held;

	if (!shift) {
		for (uint32_t i = 0; i < n; i++)
			xskx_mark_held(umem, addrs[i]);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		held[addrs[i] >> shift] = true;
}

XSKX_API uint32_t xskx_frame_alloc(struct xskx_umem *umem, uint64_t *addrs,
				   uint32_t n)
{
	if (!umem || (!addrs && n)) {
		xskx__fail(-EINVAL, "xskx_frame_alloc: umem and addrs must not be NULL");
		return 0;
	}
	n = xskx__pool_take(umem, addrs, n);
	mark_taken_held(umem, addrs, n);
	umem->frames_in_app += n;
	return n;
}

/*
 * Why a frame given back by the application was refused (0: taken back).
 * Each refusal is counted in the UMEM and shown by the census.
 */
enum xskx_giveback {
	XSKX_GIVEBACK_OK = 0,
	XSKX_GIVEBACK_FOREIGN,		/* the address is outside the UMEM */
	XSKX_GIVEBACK_NOT_HELD,		/* released twice, or never handed out */
};

/*
 * Give back one frame the application held: checked against the held map,
 * so that a double release or a foreign address is refused and counted
 * rather than put in the pool a second time.
 */
static enum xskx_giveback put_from_app(struct xskx_umem *umem, uint64_t addr)
{
	uint32_t i;

	if (__builtin_expect(!xskx_umem_frame_index(umem, addr, &i), 0)) {
		umem->foreign_frees++;
		return XSKX_GIVEBACK_FOREIGN;
	}
	if (__builtin_expect(!umem->held[i], 0)) {
		umem->double_frees++;
		return XSKX_GIVEBACK_NOT_HELD;
	}
	umem->held[i] = false;
	umem->frames_in_app--;
	xskx_pool_put(umem, addr);
	return XSKX_GIVEBACK_OK;
}

static const char *giveback_reason(enum xskx_giveback why)
{
	if (why == XSKX_GIVEBACK_FOREIGN)
		return "it is outside the UMEM";
	return "its frame is not held by the application (given back twice, sent, or never handed out)";
}

/* The address at index i of an array of records stride bytes apart. */
static inline uint64_t addr_at(const uint64_t *addrs, size_t stride, uint32_t i)
{
	return *(const uint64_t *)((const char *)addrs + i * stride);
}

/* What came of giving n frames back: how many were kept, the first refusal. */
struct giveback {
	uint32_t kept;
	uint32_t refused;
	uint32_t first_bad; /* index of the first refused */
	enum xskx_giveback first_why;
};

static void giveback_refused(struct giveback *g, uint32_t i,
			     enum xskx_giveback why)
{
	if (!g->refused++) {
		g->first_bad = i;
		g->first_why = why;
	}
}

/*
 * The common case in one pass: frames a power of two in size, each frame
 * kept written to slots[(first + k) & mask] for the k-th kept — the pool's
 * stack or a ring's reserved slots. The caller makes room for all n.
 * Aligned mode has no offset bits: an address with any of them set is
 * outside the UMEM, as TX judges it. The callers pass unaligned and wraps
 * as constants (wraps false: mask ignored), so each case gets a loop
 * without the others' instructions.
 */
static inline __attribute__((always_inline)) void
take_back_fast(struct xskx_umem *umem, const uint64_t *addrs, size_t stride,
	       uint32_t n, uint64_t *slots, uint32_t first, uint32_t mask,
	       const bool unaligned, const bool wraps, struct giveback *g)
{
	/* Locals: the stores below must not make each field a reload. */
	const uint64_t frames = umem->frame_count;
	const uint32_t shift = umem->frame_shift;
	bool *held = umem->held;
	const char *next = (const char *)addrs;
	const char *end = next + n * stride;
	uint64_t *dst = slots + first; /* the next slot, when !wraps */
	uint32_t kept = 0, foreign = 0;

	for (; next != end; next += stride) {
		uint64_t addr = *(const uint64_t *)next;
		uint64_t frame =
			(unaligned ? xsk_umem__extract_addr(addr) : addr) >>
			shift;

		if (__builtin_expect(frame < frames && held[frame], 1)) {
			held[frame] = false;
			if (wraps)
				slots[(first + kept++) & mask] = frame << shift;
			else
				*dst++ = frame << shift;
			continue;
		}
		foreign += frame >= frames;
		giveback_refused(
			g, (uint32_t)((next - (const char *)addrs) / stride),
			frame < frames ? XSKX_GIVEBACK_NOT_HELD :
					 XSKX_GIVEBACK_FOREIGN);
	}
	if (!wraps)
		kept = (uint32_t)(dst - (slots + first));
	g->kept = kept;
	umem->frames_in_app -= kept;
	umem->foreign_frees += foreign;
	umem->double_frees += g->refused - foreign;
}

/* 0, or -EINVAL with a message naming the first refused frame and why. */
static int giveback_result(const char *call, const uint64_t *addrs,
			   size_t stride, uint32_t n, const struct giveback *g)
{
	if (__builtin_expect(!g->refused, 1))
		return 0;
	return xskx__fail(
		-EINVAL,
		"%s: refused %u of %u frames, the first (index %u, address 0x%llx) because %s; the census counts it",
		call, g->refused, n, g->first_bad,
		(unsigned long long)addr_at(addrs, stride, g->first_bad),
		giveback_reason(g->first_why));
}

int xskx__pool_put_many_from_app(struct xskx_umem *umem, const char *call,
				 const uint64_t *addrs, size_t stride,
				 uint32_t n)
{
	uint64_t *top = umem->pool.addrs + umem->pool.count;
	struct giveback g = { 0 };

	if (__builtin_expect(!umem->frame_shift ||
				     umem->pool.count + n > umem->frame_count,
			     0)) {
		for (uint32_t i = 0; i < n; i++) {
			enum xskx_giveback why =
				put_from_app(umem, addr_at(addrs, stride, i));

			if (why != XSKX_GIVEBACK_OK)
				giveback_refused(&g, i, why);
		}
		return giveback_result(call, addrs, stride, n, &g);
	}
	if (umem->flags & XSKX_UMEM_UNALIGNED)
		take_back_fast(umem, addrs, stride, n, top, 0, 0, true, false,
			       &g);
	else
		take_back_fast(umem, addrs, stride, n, top, 0, 0, false, false,
			       &g);
	umem->pool.count += g.kept;
	return giveback_result(call, addrs, stride, n, &g);
}

int xskx__recycle_to_ring(struct xskx_umem *umem, const char *call,
			  const uint64_t *addrs, size_t stride, uint32_t n,
			  struct xsk_ring_prod *ring, uint32_t idx,
			  uint32_t *kept)
{
	uint64_t *slots = (uint64_t *)ring->ring;
	uint32_t first = idx & ring->mask;
	struct giveback g = { 0 };

	if (umem->flags & XSKX_UMEM_UNALIGNED)
		take_back_fast(umem, addrs, stride, n, slots, first, ring->mask,
			       true, true, &g);
	else if (first + n > ring->size)
		take_back_fast(umem, addrs, stride, n, slots, first, ring->mask,
			       false, true, &g);
	else
		take_back_fast(umem, addrs, stride, n, slots, first, 0, false,
			       false, &g);
	*kept = g.kept;
	return giveback_result(call, addrs, stride, n, &g);
}

XSKX_API int xskx_frame_free(struct xskx_umem *umem, const uint64_t *addrs,
			     uint32_t n)
{
	if (!umem || (!addrs && n))
		return xskx__fail(-EINVAL, "xskx_frame_free: umem and addrs must not be NULL");
	return xskx__pool_put_many_from_app(umem, "xskx_frame_free", addrs,
					    sizeof(*addrs), n);
}

XSKX_API uint32_t xskx_umem_pool_count(const struct xskx_umem *umem)
{
	return umem ? umem->pool.count : 0;
}

void xskx__pool_take_back_from_peer(struct xskx_umem *umem)
{
	bool *in_pool;

	if (umem->pool.count + umem->frames_in_app == umem->frame_count)
		return;
	in_pool = calloc(umem->frame_count, sizeof(*in_pool));
	if (!in_pool)
		return;
	for (uint32_t i = 0; i < umem->pool.count; i++)
		in_pool[umem->pool.addrs[i] / umem->frame_size] = true;
	for (uint32_t f = 0; f < umem->frame_count; f++)
		if (!in_pool[f] && !umem->held[f])
			xskx_pool_put(umem, (uint64_t)f * umem->frame_size);
	free(in_pool);
}
