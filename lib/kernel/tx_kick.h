/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef XSKX_KERNEL_TX_KICK_H
#define XSKX_KERNEL_TX_KICK_H

#include <stdbool.h>

struct xskx_socket;

/*
 * Wake the kernel to send what the socket's TX ring holds, on fd: the
 * kernel backend's and a handed-over socket's (xsk_adopt.c) TX kick.
 * Returns 0 or the negative errno of the sendto() that failed.
 */
int xskx__kernel_kick_tx_fd(struct xskx_socket *s, int fd, bool zero_copy);

#endif /* XSKX_KERNEL_TX_KICK_H */
