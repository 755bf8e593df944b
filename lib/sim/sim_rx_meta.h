/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* RX metadata on the simulated NIC (sim_rx_meta.c). */
#ifndef XSKX_SIM_RX_META_H
#define XSKX_SIM_RX_META_H

#include <stdint.h>

/*
 * With XSKX_PORT_RX_METADATA: a struct xskx_rx_meta in the
 * XSKX_XDP_META_MAX bytes in front of data.
 */
void xskx__sim_rx_meta_fill(uint8_t *data, uint32_t len);

#endif /* XSKX_SIM_RX_META_H */
