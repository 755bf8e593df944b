// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Waking the peer. A kick — a syscall on the kernel backend — happens only
 * when the peer asked for one through a need_wakeup flag, or on every idle
 * call with busy polling; the callers (lib/rings/rx.c, tx.c, completion.c)
 * decide when, this file how, and what its errors mean.
 */
#include <errno.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "now_ns.h"
#include "rings/kick.h"

/*
 * EAGAIN, EBUSY, ENOBUFS and ENETDOWN from sendto/recvfrom mean "try again
 * later" on an AF_XDP socket (Documentation/networking/af_xdp.rst): the burst
 * API counts them and carries on.
 */
static int kick_result(struct xskx_socket *s, int err)
{
	switch (err) {
	case -EAGAIN:
	case -EBUSY:
	case -ENOBUFS:
	case -ENETDOWN:
		s->stats.kick_retries++;
		return 0;
	default:
		return err;
	}
}

XSKX_API int xskx_socket_kick_rx(struct xskx_socket *s)
{
	if (!s)
		return xskx__fail(-EINVAL, "xskx_socket_kick_rx: socket is NULL");
	s->stats.rx_kicks++;
	return kick_result(s, s->ops->kick_rx(s));
}

XSKX_API int xskx_socket_kick_tx(struct xskx_socket *s)
{
	if (!s)
		return xskx__fail(-EINVAL, "xskx_socket_kick_tx: socket is NULL");
	s->stats.tx_kicks++;
	return kick_result(s, s->ops->kick_tx(s));
}

/*
 * With tx_kick_batch (xskx_socket_opts) set, whether what waits on TX is
 * worth a wakeup now: that many packets (a full ring is at least that
 * many), or the first packet's wait over — tx_kick_ns, or with 0 a call
 * that queued none. Without it every wakeup is due: the caller tests that
 * inline (kick.h), and pays no call.
 */
bool xskx__tx_kick_due(struct xskx_socket *s, uint32_t n)
{
	uint32_t queued;
	uint64_t now;

	queued = xskx_ring_prod_queued(&s->tx);
	if (queued >= s->tx_kick_batch)
		return true;
	if (!s->tx_kick_ns)
		return !n;
	now = xskx__now_ns();
	if (!s->tx_waiting_since)
		s->tx_waiting_since = now;
	return now - s->tx_waiting_since >= s->tx_kick_ns;
}
