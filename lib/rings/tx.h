/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The TX ring's run, shared by the burst API (xskx_tx_burst()) and the
 * batch API (xskx_rx_forward(), xskx_tx_submit()): room on TX, then the
 * call's end (wake the peer if it asked). Completions are reclaimed first
 * (lib/rings/completion.h), so the pool and the ring have room.
 */
#ifndef XSKX_RINGS_TX_H
#define XSKX_RINGS_TX_H

#include <stdint.h>

#include "rings/kick.h"
#include "rings/rings.h"

/*
 * How many of n packets TX has slots for now; a shortfall is counted
 * (tx_ring_full). The caller keeps chains of fragments whole.
 */
static inline uint32_t xskx__tx_room(struct xskx_socket *s, uint32_t n)
{
	uint32_t room = xsk_prod_nb_free(&s->tx, n);

	if (room >= n)
		return n;
	s->stats.tx_ring_full++;
	return room;
}

/*
 * The end of a TX call that queued n packets and returns a count
 * (xskx_tx_burst()): kick the peer if TX holds descriptors and it asked;
 * returns n, or the kick's error when n is 0. One that fails after packets
 * were queued is kept for the socket's next call (xskx__call_result()).
 */
int xskx__tx_finish(struct xskx_socket *sock, uint32_t n);

/*
 * The end of a TX call that reports a failed wakeup itself (the batch
 * API's xskx_tx_submit() and xskx_rx_forward()): kick as xskx__tx_finish()
 * does; returns n, or the kick's hard error, the n packets queued on TX
 * all the same. Nothing is left for a later call. Inline: the fast path.
 */
static inline __attribute__((always_inline)) int
xskx__tx_finish_now(struct xskx_socket *s, uint32_t n)
{
	int err = xskx__tx_kick_if_due(s, n);

	return err ? err : (int)n;
}

#endif /* XSKX_RINGS_TX_H */
