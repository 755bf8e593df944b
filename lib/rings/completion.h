/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The COMPLETION ring: the frames the peer sent, back to FILL or the pool,
 * in batches. Every TX call reclaims first, so the pool and TX have room.
 */
#ifndef XSKX_RINGS_COMPLETION_H
#define XSKX_RINGS_COMPLETION_H

#include <stdint.h>

#include "rings/rings.h"

/* COMPLETION -> FILL or the pool; returns the frames reclaimed. */
uint32_t xskx__reclaim_completions(struct xskx_socket *sock);

#endif /* XSKX_RINGS_COMPLETION_H */
