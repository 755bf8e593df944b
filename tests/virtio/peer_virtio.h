/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The scenarios' test peer (tests/scenario/peer.h) on the two virtio_net
 * NICs of the guest scripts/virtio-zc.sh boots: port A is virtio-a, port B
 * virtio-b, joined on the host by a bridge; native XDP, every socket in
 * zero-copy (XDP_ZEROCOPY) or in copy mode (XDP_COPY) unless the scenario
 * asks for copy mode itself.
 */
#ifndef XSKX_TESTS_PEER_VIRTIO_H
#define XSKX_TESTS_PEER_VIRTIO_H

#include <stdbool.h>

#include "peer.h"

/* The NICs, named by tests/virtio/guest-nics.sh after their MACs. */
#define PEER_VIRTIO_A "virtio-a"
#define PEER_VIRTIO_B "virtio-b"

/*
 * A peer on the two NICs, set back to how the guest booted them (MTU
 * 1500, their ring sizes) when destroyed. NULL when a NIC is missing (the
 * reason printed).
 */
struct test_peer *peer_virtio_create(bool zero_copy);

/* "zc" or "copy", for file names and messages. */
const char *peer_virtio_mode_name(bool zero_copy);

#endif /* XSKX_TESTS_PEER_VIRTIO_H */
