// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Why a data-path call cannot run on a socket (lib/rings/call.h). */
#include <errno.h>
#include <stdbool.h>

#include "log_internal.h"
#include "rings/call.h"

int xskx__burst_precondition(struct xskx_socket *s, const char *call,
			     enum xskx_ring_use use)
{
	int err = s->deferred_err;
	bool rx = use == XSKX_USES_RX;

	if (err) {
		s->deferred_err = 0;
		return err;
	}
	if (rx ? s->rx_batch : s->tx_batch)
		return xskx__fail(-EBUSY,
				  "%s: the socket on queue %u has an open %s batch: %s it first",
				  call, s->queue_id, rx ? "RX" : "TX",
				  rx ? "xskx_rx_recycle() or xskx_rx_forward()" :
				       "xskx_tx_submit()");
	return xskx__fail(-EINVAL, "%s: the socket on queue %u was opened with %s",
			  call, s->queue_id,
			  rx ? "XSKX_SOCKET_NO_RX" : "XSKX_SOCKET_NO_TX");
}
