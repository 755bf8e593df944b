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

void tx_kick_resolve(uint32_t tx_size, uint32_t *batch, uint32_t *usec)
{
	uint32_t ring = tx_size ? tx_size : XSKX_RING_DEFAULT_SIZE;

	if (*batch == TX_KICK_UNSET)
		*batch = ring < TX_KICK_DEFAULT_BATCH ? ring :
							TX_KICK_DEFAULT_BATCH;
	if (*usec == TX_KICK_UNSET)
		*usec = *batch ? TX_KICK_DEFAULT_USEC : 0;
}

bool tx_kick_parse_usec(const char *arg, uint32_t *usec)
{
	return cli_parse_u32("--tx-kick-usec", arg, 0, XSKX_TX_KICK_USEC_MAX,
			     usec);
}
