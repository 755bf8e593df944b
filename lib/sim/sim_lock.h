/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine lock and the signals between the NIC thread and the others
 * (sim_lock.c): the leaf every step of the simulated NIC stands on. It
 * calls no step; the rounds that do are sim_machine.c's.
 */
#ifndef XSKX_SIM_LOCK_H
#define XSKX_SIM_LOCK_H

#include <stdbool.h>
#include <stdint.h>

struct xskx_sim;
struct sim_queue;

void xskx__sim_lock(struct xskx_sim *sim);
void xskx__sim_unlock(struct xskx_sim *sim);
bool xskx__sim_thread_running(const struct xskx_sim *sim);
/* Threaded mode: ask the NIC thread for work on a queue. */
void xskx__sim_kick_queue(struct sim_queue *q, uint32_t kicks);
/*
 * A need_wakeup flag of the queue went up and the look right after found
 * nothing: on the NIC thread, look again in the next rounds (sim_ring.h).
 */
void xskx__sim_watch_wakeup(struct sim_queue *q);

#endif /* XSKX_SIM_LOCK_H */
