/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The socket as the backends see it (lib/socket.c opens and closes it):
 * struct xskx_socket itself is the ring runs' (lib/rings/rings.h); a
 * backend's open reads its port, its UMEM and its TX metadata requests.
 */
#ifndef XSKX_SOCKET_INTERNAL_H
#define XSKX_SOCKET_INTERNAL_H

#include <stdint.h>
#include <xskx/socket.h>

#include "frames/frame_pool.h"
#include "port_internal.h"
#include "rings/rings.h"
#include "rings/tx_meta.h"

/* The bind flags (XDP_*) that the socket's options ask for. */
uint16_t xskx__socket_bind_flags(const struct xskx_socket_opts *opts);

#endif /* XSKX_SOCKET_INTERNAL_H */
