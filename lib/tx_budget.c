// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <xskx/socket.h>

#include "api.h"
#include "kernel_rules.h"
#include "tx_budget.h"

XSKX_BACKEND_API uint32_t xskx__tx_budget_wanted(
	const struct xskx_port_opts *po, const struct xskx_socket_opts *o)
{
	/* A ring the size of the default budget gains nothing by asking. */
	if ((o->flags & XSKX_SOCKET_NO_TX) ||
	    o->tx_size <= XSKX_COPY_TX_BATCH ||
	    (po->flags & XSKX_PORT_KERNEL_TX_BUDGET))
		return 0;
	return o->tx_size;
}
