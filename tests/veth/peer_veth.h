/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The scenarios' test peer (tests/scenario/peer.h) on a veth pair: port A
 * is one end, port B the other, inside the sandbox of netns.h, with
 * xskx's XDP program (or the drop-half program) attached in the given mode.
 */
#ifndef XSKX_TESTS_PEER_VETH_H
#define XSKX_TESTS_PEER_VETH_H

#include <xskx/xskx.h>

#include "peer.h"

/* The ends of the pair each peer creates, and deletes on destroy. */
#define PEER_VETH_A "xskxv0"
#define PEER_VETH_B "xskxv1"

/*
 * Create a fresh veth pair in the current (sandbox) network namespace and
 * a peer on it. NULL when the pair cannot be made (the reason printed).
 */
struct test_peer *peer_veth_create(enum xskx_xdp_mode mode);

/* "generic" or "native", for test names and messages. */
const char *peer_veth_mode_name(enum xskx_xdp_mode mode);

#endif /* XSKX_TESTS_PEER_VETH_H */
