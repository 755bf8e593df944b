// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The end of every TX call (lib/rings/tx.h). */
#include "rings/call.h"
#include "rings/kick.h"
#include "rings/tx.h"

int xskx__tx_finish(struct xskx_socket *s, uint32_t n)
{
	return xskx__call_result(s, n, xskx__tx_kick_if_due(s, n));
}
