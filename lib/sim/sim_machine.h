/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine's rounds (sim_machine.c): what a poll() waits on is what the
 * NIC thread's rounds publish, so the wait lives beside them.
 */
#ifndef XSKX_SIM_MACHINE_H
#define XSKX_SIM_MACHINE_H

struct xskx_sim;
struct sim_xsk;

/* Threaded mode: wait up to timeout_ms until ready() returns non-zero. */
int xskx__sim_wait_ready(struct xskx_sim *sim, int timeout_ms,
			 int (*ready)(struct sim_xsk *xsk, short events),
			 struct sim_xsk *xsk, short events);

#endif /* XSKX_SIM_MACHINE_H */
