// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The run's stop and reload flags (see signals.h). */
#include <signal.h>
#include <stddef.h>

#include "signals.h"

static int stop_flag, reload_flag; /* __atomic: handlers and threads */

static void on_signal(int sig)
{
	__atomic_store_n(sig == SIGHUP ? &reload_flag : &stop_flag, 1,
			 __ATOMIC_RELAXED);
}

void signals_catch(bool reload)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (reload)
		sigaction(SIGHUP, &sa, NULL);
}

void signals_request_stop(void)
{
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

bool signals_stop_requested(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

bool signals_reload_requested(void)
{
	return __atomic_load_n(&reload_flag, __ATOMIC_RELAXED);
}

void signals_reload_done(void)
{
	__atomic_store_n(&reload_flag, 0, __ATOMIC_RELAXED);
}
