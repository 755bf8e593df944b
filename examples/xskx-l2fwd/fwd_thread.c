// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A forwarding queue's thread (fwd_thread.h). */
#include "fwd_thread.h"
#include "run.h"

static void *run_thread(void *arg)
{
	struct fwd_thread *t = arg;

	if (t->cpu >= 0)
		run_pin_this_thread(t->cpu);
	t->error = run_steps_until_stopped(t->step, t->ctx);
	return NULL;
}

int fwd_thread_start(struct fwd_thread *t)
{
	int err = pthread_create(&t->thread, NULL, run_thread, t);

	if (err)
		return run_lib_error("pthread_create", -err);
	t->running = true;
	return 0;
}

int fwd_thread_join(struct fwd_thread *t)
{
	if (t->running)
		pthread_join(t->thread, NULL);
	t->running = false;
	return t->error ? run_lib_error("forwarding", t->error) : 0;
}
