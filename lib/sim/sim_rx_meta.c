// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RX metadata on the simulated NIC: what xskx's XDP program gets from a
 * real device's kfuncs, the simulated port gives from what it knows: the
 * RX hash RSS spreads by (every frame, as veth hashes every frame) and the
 * time of reception on its clock. It strips no VLAN tag, so it reports
 * none: a tag stays in the frame's bytes, as on veth, which reports only a
 * tag a sender gave out of band.
 */
#include <string.h>
#include <xskx/rx_meta.h>
#include <xskx/umem.h>

#include "now_ns.h"
#include "sim_rss.h"
#include "sim_rx_meta.h"

void xskx__sim_rx_meta_fill(uint8_t *data, uint32_t len)
{
	struct xskx_rx_meta meta = {
		.timestamp = xskx__now_ns(),
		.valid = XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH,
		.magic = XSKX_RX_META_MAGIC,
	};

	meta.hash = xskx__sim_rss_hash(data, len, &meta.hash_type);
	/* Wherever the data starts: no alignment to rely on. */
	memcpy(data - sizeof(meta), &meta, sizeof(meta));
}
