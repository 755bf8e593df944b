/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Packets that found no socket on their queue (lib/port_no_socket.c). */
#ifndef XSKX_PORT_NO_SOCKET_H
#define XSKX_PORT_NO_SOCKET_H

#include <stdint.h>

#include "port_state.h"

/*
 * Read the port's counts of packets that found no socket on their queue,
 * logging the queues and the fix the first time any has some; returns
 * their sum, 0 when the port cannot count them (port_no_socket.c).
 */
uint64_t xskx__port_no_socket_check(const struct xskx_port *port);

#endif /* XSKX_PORT_NO_SOCKET_H */
