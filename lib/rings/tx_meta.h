/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* TX metadata: what a socket may ask for, and its TX timestamps. */
#ifndef XSKX_TX_META_H
#define XSKX_TX_META_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/socket.h>

#define XSKX_TX_META_ALL                                                       \
	(XSKX_TX_META_TIMESTAMP | XSKX_TX_META_CHECKSUM |                      \
	 XSKX_TX_META_LAUNCH_TIME)

/*
 * What copy mode honours whatever the device: the kernel turns a checksum
 * request into an skb checksum offload and writes a software timestamp as
 * it frees the skb (measured on 6.18, veth). A launch time it only copies
 * into the skb for a driver that may or may not read it, past any qdisc:
 * xskx does not promise it.
 */
#define XSKX_TX_META_COPY_MODE (XSKX_TX_META_TIMESTAMP | XSKX_TX_META_CHECKSUM)

struct xskx_socket;

/*
 * After the bind: the socket's requests (opts.tx_metadata) against what its
 * mode on its device honours (s->tx_meta_supported, set by the backend).
 * Returns 0, -EINVAL (unknown request, or a UMEM without tx_metadata_len)
 * or -EOPNOTSUPP naming the request, the mode and the device; logged.
 * Sets up the timestamp ring on success.
 */
int xskx__tx_meta_open(struct xskx_socket *s, uint32_t requested,
		       bool zero_copy);

void xskx__tx_meta_close(struct xskx_socket *s);

/*
 * COMPLETION entries [idx, idx + n), before the reclaim returns their
 * frames: the timestamps of packets sent with XSKX_TX_META_TIMESTAMP.
 */
void xskx__tx_ts_collect(struct xskx_socket *s, uint32_t idx, uint32_t n);

/*
 * n descriptors going to TX without TX metadata on a UMEM whose sockets
 * read TX timestamps (the batch API's): their rooms' flags cleared, so
 * that what a room held before is not read back as a timestamp request.
 */
void xskx__tx_meta_clear(const struct xskx_umem *umem, const struct xdp_desc *d,
			 uint32_t n);

#endif /* XSKX_TX_META_H */
