/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The other end of a veth pair, and whether its stack leaves TX checksums
 * partial: a packet a local stack sends into a veth that offloads TX
 * checksums carries only the pseudo-header sum in its TCP or UDP checksum
 * field (CHECKSUM_PARTIAL), and XDP hands it to AF_XDP as it is.
 */
#ifndef XSKX_KERNEL_VETH_PEER_H
#define XSKX_KERNEL_VETH_PEER_H

#include <stdint.h>
#include <xskx/port.h>

struct xskx_veth_peer {
	enum xskx_peer_tx_csum tx_csum;
	uint32_t ifindex; /* in the peer's namespace; 0 when not a veth */
	char name[16];	  /* "" when the peer could not be looked at */
	bool other_netns;
};

/*
 * Look at ifname's veth peer, in whatever network namespace it lives.
 * Never fails: what cannot be seen (not a veth, a peer namespace that no
 * process or /run/netns entry holds, no privilege to enter it) is
 * XSKX_PEER_TX_CSUM_UNKNOWN.
 */
void xskx__veth_peer_query(const char *ifname, struct xskx_veth_peer *peer);

#endif /* XSKX_KERNEL_VETH_PEER_H */
