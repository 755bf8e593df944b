/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * RX on a queue without a zero-copy pool (sim_rx_driver.c): copy mode,
 * and queues with no socket, through a driver buffer.
 */
#ifndef XSKX_SIM_RX_DRIVER_H
#define XSKX_SIM_RX_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

struct sim_queue;
struct sim_pkt;

bool xskx__sim_rx_driver(struct sim_queue *q, const struct sim_pkt *pkt);
bool xskx__sim_rx_driver_can_take(struct sim_queue *q, uint32_t len);

#endif /* XSKX_SIM_RX_DRIVER_H */
