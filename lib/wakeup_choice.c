// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Poll or busy loop. With threaded NAPI the packets are delivered by a
 * kernel thread; an application spinning on a CPU that thread may use
 * starves it (measured on veth: a busy loop at a third of poll()'s rate,
 * docs/PERFORMANCE.md). Without a NAPI thread the packets come from
 * softirq context and a busy loop costs nothing but its CPU.
 */
#define _GNU_SOURCE /* cpu_set_t, sched_getaffinity */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "port_internal.h"
#include "rings/rings.h"
#include "wakeup_choice.h"

enum xskx_wakeup xskx__wakeup_rule(pid_t napi_thread,
				   const cpu_set_t *napi_cpus,
				   const cpu_set_t *app_cpus, const char **why)
{
	cpu_set_t shared;

	if (!napi_thread) {
		*why = "no NAPI thread: the packets do not wait for this thread's CPU";
		return XSKX_WAKEUP_BUSY_LOOP;
	}
	CPU_AND(&shared, napi_cpus, app_cpus);
	if (CPU_COUNT(&shared)) {
		*why = "threaded NAPI that may run on this thread's CPUs: a busy loop would starve it";
		return XSKX_WAKEUP_POLL;
	}
	*why = "threaded NAPI on other CPUs than this thread's";
	return XSKX_WAKEUP_BUSY_LOOP;
}

/* XSKX_WAKEUP: 1 with *mode set, 0 when unset, -EINVAL when unknown. */
static int wakeup_from_env(enum xskx_wakeup *mode)
{
	const char *s = getenv("XSKX_WAKEUP");

	if (!s || !*s)
		return 0;
	if (!strcmp(s, "poll"))
		*mode = XSKX_WAKEUP_POLL;
	else if (!strcmp(s, "loop"))
		*mode = XSKX_WAKEUP_BUSY_LOOP;
	else
		return xskx__fail(
			-EINVAL,
			"XSKX_WAKEUP='%s': use poll or loop, or unset it", s);
	return 1;
}

/* The facts: the queue's NAPI thread and where it and this thread run. */
static int choose(const struct xskx_socket *s, enum xskx_wakeup *mode,
		  const char **why)
{
	cpu_set_t napi_cpus, app_cpus;
	pid_t thread = 0;
	int err;

	if (s->ops->napi_thread && (err = s->ops->napi_thread(s, &thread)))
		return err;
	CPU_ZERO(&napi_cpus);
	if (thread && sched_getaffinity(thread, sizeof(napi_cpus), &napi_cpus))
		return xskx__fail(
			-errno, "choose_wakeup: the CPUs of NAPI thread %d: %s",
			(int)thread, xskx_strerror(errno));
	if (sched_getaffinity(0, sizeof(app_cpus), &app_cpus))
		return xskx__fail(-errno,
				  "choose_wakeup: this thread's CPUs: %s",
				  xskx_strerror(errno));
	*mode = xskx__wakeup_rule(thread, &napi_cpus, &app_cpus, why);
	return 0;
}

XSKX_API int xskx_socket_choose_wakeup(const struct xskx_socket *s,
				       enum xskx_wakeup *mode, const char **why)
{
	const char *reason;
	int err;

	if (!s || !mode)
		return xskx__fail(
			-EINVAL,
			"choose_wakeup: socket and mode must not be NULL");
	err = wakeup_from_env(mode);
	if (err < 0)
		return err;
	if (err)
		reason = "XSKX_WAKEUP says so";
	else if ((err = choose(s, mode, &reason)))
		return err;
	xskx_info("queue %u: %s (%s)", s->queue_id,
		  *mode == XSKX_WAKEUP_POLL ? "poll() before each burst" :
					      "a busy loop",
		  reason);
	if (why)
		*why = reason;
	return 0;
}
