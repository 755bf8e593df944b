/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The area of a UMEM the library maps itself (lib/frames/umem_area.c). */
#ifndef XSKX_UMEM_AREA_H
#define XSKX_UMEM_AREA_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Map size bytes, zeroed and populated: small pages, or 2 MiB hugepages
 * (the length rounded up to whole hugepages). Stores the area and the
 * length mapped. Returns 0, or a negative errno with a message: for
 * hugepages, -ENOMEM naming how many to reserve and where.
 */
int xskx__umem_area_map(uint64_t size, bool hugepages, void **area,
			uint64_t *mapped);

void xskx__umem_area_unmap(void *area, uint64_t mapped);

#endif /* XSKX_UMEM_AREA_H */
