// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kernel's UMEM geometry rules, once (lib/kernel_rules.h). */
#include "api.h"
#include "kernel_rules.h"

XSKX_BACKEND_API enum xskx_umem_fault
xskx__umem_geometry_check(const struct xskx_umem_geometry *g, uint64_t page)
{
	uint64_t chunks;

	if (g->chunk_size < XSKX_MIN_CHUNK_SIZE || g->chunk_size > page)
		return XSKX_UMEM_FAULT_CHUNK_RANGE;
	if (g->unknown_flags)
		return XSKX_UMEM_FAULT_FLAGS;
	if (!g->unaligned && !xskx_is_power_of_2(g->chunk_size))
		return XSKX_UMEM_FAULT_CHUNK_NOT_POW2;
	if (g->addr % page)
		return XSKX_UMEM_FAULT_ADDR_ALIGN;
	if (g->addr + g->len < g->addr ||
	    (g->len + page - 1) / page > UINT32_MAX)
		return XSKX_UMEM_FAULT_LEN_TOO_LARGE;
	chunks = g->len / g->chunk_size;
	if (chunks == 0 || chunks > UINT32_MAX)
		return XSKX_UMEM_FAULT_CHUNK_COUNT;
	if (!g->unaligned && g->len % g->chunk_size)
		return XSKX_UMEM_FAULT_LEN_NOT_MULTIPLE;
	if (g->headroom > g->chunk_size - XSKX_UMEM_HEADROOM_RESERVE)
		return XSKX_UMEM_FAULT_HEADROOM;
	if (g->tx_metadata_len >= XSKX_TX_METADATA_LEN_LIMIT ||
	    g->tx_metadata_len % 8)
		return XSKX_UMEM_FAULT_TX_METADATA_LEN;
	return XSKX_UMEM_FAULT_NONE;
}
