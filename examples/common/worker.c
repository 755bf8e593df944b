// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A worker thread (worker.h). */
#define _GNU_SOURCE /* pthread_setname_np */
#include "worker.h"
#include "run.h"

static void *run_thread(void *arg)
{
	struct worker *t = arg;

	if (t->cpu >= 0)
		run_pin_this_thread(t->cpu);
	t->error = run_steps_until_stopped(t->step, t->wait, t->ctx);
	return NULL;
}

int worker_start(struct worker *t)
{
	int err = pthread_create(&t->thread, NULL, run_thread, t);

	if (err)
		return run_lib_error("pthread_create", -err);
	t->running = true;
	if (t->name[0])
		pthread_setname_np(t->thread, t->name);
	return 0;
}

int worker_join(struct worker *t)
{
	if (t->running)
		pthread_join(t->thread, NULL);
	t->running = false;
	return t->error ? run_lib_error("forwarding", t->error) : 0;
}
