// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Walking a burst packet by packet when packets are chains of fragments. */
#include <xskx/socket.h>

#include "api.h"

XSKX_API uint32_t xskx_pkt_frags(const struct xskx_pkt *pkts, uint32_t n,
				 uint32_t *len)
{
	uint32_t bytes = 0;

	for (uint32_t i = 0; pkts && i < n; i++) {
		bytes += pkts[i].len;
		if (!(pkts[i].options & XDP_PKT_CONTD)) {
			if (len)
				*len = bytes;
			return i + 1;
		}
	}
	if (len)
		*len = bytes;
	return 0;
}
