/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An XSKMAP that someone else's XDP program redirects with: a node agent,
 * or the AF_XDP device plugin for Kubernetes, attached the program and
 * hands this process the map, as a file descriptor, as a map pinned in a
 * bpffs, or over the device plugin's Unix socket (device_plugin.c). The
 * port then loads and attaches nothing: its sockets go into that map.
 */
#ifndef XSKX_KERNEL_XSKMAP_EXTERNAL_H
#define XSKX_KERNEL_XSKMAP_EXTERNAL_H

#include <stdint.h>
#include <xskx/port.h>

/* Whether opts name such a map (any of the three ways). */
bool xskx__xskmap_external_asked(const struct xskx_port_opts *opts);

/*
 * The map opts name for interface ifname, checked to be an XSKMAP: its fd
 * (ours, close-on-exec) in *fd and its entries in *entries. 0 or a
 * negative errno, logged naming the way it was asked for and the fix.
 */
int xskx__xskmap_external_open(const struct xskx_port_opts *opts,
			       const char *ifname, int *fd, uint32_t *entries);

#endif /* XSKX_KERNEL_XSKMAP_EXTERNAL_H */
