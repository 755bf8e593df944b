/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The TX side of a queue (sim_tx.c): from the TX ring to the wire. */
#ifndef XSKX_SIM_TX_H
#define XSKX_SIM_TX_H

#include <stdbool.h>
#include <stdint.h>

struct sim_queue;
struct sim_xsk;

/* A kick: TX runs until its rings are empty (zero-copy). */
void xskx__sim_tx_wake(struct sim_queue *q);
/* One zero-copy pass over the queue's sockets; returns descriptors taken. */
uint32_t xskx__sim_tx_zc(struct sim_queue *q, bool kicked);
/*
 * One copy-mode pass over a socket (its sendto); *more: the sendto says
 * EAGAIN, descriptors being left on the ring (budget spent, COMPLETION
 * full, stalled). A pass that ends at an invalid descriptor says 0.
 */
uint32_t xskx__sim_tx_copy(struct sim_xsk *xs, bool *more);
bool xskx__sim_tx_due(const struct sim_queue *q);
/* Threaded mode, after an idle sleep: notice TX entries without a kick. */
void xskx__sim_tx_recheck(struct sim_queue *q);

#endif /* XSKX_SIM_TX_H */
