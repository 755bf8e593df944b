/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The device plugin's side of an XSKMAP handed over (device_plugin.c). */
#ifndef XSKX_KERNEL_DEVICE_PLUGIN_H
#define XSKX_KERNEL_DEVICE_PLUGIN_H

/*
 * The device plugin's handshake over its Unix socket at path, for
 * ifname: the XSKMAP's fd in *fd. 0 or a negative errno, logged.
 */
int xskx__device_plugin_xskmap(const char *path, const char *ifname, int *fd);

#endif /* XSKX_KERNEL_DEVICE_PLUGIN_H */
