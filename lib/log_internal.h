/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Logging inside the library: never from the data path. */
#ifndef XSKX_LOG_INTERNAL_H
#define XSKX_LOG_INTERNAL_H

#include <xskx/log.h>

void xskx__log(enum xskx_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Log an error message and return err (a negative errno), so that a failure
 * reads as one statement:
 *	return xskx__fail(-EINVAL, "frame_size %u is not a power of two", fs);
 */
int xskx__fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Keep the reason of a failure without logging it, and return err: for a
 * layer shaped like system calls (the simulated NIC's sim_xsk_* calls),
 * whose failures are errno values the caller either logs with its own
 * context, quoting xskx__last_reason(), or takes as "try again". Per thread,
 * like errno; never changes xskx_last_error().
 */
int xskx__reason(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *xskx__last_reason(void);

#define xskx_warn(...) xskx__log(XSKX_LOG_WARN, __VA_ARGS__)
#define xskx_info(...) xskx__log(XSKX_LOG_INFO, __VA_ARGS__)
#define xskx_debug(...) xskx__log(XSKX_LOG_DEBUG, __VA_ARGS__)

#endif /* XSKX_LOG_INTERNAL_H */
