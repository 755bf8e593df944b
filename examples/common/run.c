// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The run around the library (see run.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <xskx/xskx.h>

#include "api_words.h"
#include "run.h"
#include "signals.h"

/*
 * Steps that found nothing before a worker waits: a short spin (tens of
 * microseconds) that keeps a busy link's packets from paying for a wakeup.
 */
#define IDLE_STEPS_BEFORE_WAIT 256
/*
 * How long one wait may block: the longest a stop request (or xskx-fw's
 * rule reload) waits for a thread on a quiet link.
 */
#define IDLE_WAIT_MS 50
#define IDLE_NAP_NS 20000L

static clockid_t run_clock = CLOCK_MONOTONIC;

void run_set_clock(clockid_t clock)
{
	run_clock = clock;
}

double run_now_s(void)
{
	struct timespec ts;

	clock_gettime(run_clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_nap(long ns)
{
	struct timespec ts = { .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

void run_pin_this_thread(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		fprintf(stderr,
			"%s: warning: cannot pin to CPU %d (%s): running unpinned\n",
			program_invocation_short_name, cpu, xskx_strerror(err));
}

int run_steps_until_stopped(int (*step)(void *ctx),
			    int (*wait)(void *ctx, int timeout_ms), void *ctx)
{
	uint32_t idle = 0;

	while (!signals_stop_requested()) {
		int moved = step(ctx);

		if (moved == 0 && ++idle >= IDLE_STEPS_BEFORE_WAIT) {
			moved = wait ? wait(ctx, IDLE_WAIT_MS) : 0;
			if (moved == 0)
				run_nap(IDLE_NAP_NS);
		} else if (moved > 0) {
			idle = 0;
		}
		if (moved < 0) {
			signals_request_stop();
			return moved;
		}
	}
	return 0;
}

/* Room for the longest message the library logs, in the program's words. */
#define MESSAGE_MAX 1024

int run_lib_error(const char *call, int err)
{
	char buf[MESSAGE_MAX];
	const char *why = api_words_translate(xskx_last_error(), buf,
					      sizeof(buf));

	fprintf(stderr, "%s: %s: %s%s%s\n", program_invocation_short_name, call,
		xskx_strerror(err), *why ? ": " : "", why);
	return err;
}

static void log_to_stderr(enum xskx_log_level level, const char *msg, void *ctx)
{
	char buf[MESSAGE_MAX];

	(void)ctx;
	if (level != XSKX_LOG_ERROR)
		fprintf(stderr, "xskx: %s\n",
			api_words_translate(msg, buf, sizeof(buf)));
}

void run_log_to_stderr(enum api_words_program program)
{
	api_words_use(program);
	xskx_set_log(log_to_stderr, NULL);
}
