/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Poll or busy loop (xskx_socket_choose_wakeup()): the rule, apart from
 * how its facts are gathered, so that it can be tested on its own.
 */
#ifndef XSKX_WAKEUP_CHOICE_H
#define XSKX_WAKEUP_CHOICE_H

/* cpu_set_t: includers define _GNU_SOURCE before their first include. */
#include <sched.h>
#include <xskx/socket.h>

/*
 * napi_thread: the pid of the thread running the queue's NAPI, 0 for none;
 * napi_cpus: where it may run (unused without one); app_cpus: where the
 * application's thread may run. Sets *why to the reason.
 */
enum xskx_wakeup xskx__wakeup_rule(pid_t napi_thread,
				   const cpu_set_t *napi_cpus,
				   const cpu_set_t *app_cpus, const char **why);

#endif /* XSKX_WAKEUP_CHOICE_H */
