// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The one log callback, its level, and the last error message per thread. */
#define _GNU_SOURCE /* strerrordesc_np */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "log_internal.h"

#define XSKX_MSG_MAX 512

static void log_to_stderr(enum xskx_log_level level, const char *msg,
			  void *ctx);

static const char *const level_names[] = {
	[XSKX_LOG_ERROR] = "error",
	[XSKX_LOG_WARN] = "warn",
	[XSKX_LOG_INFO] = "info",
	[XSKX_LOG_DEBUG] = "debug",
};

/*
 * Set once by the application, read by every failing call: plain atomics
 * are enough, nobody waits on them.
 */
#define LEVEL_UNREAD INT_MIN	/* not read from the environment yet */

static xskx_log_fn log_fn = log_to_stderr;
static void *log_ctx;
static int log_level = LEVEL_UNREAD;

static __thread char last_error[XSKX_MSG_MAX];
static __thread char last_reason[XSKX_MSG_MAX];

/*
 * The default callback prints what has no other way to the user: warnings
 * (and info and debug, at those levels) of calls that went on. An error is
 * the failing call's result, its message kept for xskx_last_error(): the
 * caller shows it, once, in its own words.
 */
static void log_to_stderr(enum xskx_log_level level, const char *msg,
			  void *ctx)
{
	(void)ctx;
	if (level == XSKX_LOG_ERROR)
		return;
	fprintf(stderr, "xskx: %s: %s\n", level_names[level], msg);
}

static enum xskx_log_level level_from_env(void)
{
	const char *s = getenv("XSKX_LOG_LEVEL");

	if (s && !strcasecmp(s, "none"))
		return XSKX_LOG_NONE;
	if (s)
		for (unsigned int i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
			if (!strcasecmp(s, level_names[i]))
				return (enum xskx_log_level)i;
	return XSKX_LOG_WARN;
}

XSKX_API enum xskx_log_level xskx_log_level(void)
{
	int level = __atomic_load_n(&log_level, __ATOMIC_RELAXED);

	if (level == LEVEL_UNREAD) {
		level = level_from_env();
		__atomic_store_n(&log_level, level, __ATOMIC_RELAXED);
	}
	return (enum xskx_log_level)level;
}

XSKX_API void xskx_set_log_level(enum xskx_log_level level)
{
	__atomic_store_n(&log_level, (int)level, __ATOMIC_RELAXED);
}

XSKX_API void xskx_set_log(xskx_log_fn fn, void *ctx)
{
	__atomic_store_n(&log_ctx, ctx, __ATOMIC_RELAXED);
	__atomic_store_n(&log_fn, fn ? fn : log_to_stderr, __ATOMIC_RELEASE);
}

static void vlog(enum xskx_log_level level, const char *fmt, va_list ap)
{
	char msg[XSKX_MSG_MAX];
	xskx_log_fn fn;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (level == XSKX_LOG_ERROR)
		memcpy(last_error, msg, sizeof(msg));
	if (level > xskx_log_level())
		return;
	fn = __atomic_load_n(&log_fn, __ATOMIC_ACQUIRE);
	fn(level, msg, __atomic_load_n(&log_ctx, __ATOMIC_RELAXED));
}

XSKX_BACKEND_API void xskx__log(enum xskx_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

XSKX_BACKEND_API int xskx__fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(XSKX_LOG_ERROR, fmt, ap);
	va_end(ap);
	return err;
}

XSKX_BACKEND_API int xskx__reason(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_reason, sizeof(last_reason), fmt, ap);
	va_end(ap);
	return err;
}

XSKX_BACKEND_API const char *xskx__last_reason(void)
{
	return last_reason;
}

XSKX_API const char *xskx_last_error(void)
{
	return last_error;
}

XSKX_API const char *xskx_strerror(int err)
{
	if (err < 0 && err != INT_MIN)
		err = -err;
	/* strerror() may share a static buffer; strerrordesc_np() does not. */
	const char *desc = strerrordesc_np(err);

	return desc ? desc : "Unknown error";
}
