// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The TX wakeup flags (tx_kick.h). */
#include <xskx/xskx.h>

#include "cli.h"
#include "tx_kick.h"

bool tx_kick_parse_batch(const char *arg, uint32_t *batch)
{
	return cli_parse_u32("--tx-kick-batch", arg, 0, XSKX_RING_MAX_SIZE,
			     batch);
}

bool tx_kick_parse_usec(const char *arg, uint32_t *usec)
{
	return cli_parse_u32("--tx-kick-usec", arg, 0, XSKX_TX_KICK_USEC_MAX,
			     usec);
}
