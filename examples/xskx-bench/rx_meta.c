// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --rx-meta: what the device said about the received packets. Each
 * packet's first descriptor (a burst holds whole packets) is looked up
 * with xskx_pkt_rx_meta(); a continuation fragment carries none.
 */
#include <xskx/xskx.h>

#include "bench.h"

void bench_rx_meta_count(struct bench_rx_meta *c, const struct xskx_socket *s,
			 const struct xskx_pkt *pkts, uint32_t n)
{
	bool first = true;

	for (uint32_t i = 0; i < n; i++) {
		const struct xskx_rx_meta *m =
			first ? xskx_pkt_rx_meta(s, &pkts[i]) : NULL;

		first = !(pkts[i].options & XDP_PKT_CONTD);
		if (!m)
			continue;
		c->packets++;
		c->timestamp += !!(m->valid & XSKX_RX_META_TIMESTAMP);
		c->hash += !!(m->valid & XSKX_RX_META_HASH);
		c->vlan_tag += !!(m->valid & XSKX_RX_META_VLAN_TAG);
	}
}

void bench_rx_meta_add(struct bench_rx_meta *sum,
		       const struct bench_rx_meta *add)
{
	sum->packets += add->packets;
	sum->timestamp += add->timestamp;
	sum->hash += add->hash;
	sum->vlan_tag += add->vlan_tag;
}
