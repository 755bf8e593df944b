// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The RX ring's run (lib/rings/rx.h). Order inside a call matters: RX is
 * drained before FILL is refilled (frames just released are the
 * cache-warm ones to hand back), and the peer is woken last, when FILL
 * holds buffers for it to use.
 */
#include <errno.h>

#include "log_internal.h"
#include "rings/fill.h"
#include "rings/kick.h"
#include "rings/rx.h"

int xskx__rx_finish(struct xskx_socket *s, uint32_t n)
{
	int err = 0;

	xskx__refill(s);
	/*
	 * Wake the peer only once RX is drained: a driver that stopped (FILL
	 * ran dry, or RX was full) has nothing to add while packets are still
	 * waiting here, and a kick per burst until it restarts would be
	 * syscalls for nothing.
	 */
	if (!n && (s->kick_always ||
		   xskx_ring_needs_wakeup(&s->fq->fill)))
		err = xskx_socket_kick_rx(s);
	else
		s->stats.kicks_skipped++;
	return xskx__call_result(s, n, err);
}

/*
 * A burst returns whole packets: the fragments of a chain that max cut short
 * go back to RX for the next burst (the peer publishes a chain at once, so
 * a chain is cut only by max). Returns how many descriptors to take, or
 * -EINVAL when the first packet alone has more fragments than max.
 */
int xskx__rx_whole_chains(struct xskx_socket *s, const char *call, uint32_t idx,
			  uint32_t n, uint32_t max)
{
	uint32_t whole = n;

	while (whole &&
	       (xsk_ring_cons__rx_desc(&s->rx, idx + whole - 1)->options &
		XDP_PKT_CONTD))
		whole--;
	xsk_ring_cons__cancel(&s->rx, n - whole);
	if (!whole && n == max)
		return xskx__fail(-EINVAL,
				  "%s: the next packet on queue %u has more than max = %u fragments; pass a max of at least the fragments a packet of the link's MTU spans (the MTU divided by a frame's data room, rounded up)",
				  call, s->queue_id, max);
	return (int)whole;
}
