// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX metadata on the simulated NIC, as Linux 6.18 treats it (measured on
 * veth, docs/KERNEL_RULES.md "TX metadata"). Only a packet's first
 * descriptor's XDP_TX_METADATA counts. Copy mode refuses metadata it
 * cannot take — a UMEM without tx_metadata_len, a flag it does not know, a
 * checksum that would end past the descriptor's data — and the sendto
 * fails with EINVAL, leaving the packet at the head of TX. Zero-copy reads
 * metadata as a driver does: without a room or with an unknown flag there
 * is none, and a checksum outside the packet is not taken. The simulated
 * device computes a requested checksum into the packet it sends, never
 * into the UMEM, and stamps a requested completion with CLOCK_TAI, as the
 * kernel's copy mode does; a launch time it ignores, as veth does.
 */
#include <string.h>
#include <time.h>

#include "sim_internal.h"
#include "sim_tx_meta.h"

#define SIM_TXMD_FLAGS_VALID                                                   \
	(XDP_TXMD_FLAGS_TIMESTAMP | XDP_TXMD_FLAGS_CHECKSUM |                  \
	 XDP_TXMD_FLAGS_LAUNCH_TIME)

static bool csum_inside(const struct xsk_tx_metadata *m, uint32_t len)
{
	return (uint32_t)m->request.csum_start + m->request.csum_offset + 2 <=
	       len;
}

enum sim_tx_meta_verdict xskx__sim_tx_meta_read(const struct sim_umem *umem,
						const struct xdp_desc *d,
						const uint8_t *data, bool copy,
						struct xsk_tx_metadata **meta)
{
	struct xsk_tx_metadata *m;

	*meta = NULL;
	if (!(d->options & XDP_TX_METADATA))
		return SIM_TX_META_SEND;
	if (!umem->tx_metadata_len)
		return copy ? SIM_TX_META_REFUSE : SIM_TX_META_SEND;
	m = (struct xsk_tx_metadata *)(uintptr_t)(data - umem->tx_metadata_len);
	if (m->flags & ~(uint64_t)SIM_TXMD_FLAGS_VALID)
		return copy ? SIM_TX_META_REFUSE : SIM_TX_META_SEND;
	if (copy && (m->flags & XDP_TXMD_FLAGS_CHECKSUM) &&
	    !csum_inside(m, d->len))
		return SIM_TX_META_REFUSE;
	*meta = m;
	return SIM_TX_META_SEND;
}

/* The ones' complement sum of bytes, the first one at an even position or not. */
static uint32_t sum_bytes(const uint8_t *p, uint32_t n, uint32_t sum, bool *odd)
{
	for (uint32_t i = 0; i < n; i++) {
		sum += *odd ? p[i] : (uint32_t)p[i] << 8;
		*odd = !*odd;
	}
	return sum;
}

void xskx__sim_tx_meta_checksum(const struct sim_umem *umem,
				const struct xsk_tx_metadata *meta,
				struct sim_seg *segs, uint32_t nsegs)
{
	uint32_t start = meta->request.csum_start;
	uint32_t at = start + meta->request.csum_offset;
	uint32_t sum = 0;
	bool odd = false;
	uint16_t csum;

	if (!(meta->flags & XDP_TXMD_FLAGS_CHECKSUM) ||
	    !csum_inside(meta, segs[0].len))
		return;
	memcpy(umem->tx_scratch, segs[0].data, segs[0].len);
	segs[0].data = umem->tx_scratch;
	sum = sum_bytes(umem->tx_scratch + start, segs[0].len - start, sum, &odd);
	for (uint32_t k = 1; k < nsegs; k++)
		sum = sum_bytes(segs[k].data, segs[k].len, sum, &odd);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	csum = (uint16_t)~sum;
	umem->tx_scratch[at] = (uint8_t)(csum >> 8);
	umem->tx_scratch[at + 1] = (uint8_t)csum;
}

void xskx__sim_tx_meta_complete(struct xsk_tx_metadata *meta)
{
	struct timespec now;

	if (!(meta->flags & XDP_TXMD_FLAGS_TIMESTAMP))
		return;
	clock_gettime(CLOCK_TAI, &now);
	meta->completion.tx_timestamp =
		(uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
