/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A deny list entry's prefix, checked (lib/prefix.c). */
#ifndef XSKX_PREFIX_H
#define XSKX_PREFIX_H

#include <stdbool.h>
#include <xskx/filter.h>

/* 0 for a well-formed prefix; -EINVAL otherwise, logged. */
int xskx__prefix_check(const struct xskx_prefix *prefix);

/* No bit is set past prefix->len (nor past the family's address bytes). */
bool xskx__prefix_host_bits_clear(const struct xskx_prefix *prefix);

#endif /* XSKX_PREFIX_H */
