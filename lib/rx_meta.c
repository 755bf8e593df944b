// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Finding a packet's RX metadata (xskx/rx_meta.h). Nothing in an RX
 * descriptor says how much metadata the XDP program left in front of the
 * data, so the struct is trusted only where it can be xskx's: on a port
 * whose program puts one in front of every packet it redirects
 * (XSKX_PORT_RX_METADATA, never with a program of the caller's), and only
 * with its magic in place, which a packet the program could give no room
 * to lacks.
 */
#include <string.h>
#include <xskx/rx_meta.h>
#include <xskx/socket.h>
#include <xskx/umem.h>

#include "api.h"
#include "port_internal.h"
#include "rings/rings.h"

_Static_assert(sizeof(struct xskx_rx_meta) == XSKX_XDP_META_MAX,
	       "struct xskx_rx_meta fills the most metadata a program may put");

XSKX_API const struct xskx_rx_meta *
xskx_pkt_rx_meta(const struct xskx_socket *sock, const struct xskx_pkt *pkt)
{
	const struct xskx_rx_meta *meta;
	uint32_t magic;

	if (!sock || !pkt || !pkt->data ||
	    !(sock->port->opts.flags & XSKX_PORT_RX_METADATA))
		return NULL;
	meta = (const struct xskx_rx_meta *)(const void *)(pkt->data -
							     sizeof(*meta));
	/* Read as bytes: an unaligned UMEM puts the struct anywhere. */
	memcpy(&magic, &meta->magic, sizeof(magic));
	return magic == XSKX_RX_META_MAGIC ? meta : NULL;
}
