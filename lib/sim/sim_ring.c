// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Allocating a ring in one block, laid out as the kernel lays out its own. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_ring.h"

_Static_assert(sizeof(struct sim_ring_shared) == 5 * SIM_CACHE_LINE,
	       "the descriptors start where the kernel's do");

struct sim_ring *xskx__sim_ring_create(uint32_t entries, uint32_t desc_size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes =
		sizeof(struct sim_ring_shared) + (size_t)entries * desc_size;
	struct sim_ring *ring = calloc(1, sizeof(*ring));
	void *block;

	if (!ring)
		return NULL;
	/* Page-aligned like the kernel's vmalloc'ed rings that get mmap'ed. */
	if (posix_memalign(&block, page, bytes)) {
		free(ring);
		return NULL;
	}
	memset(block, 0, bytes);
	ring->shared = block;
	ring->desc = (char *)block + sizeof(struct sim_ring_shared);
	ring->entries = entries;
	ring->mask = entries - 1;
	return ring;
}

void xskx__sim_ring_destroy(struct sim_ring *ring)
{
	if (!ring)
		return;
	free(ring->shared);
	free(ring);
}
