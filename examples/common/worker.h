/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A worker thread of the example programs (a queue of xskx-l2fwd, xskx-fw
 * or xskx-bench --queues): step(ctx) in a loop until a stop is requested
 * (run.h), optionally pinned to a CPU.
 */
#ifndef XSKX_EXAMPLES_WORKER_H
#define XSKX_EXAMPLES_WORKER_H

#include <pthread.h>
#include <stdbool.h>

struct worker {
	int (*step)(void *ctx); /* as run_steps_until_stopped() takes them */
	int (*wait)(void *ctx, int timeout_ms); /* NULL: nap when idle */
	void *ctx;
	int cpu;		/* -1: not pinned */
	char name[16];		/* "": the process's name (top -H shows it) */
	pthread_t thread;
	bool running;
	int error;	/* the library's errno that ended the thread, or 0 */
};

/* Start t (step, ctx and cpu set). Returns 0 or a negative errno, reported. */
int worker_start(struct worker *t);

/*
 * Once a stop was requested (signals_request_stop): wait for t if it runs.
 * Returns the error that ended it, reported, or 0.
 */
int worker_join(struct worker *t);

#endif /* XSKX_EXAMPLES_WORKER_H */
