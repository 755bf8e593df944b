// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX metadata (lib/rings/tx_meta.h): the accessor for a packet's struct
 * xsk_tx_metadata, the check of a socket's requests against its device,
 * and the TX timestamps read back from completed frames.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "log_internal.h"
#include "frames/frame_pool.h"
#include "port_state.h"
#include "rings/rings.h"
#include "rings/tx_meta.h"

XSKX_API struct xsk_tx_metadata *xskx_tx_meta(struct xskx_umem *umem,
					      struct xskx_pkt *pkt)
{
	struct xsk_tx_metadata *meta;
	uint64_t data, frame;

	if (!umem || !pkt) {
		xskx__fail(-EINVAL, "xskx_tx_meta: umem and pkt must not be NULL");
		return NULL;
	}
	if (!umem->tx_metadata_len) {
		xskx__fail(-EINVAL,
			   "xskx_tx_meta: the UMEM has no TX metadata room; create it with tx_metadata_len");
		return NULL;
	}
	data = xsk_umem__add_offset_to_addr(pkt->addr);
	frame = xskx_umem_frame_base(umem, pkt->addr);
	if (data >= umem->size || data - frame < umem->tx_metadata_len) {
		xskx__fail(-EINVAL,
			   "xskx_tx_meta: packet at addr 0x%llx has no room for %u bytes of TX metadata between its frame's start 0x%llx and its data; start the data at xskx_umem_tx_addr()",
			   (unsigned long long)pkt->addr, umem->tx_metadata_len,
			   (unsigned long long)frame);
		return NULL;
	}
	meta = (struct xsk_tx_metadata *)((char *)umem->area + data -
					  umem->tx_metadata_len);
	memset(meta, 0, sizeof(*meta));
	pkt->options |= XDP_TX_METADATA;
	return meta;
}

static const char *request_name(uint32_t bit)
{
	switch (bit) {
	case XSKX_TX_META_TIMESTAMP:
		return "XSKX_TX_META_TIMESTAMP";
	case XSKX_TX_META_CHECKSUM:
		return "XSKX_TX_META_CHECKSUM";
	default:
		return "XSKX_TX_META_LAUNCH_TIME";
	}
}

static int unsupported(const struct xskx_socket *s, uint32_t missing,
		       bool zero_copy)
{
	uint32_t bit = missing & -missing;

	if (!zero_copy && bit == XSKX_TX_META_LAUNCH_TIME &&
	    !strcmp(s->ops->name, "kernel"))
		return xskx__fail(
			-EOPNOTSUPP,
			"socket: %s is not honoured in copy mode on '%s': the kernel copies a launch time into the skb for the driver, past any qdisc, and cannot say whether the driver reads it; use zero-copy on a device whose xsk-features include it (xskx_port_info's tx_metadata)",
			request_name(bit), s->port->name);
	return xskx__fail(
		-EOPNOTSUPP,
		"socket: '%s' (%s backend, %s mode) does not honour %s: its TX metadata support is 0x%x (xskx_socket_info's tx_metadata_supported); leave the request out of tx_metadata",
		s->port->name, s->ops->name, zero_copy ? "zero-copy" : "copy",
		request_name(bit), s->tx_meta_supported);
}

