/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every data-path call, burst or batch, does first and last: refuse
 * to run on a ring it cannot use, and return a kick's hard error that came
 * after packets had already moved.
 */
#ifndef XSKX_RINGS_CALL_H
#define XSKX_RINGS_CALL_H

#include <stdint.h>

#include "rings/rings.h"

/* Which ring a data-path call works on, for its precondition's message. */
enum xskx_ring_use {
	XSKX_USES_RX,
	XSKX_USES_TX,
};

/*
 * A data-path call cannot run: returns the deferred kick error, or -EBUSY
 * for an open batch on the ring it uses, or -EINVAL for a socket without
 * that ring, with a message naming call.
 */
int xskx__burst_precondition(struct xskx_socket *sock, const char *call,
			     enum xskx_ring_use use);

/*
 * A kick that failed hard after the burst had already moved packets: the
 * packets are returned now (their frames changed hands) and the error by the
 * next burst on the socket.
 */
static inline int xskx__call_result(struct xskx_socket *s, uint32_t n,
				    int kick_err)
{
	if (!kick_err)
		return (int)n;
	if (!n)
		return kick_err;
	s->deferred_err = kick_err;
	return (int)n;
}

#endif /* XSKX_RINGS_CALL_H */
