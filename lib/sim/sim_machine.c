// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The machine: its ports, the round of NIC work, and the two ways rounds
 * run — one per xskx_sim_poll() call (deterministic), or back to back on
 * the NIC thread (threaded).
 *
 * A round: every port's sources inject, then every queue of every port
 * whose link is up gets its NAPI poll when one is due (xskx__sim_napi_due) and
 * its zero-copy TX pass when TX is awake (xskx__sim_tx_due), after the work other
 * threads asked for with kicks.
 *
 * The NIC thread holds the machine lock while it runs rounds. A round that
 * moves nothing makes it spin a little, then sleep on a condition variable
 * for at most a millisecond (less when a rate-limited source has a frame
 * due); kicks wake it at once. A control call that needs the lock announces
 * itself (ctl_waiters) and the thread steps aside between two rounds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "api.h"
#include "log_internal.h"
#include "now_ns.h"
#include "opts_internal.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_machine.h"
#include "sim_napi.h"
#include "sim_port.h"
#include "sim_source.h"
#include "sim_tx.h"
#include "sim_wire.h"

/* Idle rounds the NIC thread spins through before it sleeps. */
#define SIM_IDLE_SPINS 2048
/* Longest idle sleep: bounds the cost of a lost wakeup. */
#define SIM_IDLE_SLEEP_NS 1000000u
/* Longest wait of xskx__sim_wait_ready() between two looks at the rings. */
#define SIM_POLL_SLICE_NS 10000000u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static struct timespec to_timespec(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

static int init_cond(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int err;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	err = pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
	return -err;
}

XSKX_API int xskx_sim_create(struct xskx_sim **simp,
			     const struct xskx_sim_opts *opts)
{
	struct xskx_sim_opts o;
	struct xskx_sim *sim;
	int err;

	if (!simp)
		return xskx__fail(-EINVAL,
				  "xskx_sim_create: sim must not be NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_sim_opts);
	if (err)
		return err;
	if (o.mode != XSKX_SIM_DETERMINISTIC && o.mode != XSKX_SIM_THREADED)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_create: mode %d is neither XSKX_SIM_DETERMINISTIC nor XSKX_SIM_THREADED",
			(int)o.mode);
	if (o.cpu_plus_one < 0 || o.cpu_plus_one > CPU_SETSIZE)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_create: cpu_plus_one %d is outside [0, %d]",
			o.cpu_plus_one, CPU_SETSIZE);
	if (o.busy_poll && o.mode != XSKX_SIM_DETERMINISTIC)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_create: busy_poll runs the NIC inside the application's kicks: it needs XSKX_SIM_DETERMINISTIC");
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return -ENOMEM;
	sim->mode = o.mode;
	sim->cpu_plus_one = o.cpu_plus_one;
	sim->busy_poll = o.busy_poll;
	pthread_mutex_init(&sim->lock, NULL);
	pthread_mutex_init(&sim->poll_lock, NULL);
	err = init_cond(&sim->nic_wake);
	if (!err) {
		err = init_cond(&sim->poll_wake);
		if (err)
			pthread_cond_destroy(&sim->nic_wake);
	}
	if (err) {
		pthread_mutex_destroy(&sim->lock);
		pthread_mutex_destroy(&sim->poll_lock);
		free(sim);
		return err;
	}
	*simp = sim;
	return 0;
}

/* A port of the machine that a library port is open on, or NULL. */
static const struct xskx_sim_port *port_in_use(const struct xskx_sim *sim)
{
	for (const struct xskx_sim_port *port = sim->ports; port;
	     port = port->next)
		if (port->lib_port)
			return port;
	return NULL;
}

XSKX_API int xskx_sim_destroy(struct xskx_sim *sim)
{
	const struct xskx_sim_port *in_use;
	uint32_t sockets;

	if (!sim)
		return 0;
	xskx__sim_lock(sim);
	sockets = sim->nsockets;
	in_use = port_in_use(sim);
	xskx__sim_unlock(sim);
	if (sockets)
		return xskx__fail(
			-EBUSY,
			"xskx_sim_destroy: %u socket(s) still open on the machine; close them first",
			sockets);
	/* Its xskx_port points into the port: freeing it would strand that. */
	if (in_use)
		return xskx__fail(
			-EBUSY,
			"xskx_sim_destroy: simulated port '%s' is still open as a library port (xskx_port_open_sim()); xskx_port_close() it first",
			in_use->name);
	xskx_sim_stop(sim);
	while (sim->ports) {
		struct xskx_sim_port *port = sim->ports;

		sim->ports = port->next;
		xskx__sim_port_destroy(port);
	}
	pthread_cond_destroy(&sim->nic_wake);
	pthread_cond_destroy(&sim->poll_wake);
	pthread_mutex_destroy(&sim->lock);
	pthread_mutex_destroy(&sim->poll_lock);
	free(sim);
	return 0;
}

