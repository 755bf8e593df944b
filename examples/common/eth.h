/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Ethernet frames as the example programs rewrite them. */
#ifndef XSKX_EXAMPLES_ETH_H
#define XSKX_EXAMPLES_ETH_H

#include <stdint.h>

/* Swap destination and source MAC: send the frame back where it came from. */
static inline void eth_swap_macs(uint8_t *frame)
{
	uint8_t tmp[6];

	__builtin_memcpy(tmp, frame, 6);
	__builtin_memcpy(frame, frame + 6, 6);
	__builtin_memcpy(frame + 6, tmp, 6);
}

#endif /* XSKX_EXAMPLES_ETH_H */
