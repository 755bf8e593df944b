// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench --baseline: rxdrop on the same rings as bench_rxdrop_step(),
 * driven with libxdp's inline ring operations only, the way xdpsock does it:
 * every received frame goes straight back to FILL, with no frame pool, no
 * packet views and no statistics in between. What this loop costs less than
 * the burst API is the cost of the wrapper.
 */
#include "bench.h"

int bench_baseline_rxdrop_step(struct bench *b)
{
	struct xsk_ring_cons *rx = b->rings.rx;
	struct xsk_ring_prod *fill = b->rings.fill;
	uint32_t rx_idx, fill_idx;
	uint32_t n = xsk_ring_cons__peek(rx, b->opts->batch, &rx_idx);

	if (b->opts->busy_poll || (!n && xsk_ring_prod__needs_wakeup(fill))) {
		int err = xskx_socket_kick_rx(b->sock);

		if (err)
			return err;
	}
	if (!n)
		return 0;
	/*
	 * Every frame in circulation came off FILL, and the socket put no more
	 * on FILL than it holds, so there is a slot for each received frame.
	 */
	if (xsk_ring_prod__reserve(fill, n, &fill_idx) != n) {
		xsk_ring_cons__cancel(rx, n);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(fill, fill_idx + i) =
			xsk_ring_cons__rx_desc(rx, rx_idx + i)->addr &
			b->frame_mask;
	xsk_ring_prod__submit(fill, n);
	xsk_ring_cons__release(rx, n);
	b->rx_packets += n;
	return (int)n;
}
