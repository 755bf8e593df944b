// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Failure reasons. lib/sim cannot log (it knows nothing of the library's
 * logger), so it keeps the reason of the last failure per thread, as errno
 * keeps the error, and the caller passes it on.
 */
#include <stdarg.h>
#include <stdio.h>

#include "sim_internal.h"

static __thread char last_error[256];

int sim_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

const char *sim_xsk_last_error(void)
{
	return last_error;
}
