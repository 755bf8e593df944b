/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The deny list (xskx/filter.h) in the maps of an interface's XDP program. */
#ifndef XSKX_KERNEL_FILTER_KERNEL_H
#define XSKX_KERNEL_FILTER_KERNEL_H

struct xskx_filter_dev;
struct xskx_xdp_attachment;

/*
 * The backend's filter_begin (lib/backend.h) for a port whose attachment
 * is att (NULL: no socket with an RX ring open) on interface ifname. Returns
 * 0, or -ENOENT (no program, or one that does not use the deny list's
 * maps), or another negative errno; logged.
 */
int xskx__filter_kernel_begin(const struct xskx_xdp_attachment *att,
			      const char *ifname, struct xskx_filter_dev *dev);

#endif /* XSKX_KERNEL_FILTER_KERNEL_H */
