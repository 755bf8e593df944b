// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Failure reasons. lib/sim cannot log (it knows nothing of the library's
 * logger), so it keeps the reason of the last failure per thread, as errno
 * keeps the error: the library passes it on for the sim_xsk_* calls it makes,
 * and the failures of the public xskx_sim_* calls go to the log function the
 * library registers.
 */
#include <stdarg.h>
#include <stdio.h>

#include "sim_internal.h"

static __thread char last_error[256];
static void (*fail_log)(int err, const char *msg);

static void keep(const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
}

int sim_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	keep(fmt, ap);
	va_end(ap);
	return err;
}

int sim_api_fail(int err, const char *fmt, ...)
{
	void (*log)(int err, const char *msg) =
		__atomic_load_n(&fail_log, __ATOMIC_ACQUIRE);
	va_list ap;

	va_start(ap, fmt);
	keep(fmt, ap);
	va_end(ap);
	if (log)
		log(err, last_error);
	return err;
}

const char *sim_xsk_last_error(void)
{
	return last_error;
}

void sim_xsk_set_fail_log(void (*log)(int err, const char *msg))
{
	__atomic_store_n(&fail_log, log, __ATOMIC_RELEASE);
}
