/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The xskx program on a device: found, detached, left (xdp_on_device.c). */
#ifndef XSKX_KERNEL_XDP_ON_DEVICE_H
#define XSKX_KERNEL_XDP_ON_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/kernel.h>

struct xskx_xdp_attachment;

/* Whether the program has xskx's maps (its owner map, or its XSKMAP). */
bool xskx__xdp_is_xskx(int prog_fd);

/*
 * The id of the xskx program on ifindex (the oldest, should a dispatcher
 * hold two), 0 when there is none.
 */
uint32_t xskx__xdp_find(int ifindex, enum xskx_xdp_mode *mode);

/*
 * Detach the program with id from ifindex if it is still there (libxdp
 * replaces exactly that program, atomically); logs a failure with the fix.
 */
void xskx__xdp_detach_id(const char *ifname, int ifindex, uint32_t id);

/*
 * Leave the program: detach it when no other living process serves with
 * it. The fds stay open for the caller to close (xskx__xdp_close_fds()).
 */
void xskx__xdp_leave(struct xskx_xdp_attachment *att);

#endif /* XSKX_KERNEL_XDP_ON_DEVICE_H */
