/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Errors and logging.
 *
 * Every xskx function that can fail returns 0 (or a count) on success and a
 * negative errno on failure. When it fails for a reason the caller can fix
 * (a bad setting, a missing interface, a missing privilege) it also logs one
 * message that names the culprit and the fix, through the single log
 * callback below, and keeps it for xskx_last_error(). lib/ never exits, and
 * prints only through that callback; the data path (burst calls) logs only
 * to report a caller's error.
 *
 * The default callback writes warnings to stderr and leaves errors to the
 * caller, which has them as values: a program prints each error once,
 *	if (err) errx(1, "%s", xskx_last_error());
 */
#ifndef XSKX_LOG_H
#define XSKX_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

enum xskx_log_level {
	XSKX_LOG_NONE = -1,	/* nothing reaches the callback */
	XSKX_LOG_ERROR = 0,
	XSKX_LOG_WARN = 1,
	XSKX_LOG_INFO = 2,
	XSKX_LOG_DEBUG = 3,
};

/*
 * Receives one complete message (no trailing newline). Called from the
 * thread that made the failing call.
 */
typedef void (*xskx_log_fn)(enum xskx_log_level level, const char *msg,
			    void *ctx);

/*
 * Install the log callback for the whole library, or restore the default
 * with fn == NULL. Messages at or below the level in force reach the
 * callback: the level named by the environment variable XSKX_LOG_LEVEL
 * (none, error, warn, info, debug; default warn) or xskx_set_log_level().
 * The default writes "xskx: <level>: <msg>\n" to stderr for those that are
 * not errors: a failing call returns its error and keeps the message for
 * xskx_last_error(), for the caller to show once. A callback of the
 * application's receives the errors too. No syscall besides the
 * callback's own.
 */
void xskx_set_log(xskx_log_fn fn, void *ctx);

/* The level currently in force (from XSKX_LOG_LEVEL or xskx_set_log_level). */
enum xskx_log_level xskx_log_level(void);

/* Override the level from XSKX_LOG_LEVEL; XSKX_LOG_NONE: no message at all. */
void xskx_set_log_level(enum xskx_log_level level);

/*
 * A short description of an error code. Accepts the negative errno xskx
 * returns (or a positive one). Never returns NULL; thread-safe.
 */
const char *xskx_strerror(int err);

/*
 * The last error message logged by a failing call on this thread, whatever
 * the log level and callback ("" when there is none; warnings of calls that
 * succeeded are not kept). Lets a program show the full reason after a call returned
 * a negative errno, and lets tests assert that the message names the culprit.
 */
const char *xskx_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_LOG_H */
