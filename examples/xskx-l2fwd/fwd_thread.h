/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The thread that runs one forwarding queue (xskx-l2fwd's and xskx-fw's):
 * step(ctx) in a loop until a stop is requested (run.h), optionally
 * pinned to a CPU.
 */
#ifndef XSKX_L2FWD_FWD_THREAD_H
#define XSKX_L2FWD_FWD_THREAD_H

#include <pthread.h>
#include <stdbool.h>

struct fwd_thread {
	int (*step)(void *ctx); /* as run_steps_until_stopped() takes it */
	void *ctx;
	int cpu;		/* -1: not pinned */
	pthread_t thread;
	bool running;
	int error;	/* the library's errno that ended the thread, or 0 */
};

/* Start t (step, ctx and cpu set). Returns 0 or a negative errno, reported. */
int fwd_thread_start(struct fwd_thread *t);

/*
 * Once a stop was requested (signals_request_stop): wait for t if it runs.
 * Returns the error that ended it, reported, or 0.
 */
int fwd_thread_join(struct fwd_thread *t);

#endif /* XSKX_L2FWD_FWD_THREAD_H */
