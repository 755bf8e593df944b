/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How many TX descriptors a copy-mode sendto() may send (the kernel's
 * XDP_MAX_TX_SKB_BUDGET, lib/kernel_rules.h): the library asks for the
 * whole TX ring, so that one kick sends everything a burst queued instead
 * of 32 and an EAGAIN per 32. Both backends apply it right after bind.
 */
#ifndef XSKX_TX_BUDGET_H
#define XSKX_TX_BUDGET_H

#include <stdint.h>

struct xskx_port_opts;
struct xskx_socket_opts;

/*
 * The budget to set on a socket with these options on a port with these;
 * 0: leave the kernel's default.
 */
uint32_t xskx__tx_budget_wanted(const struct xskx_port_opts *po,
				const struct xskx_socket_opts *o);

#endif /* XSKX_TX_BUDGET_H */
