/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Waking the peer (need_wakeup): the public kicks (xskx_socket_kick_rx/_tx)
 * and the rule for when a TX call's packets are worth a wakeup.
 */
#ifndef XSKX_RINGS_KICK_H
#define XSKX_RINGS_KICK_H

#include <stdbool.h>
#include <stdint.h>

#include "rings/rings.h"

/*
 * With tx_kick_batch (xskx_socket_opts) set, whether what waits on TX is
 * worth a wakeup now (lib/rings/kick.c).
 */
bool xskx__tx_kick_due(struct xskx_socket *s, uint32_t n);

/*
 * Wake the peer after a TX call that queued n packets, when TX holds
 * descriptors, the peer asked (always with busy polling) and, with
 * tx_kick_batch, the wakeup is due. Returns 0 or the kick's hard error.
 */
static inline __attribute__((always_inline)) int
xskx__tx_kick_if_due(struct xskx_socket *s, uint32_t n)
{
	/* Nothing queued, nothing to wake the peer for. */
	if ((xskx_ring_needs_wakeup(&s->tx) ||
	     s->kick_always) &&
	    (n || xsk_prod_nb_free(&s->tx, s->tx.size) < s->tx.size) &&
	    (!s->tx_kick_batch || xskx__tx_kick_due(s, n))) {
		s->tx_waiting_since = 0;
		return xskx_socket_kick_tx(s);
	}
	s->stats.kicks_skipped++;
	return 0;
}

#endif /* XSKX_RINGS_KICK_H */
