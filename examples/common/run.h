/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every example program's run needs around the library: the clock,
 * naps, CPU pinning, the polling loop of a worker thread, and error
 * messages that name the call that failed.
 */
#ifndef XSKX_EXAMPLES_RUN_H
#define XSKX_EXAMPLES_RUN_H

#include <time.h>

#include "api_words.h"

/* The clock's time in seconds: CLOCK_MONOTONIC unless run_set_clock() chose. */
double run_now_s(void);

/* The clock run_now_s() reads (xskx-bench -w). */
void run_set_clock(clockid_t clock);

/* Sleep for ns nanoseconds (< 1 s). */
void run_nap(long ns);

/* Pin the calling thread to cpu; on failure warn and run unpinned. */
void run_pin_this_thread(int cpu);

/*
 * A worker thread's loop: call step(ctx) until a stop is requested
 * (signals.h). step returns how much it moved (0: nothing) or a negative
 * errno. A worker that found nothing to do for a few hundred steps waits
 * rather than spin a core at 100%: in wait(ctx, timeout_ms), which blocks
 * until a packet arrives or timeout_ms passed and returns 1, or returns 0
 * where it cannot block now (then, and with no wait, the worker naps for
 * 20 us), or a negative errno. Blocking, not napping, is what keeps a quiet
 * link's latency low (docs/PERFORMANCE.md, "How the programs wait"). On an
 * error, requests a stop for every thread and returns it; otherwise 0.
 */
int run_steps_until_stopped(int (*step)(void *ctx),
			    int (*wait)(void *ctx, int timeout_ms), void *ctx);

/*
 * Print "PROGRAM: CALL: <strerror>: <xskx_last_error()>", the library's
 * words for its options in the program's flags (api_words.h); return err.
 */
int run_lib_error(const char *call, int err);

/*
 * The library's warnings and notices to stderr, in the program's words.
 * Its errors are left out: run_lib_error() prints them with the call that
 * failed.
 */
void run_log_to_stderr(enum api_words_program program);

#endif /* XSKX_EXAMPLES_RUN_H */
