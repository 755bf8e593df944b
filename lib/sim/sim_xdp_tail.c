// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf_xdp_adjust_tail() for the simulated NIC's resizing hooks, with the
 * kernel's rules (net/core/filter.c; docs/KERNEL_RULES.md, "XDP programs
 * resizing packets" and "Multi-buffer"):
 *
 * - A linear packet ends anywhere from an Ethernet header in to the end of
 *   its buffer.
 * - A chain shrinks from its tail (bpf_xdp_frags_shrink_tail()): whole
 *   fragments go, their frames back to the driver (xsk_buff_free() in
 *   zero-copy), then the last one left is cut; only once every fragment is
 *   gone does the first buffer get shorter. Never below an Ethernet header
 *   for the whole packet.
 * - A chain grows in its last fragment only, up to the end of that
 *   fragment's frame (bpf_xdp_frags_increase_tail(): the room the driver
 *   registered for a fragment, rxq->frag_size, less where the fragment's
 *   data starts in it; the simulated driver registers its frames' size, as
 *   zero-copy drivers register the chunk's).
 * - Grown bytes are zeroed; a refused call changes nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "api.h"
#include "sim_xdp.h"

static struct sim_xdp *to_sim_xdp(struct xskx_sim_xdp_buff *buff)
{
	return (struct sim_xdp *)((char *)buff -
				  offsetof(struct sim_xdp, buff));
}

static int linear_adjust(struct sim_xdp *x, int64_t offset)
{
	struct xskx_sim_xdp_buff *xdp = &x->buff;
	int64_t len = (int64_t)xdp->len + offset;

	if (len < XSKX_SIM_XDP_MIN_LEN || len > (int64_t)x->end)
		return -EINVAL;
	if (offset > 0)
		memset(xdp->data + xdp->len, 0, (size_t)offset);
	xdp->len = (uint32_t)len;
	xdp->tailroom = x->end - xdp->len;
	return 0;
}

static int frags_shrink(struct sim_xdp *x, int64_t offset)
{
	struct xskx_sim_xdp_buff *xdp = &x->buff;

	if (offset > (int64_t)sim_xdp_len(x) - XSKX_SIM_XDP_MIN_LEN)
		return -EINVAL;
	while (offset && x->nr_frags) {
		uint32_t *last = &x->frag_len[x->nr_frags - 1];

		if (offset < *last) {
			*last -= (uint32_t)offset;
			return 0;
		}
		offset -= *last;
		x->nr_frags--;
	}
	if (x->nr_frags)
		return 0;
	/*
	 * No fragment left: a linear packet in its frame, cut by the rest. A
	 * chain's first buffer fills its frame, so end is the frame's end.
	 */
	xdp->len -= (uint32_t)offset;
	xdp->tailroom = x->end - xdp->len;
	return 0;
}

static int frags_grow(struct sim_xdp *x, int64_t offset)
{
	uint32_t last = x->nr_frags - 1;

	if (offset > (int64_t)(x->frag_room - x->frag_len[last]))
		return -EINVAL;
	memset(x->frag_data[last] + x->frag_len[last], 0, (size_t)offset);
	x->frag_len[last] += (uint32_t)offset;
	return 0;
}

XSKX_API int xskx_sim_xdp_adjust_tail(struct xskx_sim_xdp_buff *xdp, int offset)
{
	struct sim_xdp *x;

	if (!xdp)
		return -EINVAL;
	x = to_sim_xdp(xdp);
	if (!x->nr_frags)
		return linear_adjust(x, offset);
	if (offset < 0)
		return frags_shrink(x, -(int64_t)offset);
	return frags_grow(x, offset);
}
