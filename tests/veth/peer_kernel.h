/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the test peers on kernel devices share (veth: peer_veth.c;
 * virtio_net in a guest: tests/virtio/peer_virtio.c): the XDP program
 * behind each enum test_xdp_prog, and ethtool's ring sizes.
 */
#ifndef XSKX_TESTS_PEER_KERNEL_H
#define XSKX_TESTS_PEER_KERNEL_H

#include <stdint.h>
#include <xskx/xskx.h>

#include "peer.h"

/*
 * Point po's xdp_obj at the object that runs prog; TEST_XDP_REDIRECT
 * leaves it NULL: the library's own program.
 */
void peer_kernel_xdp_obj(enum test_xdp_prog prog, struct xskx_port_opts *po);

/*
 * What ethtool -g reads: the device's current ring sizes (*rx, *tx) and,
 * when max_rx/max_tx are not NULL, the largest it takes. 0 or -errno.
 */
int peer_kernel_get_rings(const char *ifname, uint32_t *rx, uint32_t *tx,
			  uint32_t *max_rx, uint32_t *max_tx);

/*
 * What ethtool -G does: set the ring sizes, 0 asking for the largest the
 * device takes; the sizes set are written back. 0, -EOPNOTSUPP when the
 * device cannot resize its rings, or another -errno.
 */
int peer_kernel_set_rings(const char *ifname, uint32_t *rx, uint32_t *tx);

#endif /* XSKX_TESTS_PEER_KERNEL_H */
