/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The batch API (lib/batch.c) as the socket's close sees it. */
#ifndef XSKX_BATCH_INTERNAL_H
#define XSKX_BATCH_INTERNAL_H

#include "rings/rings.h"

/*
 * Close the socket's open batches (xskx_socket_close): the RX entries go
 * back on the ring, the TX frames to the pool.
 */
void xskx__batches_abandon(struct xskx_socket *sock);

#endif /* XSKX_BATCH_INTERNAL_H */
