/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A UMEM registration with TX metadata room (XDP_UMEM_TX_METADATA_LEN). */
#ifndef XSKX_KERNEL_UMEM_TX_METADATA_H
#define XSKX_KERNEL_UMEM_TX_METADATA_H

#include <xdp/xsk.h>

struct xskx_peer_umem;

/*
 * libxdp before 1.4 registers a UMEM without tx_metadata_len and has no way
 * to ask for it. After xsk_umem__create() has registered umem (which
 * proves every other field acceptable), register it again on a new socket
 * with the TX metadata room, give that socket FILL and COMPLETION rings of
 * the same sizes, point fill and comp at them, and put the new socket in
 * place of libxdp's UMEM socket under the same descriptor number (dup3):
 * libxdp knows its UMEM socket only by that number and the two ring
 * structures, and unmaps the rings by their sizes, which do not change.
 *
 * Returns 0, or -EOPNOTSUPP naming the Linux version the kernel lacks when
 * it refuses the flag (XDP_UMEM_TX_METADATA_LEN: 6.8; XDP_UMEM_TX_SW_CSUM:
 * 6.11), or another negative errno; logged. On failure libxdp's UMEM is
 * left as it was, for the caller to delete (but for a failing dup3(),
 * which two open descriptors do not meet: the rings are then the new
 * socket's already).
 */
int xskx__umem_register_tx_metadata(struct xsk_umem *xumem,
				    const struct xskx_peer_umem *umem,
				    struct xsk_ring_prod *fill,
				    struct xsk_ring_cons *comp);

#endif /* XSKX_KERNEL_UMEM_TX_METADATA_H */