static uint32_t copy_kicks(struct sim_queue *q)
{
	uint32_t moved = 0;
	bool more;

	for (struct sim_xsk *xs = q->sockets; xs; xs = xs->next)
		if (__atomic_exchange_n(&xs->copy_kick, false,
					__ATOMIC_ACQUIRE))
			moved += xskx__sim_tx_copy(xs, &more);
	return moved;
}

static uint32_t queue_round(struct sim_queue *q)
{
	uint32_t moved = 0, kicks = 0;

	if (__atomic_load_n(&q->kicks, __ATOMIC_RELAXED))
		kicks = __atomic_exchange_n(&q->kicks, 0, __ATOMIC_ACQUIRE);
	if (!q->pool)
		return 0;
	if (q->wakeup_watch) {
		q->wakeup_watch--;
		xskx__sim_napi_recheck(q);
		xskx__sim_tx_recheck(q);
	}
	if (kicks & SIM_KICK_RX)
		q->rx_sched = true;
	if (xskx__sim_napi_due(q))
		moved += xskx__sim_napi_poll(q);
	if (kicks & SIM_KICK_TX && q->pool->zc)
		xskx__sim_tx_wake(q);
	if (xskx__sim_tx_due(q))
		moved += xskx__sim_tx_zc(q, kicks & SIM_KICK_TX);
	if (kicks & SIM_KICK_TX_COPY)
		moved += copy_kicks(q);
	return moved;
}

static uint32_t sim_round(struct xskx_sim *sim)
{
	uint64_t now = 0;
	uint32_t moved = 0;

	for (struct xskx_sim_port *port = sim->ports; port; port = port->next)
		if (port->sources) {
			if (!now)
				now = xskx__now_ns();
			moved += xskx__sim_sources_run(port, now);
		}
	for (struct xskx_sim_port *port = sim->ports; port; port = port->next) {
		if (xskx__sim_port_link_down(port))
			continue;
		for (uint32_t i = 0; i < port->nqueues; i++)
			moved += queue_round(&port->queues[i]);
	}
	return moved;
}

XSKX_API int xskx_sim_poll(struct xskx_sim *sim)
{
	uint32_t moved;

	if (!sim)
		return xskx__fail(-EINVAL, "xskx_sim_poll: sim is NULL");
	if (xskx__sim_thread_running(sim))
		return xskx__fail(
			-EBUSY,
			"xskx_sim_poll: the NIC thread runs the machine; stop it first");
	xskx__sim_lock(sim);
	moved = sim_round(sim);
	xskx__sim_unlock(sim);
	return moved > INT_MAX ? INT_MAX : (int)moved;
}

XSKX_API bool xskx_sim_sources_active(const struct xskx_sim *sim)
{
	struct xskx_sim *s = (struct xskx_sim *)sim;
	bool active = false;

	if (!sim)
		return false;
	xskx__sim_lock(s);
	for (struct xskx_sim_port *port = s->ports; port && !active;
	     port = port->next)
		active = xskx__sim_sources_unfinished(port);
	xskx__sim_unlock(s);
	return active;
}

static void wake_pollers(struct xskx_sim *sim)
{
	/*
	 * Ring indices were published, now look for waiters; a waiter counts
	 * itself, then looks at the rings. The read-modify-write orders the
	 * stores before it like a full fence (which TSan cannot follow).
	 */
	if (!__atomic_fetch_add(&sim->poll_waiters, 0, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&sim->poll_lock);
	pthread_cond_broadcast(&sim->poll_wake);
	pthread_mutex_unlock(&sim->poll_lock);
}

/*
 * Sleep until a kick, the next due source frame, or a millisecond. Returns
 * true when woken by a kick (or work is due at once).
 */
static bool nic_sleep(struct xskx_sim *sim)
{
	uint64_t now = xskx__now_ns(), until = now + SIM_IDLE_SLEEP_NS;
	bool kicked;

	for (struct xskx_sim_port *port = sim->ports; port; port = port->next)
		if (xskx__sim_sources_timed(port)) {
			uint64_t due = xskx__sim_sources_next_due(port);

			if (due < until)
				until = due;
		}
	if (until <= now)
		return true;
	__atomic_store_n(&sim->nic_sleeping, 1, __ATOMIC_SEQ_CST);
	kicked = __atomic_exchange_n(&sim->kick_pending, 0, __ATOMIC_SEQ_CST);
	if (!kicked) {
		struct timespec ts = to_timespec(until);

		pthread_cond_timedwait(&sim->nic_wake, &sim->lock, &ts);
		kicked = __atomic_exchange_n(&sim->kick_pending, 0,
					     __ATOMIC_SEQ_CST);
	}
	__atomic_store_n(&sim->nic_sleeping, 0, __ATOMIC_SEQ_CST);
	/*
	 * A need_wakeup flag raised as the application published its entries
	 * may have cost a kick; look at every sleeping queue once.
	 */
	for (struct xskx_sim_port *port = sim->ports; port; port = port->next)
		for (uint32_t i = 0; i < port->nqueues; i++) {
			xskx__sim_napi_recheck(&port->queues[i]);
			xskx__sim_tx_recheck(&port->queues[i]);
		}
	return kicked;
}

static void *nic_thread(void *arg)
{
	struct xskx_sim *sim = arg;
	uint32_t idle = 0;

	pthread_mutex_lock(&sim->lock);
	while (!__atomic_load_n(&sim->stopping, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&sim->ctl_waiters, __ATOMIC_RELAXED)) {
			pthread_mutex_unlock(&sim->lock);
			while (__atomic_load_n(&sim->ctl_waiters,
					       __ATOMIC_RELAXED))
				sched_yield();
			pthread_mutex_lock(&sim->lock);
		}
		if (sim_round(sim)) {
			idle = 0;
			wake_pollers(sim);
		} else if (++idle < SIM_IDLE_SPINS) {
			cpu_relax();
		} else {
			/* Woken by the clock, it goes back to sleep after one round. */
			idle = nic_sleep(sim) ? 0 : SIM_IDLE_SPINS - 1;
		}
	}
	pthread_mutex_unlock(&sim->lock);
	return NULL;
}

