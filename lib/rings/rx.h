/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The RX ring's run, shared by the burst API (xskx_rx_burst()) and the
 * batch API (xskx_rx_peek()): peek whole packets, then finish the call
 * (refill FILL, wake the peer if it asked). What each API makes of the
 * descriptors in between is its own.
 */
#ifndef XSKX_RINGS_RX_H
#define XSKX_RINGS_RX_H

#include <stdint.h>

#include "rings/call.h"
#include "rings/rings.h"

/*
 * After n RX descriptors were peeked at idx: how many end whole chains
 * (the rest go back to RX), or -EINVAL naming call when the first packet
 * alone has more fragments than max.
 */
int xskx__rx_whole_chains(struct xskx_socket *sock, const char *call,
			  uint32_t idx, uint32_t n, uint32_t max);

/*
 * The start of every RX call: up to max descriptors peeked at *idx, whole
 * packets only. Returns how many, or a negative errno naming call: the
 * call cannot run on the socket (xskx__burst_precondition()), or the first
 * packet alone has more fragments than max. Inline: the fast path of both
 * APIs; the rare cases are calls.
 */
static inline __attribute__((always_inline)) int
xskx__rx_peek_whole(struct xskx_socket *s, const char *call, uint32_t max,
		    uint32_t *idx)
{
	uint32_t n;

	if (__builtin_expect(s->deferred_err != 0 || !s->rx.ring || s->rx_batch,
			     0))
		return xskx__burst_precondition(s, call, XSKX_USES_RX);
	n = xsk_ring_cons__peek(&s->rx, max, idx);
	if (__builtin_expect(n && (xsk_ring_cons__rx_desc(&s->rx, *idx + n - 1)
					   ->options & XDP_PKT_CONTD), 0))
		return xskx__rx_whole_chains(s, call, *idx, n, max);
	return (int)n;
}

/*
 * The end of every RX call that took n packets: refill FILL, kick the peer
 * if RX was empty and it asked; returns n or the kick's error.
 */
int xskx__rx_finish(struct xskx_socket *sock, uint32_t n);

#endif /* XSKX_RINGS_RX_H */