int xskx__tx_meta_open(struct xskx_socket *s, uint32_t requested,
		       bool zero_copy)
{
	struct xskx_tx_ts_ring *r = &s->tx_ts;
	uint32_t missing;

	if (requested & ~XSKX_TX_META_ALL)
		return xskx__fail(-EINVAL,
				  "socket: unknown tx_metadata 0x%x; the requests are XSKX_TX_META_TIMESTAMP, _CHECKSUM and _LAUNCH_TIME",
				  requested & ~XSKX_TX_META_ALL);
	if (requested && !s->umem->tx_metadata_len)
		return xskx__fail(-EINVAL,
				  "socket: tx_metadata 0x%x on a UMEM without TX metadata room; create the UMEM with tx_metadata_len (at least %u)",
				  requested, XSKX_TX_METADATA_LEN_MIN);
	if (requested && !s->tx.ring)
		return xskx__fail(-EINVAL,
				  "socket: tx_metadata 0x%x on a socket without a TX ring (XSKX_SOCKET_NO_TX)",
				  requested);
	if (!s->umem->tx_metadata_len)
		s->tx_meta_supported = 0;
	missing = requested & ~s->tx_meta_supported;
	if (missing)
		return unsupported(s, missing, zero_copy);
	s->tx_meta = requested;
	if (!(requested & XSKX_TX_META_TIMESTAMP))
		return 0;
	/* As many as the TX ring holds: one burst's worth at the least. */
	r->ts = calloc(s->tx.size, sizeof(*r->ts));
	if (!r->ts)
		return xskx__fail(-ENOMEM, "socket: out of memory");
	r->mask = s->tx.size - 1;
	s->umem->flags |= XSKX_UMEM_TX_TIMESTAMPS;
	return 0;
}

void xskx__tx_meta_close(struct xskx_socket *s)
{
	if (!s->tx_ts.ts)
		return;
	free(s->tx_ts.ts);
	s->tx_ts.ts = NULL;
	/* Unlinked already: the UMEM's other sockets decide. */
	s->umem->flags &= ~XSKX_UMEM_TX_TIMESTAMPS;
	for (const struct xskx_socket *o = s->umem->sockets; o; o = o->next)
		if (o->tx_ts.ts)
			s->umem->flags |= XSKX_UMEM_TX_TIMESTAMPS;
}

void xskx__tx_ts_collect(struct xskx_socket *s, uint32_t idx, uint32_t n)
{
	const struct xsk_ring_cons *comp = &s->fq->comp;
	const struct xskx_umem *umem = s->umem;
	struct xskx_tx_ts_ring *r = &s->tx_ts;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(comp, idx + i);
		uint64_t data = xsk_umem__add_offset_to_addr(addr);
		const struct xsk_tx_metadata *meta;

		/* Outside, or no room: the reclaim counts it as bad. */
		if (data >= umem->size || data < umem->tx_metadata_len)
			continue;
		meta = (const struct xsk_tx_metadata *)((char *)umem->area +
							data -
							umem->tx_metadata_len);
		if (!(meta->flags & XSKX_TX_META_TIMESTAMP))
			continue;
		if (r->count > r->mask) {
			s->stats.tx_timestamps_dropped++;
			continue;
		}
		r->ts[(r->head + r->count++) & r->mask] =
			(struct xskx_tx_timestamp){
				.addr = addr,
				.tx_timestamp = meta->completion.tx_timestamp,
			};
	}
}

void xskx__tx_meta_clear(const struct xskx_umem *umem, const struct xdp_desc *d,
			 uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t data = xsk_umem__add_offset_to_addr(d[i].addr);

		((struct xsk_tx_metadata *)((char *)umem->area + data -
					    umem->tx_metadata_len))
			->flags = 0;
	}
}

XSKX_API int xskx_tx_timestamps(struct xskx_socket *s,
				struct xskx_tx_timestamp *ts, uint32_t max)
{
	struct xskx_tx_ts_ring *r;
	uint32_t n;

	if (!s || (!ts && max))
		return xskx__fail(-EINVAL, "xskx_tx_timestamps: socket and ts must not be NULL");
	r = &s->tx_ts;
	if (!r->ts)
		return xskx__fail(-EINVAL,
				  "xskx_tx_timestamps: the socket on queue %u was opened without XSKX_TX_META_TIMESTAMP in tx_metadata",
				  s->queue_id);
	n = r->count < max ? r->count : max;
	for (uint32_t i = 0; i < n; i++)
		ts[i] = r->ts[(r->head + i) & r->mask];
	r->head += n;
	r->count -= n;
	return (int)n;
}
