/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A TX packet's metadata, XDP_TX_METADATA (sim_tx_meta.c). */
#ifndef XSKX_SIM_TX_META_H
#define XSKX_SIM_TX_META_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/if_xdp_compat.h>

struct sim_umem;
struct sim_seg;

enum sim_tx_meta_verdict {
	SIM_TX_META_SEND,   /* send it, with *meta's requests if any */
	SIM_TX_META_REFUSE, /* copy mode: sendto fails, the packet stays */
};
/* d: the packet's first descriptor; data: where its data lies. */
enum sim_tx_meta_verdict xskx__sim_tx_meta_read(const struct sim_umem *umem,
						const struct xdp_desc *d,
						const uint8_t *data, bool copy,
						struct xsk_tx_metadata **meta);
/* A requested checksum, into a copy of segs[0] that takes its place. */
void xskx__sim_tx_meta_checksum(const struct sim_umem *umem,
				const struct xsk_tx_metadata *meta,
				struct sim_seg *segs, uint32_t nsegs);
/* On completion: a requested TX timestamp. */
void xskx__sim_tx_meta_complete(struct xsk_tx_metadata *meta);

#endif /* XSKX_SIM_TX_META_H */