/* The NIC thread's attributes: pinned to a CPU when asked. */
static int thread_attr(struct xskx_sim *sim, pthread_attr_t *attr)
{
	cpu_set_t set;

	pthread_attr_init(attr);
	if (!sim->cpu_plus_one)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(sim->cpu_plus_one - 1, &set);
	return -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

XSKX_API int xskx_sim_start(struct xskx_sim *sim)
{
	pthread_attr_t attr;
	int err;

	if (!sim)
		return xskx__fail(-EINVAL, "xskx_sim_start: sim is NULL");
	if (sim->mode != XSKX_SIM_THREADED)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_start: the machine was created in deterministic mode; create it with XSKX_SIM_THREADED");
	if (xskx__sim_thread_running(sim))
		return xskx__fail(-EBUSY,
				  "xskx_sim_start: the NIC thread already runs");
	__atomic_store_n(&sim->stopping, false, __ATOMIC_RELAXED);
	__atomic_store_n(&sim->running, true, __ATOMIC_RELEASE);
	err = thread_attr(sim, &attr);
	if (!err)
		err = -pthread_create(&sim->thread, &attr, nic_thread, sim);
	pthread_attr_destroy(&attr);
	if (!err) {
		/* A name that top -H and /proc/PID/task/TID/comm show: its CPU
		 * time told apart from the application's threads (a failure to
		 * name it changes nothing else). */
		pthread_setname_np(sim->thread, "xskx-sim-nic");
		return 0;
	}
	__atomic_store_n(&sim->running, false, __ATOMIC_RELEASE);
	if (sim->cpu_plus_one)
		return xskx__fail(
			err,
			"xskx_sim_start: cannot start the NIC thread on CPU %d (cpu_plus_one %d): not a CPU this process may use?",
			sim->cpu_plus_one - 1, sim->cpu_plus_one);
	return xskx__fail(err, "xskx_sim_start: cannot create the NIC thread");
}

XSKX_API int xskx_sim_stop(struct xskx_sim *sim)
{
	if (!sim)
		return xskx__fail(-EINVAL, "xskx_sim_stop: sim is NULL");
	if (!xskx__sim_thread_running(sim))
		return 0;
	__atomic_store_n(&sim->stopping, true, __ATOMIC_RELEASE);
	xskx__sim_lock(sim);
	pthread_cond_signal(&sim->nic_wake);
	xskx__sim_unlock(sim);
	pthread_join(sim->thread, NULL);
	__atomic_store_n(&sim->running, false, __ATOMIC_RELEASE);
	return 0;
}

int xskx__sim_wait_ready(struct xskx_sim *sim, int timeout_ms,
		         int (*ready)(struct sim_xsk *xsk, short events),
		         struct sim_xsk *xsk, short events)
{
	uint64_t now = xskx__now_ns(), until = UINT64_MAX;
	int mask = ready(xsk, events);

	if (mask || !timeout_ms)
		return mask;
	if (timeout_ms > 0)
		until = now + (uint64_t)timeout_ms * 1000000u;
	pthread_mutex_lock(&sim->poll_lock);
	/* Pairs with wake_pollers(): count ourselves, then look at the rings. */
	__atomic_add_fetch(&sim->poll_waiters, 1, __ATOMIC_SEQ_CST);
	while (!(mask = ready(xsk, events)) && now < until) {
		uint64_t slice = now + SIM_POLL_SLICE_NS;
		struct timespec ts = to_timespec(slice < until ? slice : until);

		pthread_cond_timedwait(&sim->poll_wake, &sim->poll_lock, &ts);
		now = xskx__now_ns();
	}
	__atomic_sub_fetch(&sim->poll_waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&sim->poll_lock);
	return mask;
}
