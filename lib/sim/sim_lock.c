// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The machine lock, and the signals that cross it: a kick asks the NIC
 * thread for a queue's work, a watch makes it look again at rings whose
 * need_wakeup flag just went up. Every step of the simulated NIC runs
 * under this lock, and none is called from here: the rounds that call the
 * steps are sim_machine.c's, the leaf stays a leaf.
 */
#include <pthread.h>

#include "sim_internal.h"
#include "sim_lock.h"

/*
 * Rounds a queue looks again at its rings after a need_wakeup flag went up:
 * long enough for a store of the application's that its flag load passed
 * to become visible.
 */
#define SIM_WAKEUP_WATCH_ROUNDS 64

void xskx__sim_lock(struct xskx_sim *sim)
{
	__atomic_add_fetch(&sim->ctl_waiters, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&sim->lock);
	__atomic_sub_fetch(&sim->ctl_waiters, 1, __ATOMIC_RELAXED);
}

void xskx__sim_unlock(struct xskx_sim *sim)
{
	pthread_mutex_unlock(&sim->lock);
}

bool xskx__sim_thread_running(const struct xskx_sim *sim)
{
	return __atomic_load_n(&sim->running, __ATOMIC_ACQUIRE);
}

void xskx__sim_kick_queue(struct sim_queue *q, uint32_t kicks)
{
	struct xskx_sim *sim = q->port->sim;

	__atomic_fetch_or(&q->kicks, kicks, __ATOMIC_RELEASE);
	/* Pairs with nic_sleep(): either it sees the kick or we see it asleep. */
	__atomic_store_n(&sim->kick_pending, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sim->nic_sleeping, __ATOMIC_SEQ_CST)) {
		/*
		 * The thread may wake on its own before we get the lock and then
		 * run rounds back to back: announced, we get it between two.
		 */
		xskx__sim_lock(sim);
		pthread_cond_signal(&sim->nic_wake);
		xskx__sim_unlock(sim);
	}
}

void xskx__sim_watch_wakeup(struct sim_queue *q)
{
	if (xskx__sim_thread_running(q->port->sim))
		q->wakeup_watch = SIM_WAKEUP_WATCH_ROUNDS;
}
