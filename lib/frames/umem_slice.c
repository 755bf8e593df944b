// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A UMEM whose frames other processes share (xskx/handover.h): this
 * process may use only its slice of them, so only the slice is free.
 */
#include <errno.h>

#include "log_internal.h"
#include "frames/frame_pool.h"
#include "frames/umem_slice.h"

int xskx__umem_keep_slice(struct xskx_umem *umem, uint32_t first,
			  uint32_t count)
{
	struct xskx_frame_pool *pool = &umem->pool;

	if (!count || first >= umem->frame_count ||
	    count > umem->frame_count - first)
		return xskx__fail(
			-EINVAL,
			"umem: frames %u to %u are not a slice of the UMEM's %u frames",
			first, first + count - 1, umem->frame_count);
	/* Pushed in reverse, as the whole pool is: the slice's first frame goes out first. */
	for (uint32_t i = 0; i < count; i++)
		pool->addrs[i] =
			(uint64_t)(first + count - 1 - i) * umem->frame_size;
	pool->count = count;
	umem->usable_frames = count;
	return 0;
}
