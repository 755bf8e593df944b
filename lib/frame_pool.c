// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The frame pool: a stack of free frame start addresses. Taking and putting
 * a batch is a memcpy-like loop, O(1) per frame, no syscall, no lock (a UMEM
 * is used from one thread).
 */
#include <errno.h>
#include <stdlib.h>

#include "api.h"
#include "log_internal.h"
#include "umem_internal.h"

int xskx_pool_init(struct xskx_umem *umem)
{
	struct xskx_frame_pool *pool = &umem->pool;

	pool->addrs = malloc((size_t)umem->frame_count * sizeof(*pool->addrs));
	if (!pool->addrs)
		return xskx_fail(-ENOMEM, "umem: no memory for a pool of %u frames",
				 umem->frame_count);
	/* Pushed in reverse so that the first frames handed out are 0, 1, 2... */
	for (uint32_t i = 0; i < umem->frame_count; i++)
		pool->addrs[i] = (uint64_t)(umem->frame_count - 1 - i) * umem->frame_size;
	pool->count = umem->frame_count;
	return 0;
}

void xskx_pool_fini(struct xskx_umem *umem)
{
	free(umem->pool.addrs);
	umem->pool.addrs = NULL;
	umem->pool.count = 0;
}

uint32_t xskx_pool_take(struct xskx_umem *umem, uint64_t *addrs, uint32_t n)
{
	struct xskx_frame_pool *pool = &umem->pool;

	if (n > pool->count)
		n = pool->count;
	pool->count -= n;
	for (uint32_t i = 0; i < n; i++)
		addrs[i] = pool->addrs[pool->count + n - 1 - i];
	return n;
}

XSKX_API uint32_t xskx_frame_alloc(struct xskx_umem *umem, uint64_t *addrs,
				   uint32_t n)
{
	n = xskx_pool_take(umem, addrs, n);
	umem->frames_in_app += n;
	return n;
}

XSKX_API void xskx_frame_free(struct xskx_umem *umem, const uint64_t *addrs,
			      uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		xskx_pool_put_from_app(umem, addrs[i]);
}

XSKX_API uint32_t xskx_umem_pool_count(const struct xskx_umem *umem)
{
	return umem->pool.count;
}
