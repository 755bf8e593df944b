/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef XSKX_FRAMES_UMEM_SLICE_H
#define XSKX_FRAMES_UMEM_SLICE_H

#include <stdint.h>

struct xskx_umem;

/*
 * Before the UMEM's first socket opens: make only frames [first, first +
 * count) free, the rest being other processes' (a handed-over UMEM,
 * lib/kernel/handover_recv.c). The others then count as the peer's ("nic")
 * in the census. Returns 0 or -EINVAL, logged.
 */
int xskx__umem_keep_slice(struct xskx_umem *umem, uint32_t first,
			  uint32_t count);

#endif /* XSKX_FRAMES_UMEM_SLICE_H */
