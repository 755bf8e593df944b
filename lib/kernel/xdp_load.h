/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Loading and attaching xskx's XDP program as its first user (xdp_load.c). */
#ifndef XSKX_KERNEL_XDP_LOAD_H
#define XSKX_KERNEL_XDP_LOAD_H

#include "netdev.h"
#include "xdp_request.h"
#include "xskx_shared.h"

struct xskx_xdp_attachment;

/* The record a request's program would have: its object's digest, frags. */
void xskx__xdp_program_of(const struct xskx_xdp_request *req,
			  struct xskx_owner_entry *program);

/*
 * Load req's program and attach it to dev as its first user (xdp_load.c),
 * filling att's program, mode and fds. -EAGAIN: another process's xskx
 * program got there first (join it); else 0 or a negative errno, logged.
 */
int xskx__xdp_attach_new(const struct xskx_netdev *dev,
			 const struct xskx_xdp_request *req,
			 struct xskx_xdp_attachment *att);

/*
 * With RX metadata asked for: log which fields dev provides and whether the
 * program att holds can give them (bound), or why not.
 */
void xskx__xdp_log_rx_meta(const struct xskx_netdev *dev,
			   const struct xskx_xdp_attachment *att);

#endif /* XSKX_KERNEL_XDP_LOAD_H */
