/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The UMEM's rules that the sockets check too (lib/umem.c). */
#ifndef XSKX_UMEM_INTERNAL_H
#define XSKX_UMEM_INTERNAL_H

#include <stdint.h>

/*
 * A ring size the kernel and xskx accept: a power of two, at most
 * XSKX_RING_MAX_SIZE. Returns 0 or -EINVAL with a message naming what and
 * field.
 */
int xskx__check_ring_size(const char *what, const char *field, uint32_t size);

#endif /* XSKX_UMEM_INTERNAL_H */
