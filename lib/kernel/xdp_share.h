/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* One XDP program on an interface for every xskx process using it (xdp_share.c). */
#ifndef XSKX_KERNEL_XDP_SHARE_H
#define XSKX_KERNEL_XDP_SHARE_H

#include <xskx/kernel.h>

#include "netdev.h"
#include "xdp_request.h"
#include "xskx_shared.h"

struct xskx_xdp_attachment;

/*
 * 0 when a socket asking for req can use the program described by program
 * running in mode for users ("this process's other sockets", "process
 * 42 (rx)", ...); else -EBUSY, logged, naming what differs and the fix.
 */
int xskx__xdp_refuse_different(const struct xskx_netdev *dev,
			       const struct xskx_xdp_request *req,
			       enum xskx_xdp_mode mode,
			       const struct xskx_owner_entry *program,
			       const char *users);

/*
 * Join the xskx program on dev, attaching one when there is none or
 * replacing one whose users all died (xdp_share.c). 0 or a negative errno,
 * logged.
 */
int xskx__xdp_share(const struct xskx_netdev *dev,
		    const struct xskx_xdp_request *req,
		    struct xskx_xdp_attachment *att);

#endif /* XSKX_KERNEL_XDP_SHARE_H */
