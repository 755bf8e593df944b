// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --rx-meta: what the device said about the received packets. Each
 * packet's first fragment is looked up with xskx_pkt_rx_meta() (a view of
 * its data, on either API); a continuation fragment carries none, and a
 * batch of the batch API may end inside a chain, so whether the next
 * descriptor starts a packet is kept from one call to the next.
 */
#include <xskx/xskx.h>

#include "bench.h"

/* One descriptor: counted when it starts a packet. */
static void count(struct bench_rx_meta *c, const struct xskx_socket *s,
		  uint8_t *data, uint32_t options)
{
	struct xskx_pkt view = { .data = data };
	const struct xskx_rx_meta *m =
		c->in_chain ? NULL : xskx_pkt_rx_meta(s, &view);

	c->in_chain = options & XDP_PKT_CONTD;
	if (!m)
		return;
	c->packets++;
	c->timestamp += !!(m->valid & XSKX_RX_META_TIMESTAMP);
	c->hash += !!(m->valid & XSKX_RX_META_HASH);
	c->vlan_tag += !!(m->valid & XSKX_RX_META_VLAN_TAG);
}

void bench_rx_meta_count(struct bench_rx_meta *c, const struct xskx_socket *s,
			 const struct xskx_pkt *pkts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		count(c, s, pkts[i].data, pkts[i].options);
}

void bench_rx_meta_count_batch(struct bench_rx_meta *c,
			       const struct xskx_socket *s,
			       const struct xskx_rx_batch *batch, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		count(c, s, xskx_rx_batch_data(batch, i),
		      xskx_rx_batch_options(batch, i));
}

void bench_rx_meta_add(struct bench_rx_meta *sum,
		       const struct bench_rx_meta *add)
{
	sum->packets += add->packets;
	sum->timestamp += add->timestamp;
	sum->hash += add->hash;
	sum->vlan_tag += add->vlan_tag;
}
