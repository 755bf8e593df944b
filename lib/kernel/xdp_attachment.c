// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What every step of an attachment's life uses (xdp_attachment.h). */
#include <unistd.h>

#include "xdp_attachment.h"

const char *xskx__xdp_mode_name(enum xskx_xdp_mode mode)
{
	return mode == XSKX_XDP_NATIVE ? "native" : "generic (skb)";
}

void xskx__xdp_close_fds(struct xskx_xdp_attachment *att)
{
	int *const fds[] = { &att->prog_fd, &att->xsks_map_fd,
			     &att->owner_map_fd, &att->queue_owner_map_fd,
			     &att->no_socket_map_fd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}
