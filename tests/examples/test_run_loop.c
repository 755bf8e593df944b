// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The example programs' worker loop (examples/common/run.c): how an idle
 * worker waits. A scripted step and wait record what the loop did: a
 * worker waits only after a few hundred idle steps in a row, with a bounded
 * timeout; a step that moved packets starts the count again; a wait that
 * cannot block falls back to a nap and the loop goes on; errors from either
 * stop every thread and come back.
 */
#include <errno.h>

#include "helpers.h"
#include "run.h"
#include "signals.h"

#define MAX_EVENTS 4096

/* What the scripted step and wait do, and what the loop made of them. */
struct script {
	uint32_t steps;	     /* steps so far */
	uint32_t move_every; /* 0: never moves; N: every Nth step moves */
	int step_error_at;   /* the step that fails (0: none) */
	int wait_returns;    /* what each wait says */
	uint32_t waits_before_stop;
	uint32_t waits;
	uint32_t steps_at_wait[MAX_EVENTS]; /* the step count at each wait */
	int timeout_ms;			    /* the last wait's */
};

static int scripted_step(void *ctx)
{
	struct script *s = ctx;

	s->steps++;
	if (s->step_error_at && s->steps == (uint32_t)s->step_error_at)
		return -EIO;
	if (s->steps >= MAX_EVENTS)
		signals_request_stop(); /* a bound for a loop that never waits */
	return s->move_every && s->steps % s->move_every == 0;
}

static int scripted_wait(void *ctx, int timeout_ms)
{
	struct script *s = ctx;

	s->steps_at_wait[s->waits++] = s->steps;
	s->timeout_ms = timeout_ms;
	if (s->waits >= s->waits_before_stop)
		signals_request_stop();
	return s->wait_returns;
}

static int run_script(struct script *s)
{
	int err = run_steps_until_stopped(scripted_step, scripted_wait, s);

	ck_assert(signals_stop_requested());
	return err;
}

/*
 * 256 idle steps, then a wait of a bounded time; once waiting, every idle
 * step waits again (no new spin after a wait that saw nothing).
 */
START_TEST(waits_after_idle_steps)
{
	struct script s = { .wait_returns = 1, .waits_before_stop = 3 };

	ck_assert_int_eq(run_script(&s), 0);
	ck_assert_uint_eq(s.waits, 3);
	ck_assert_uint_eq(s.steps_at_wait[0], 256);
	ck_assert_uint_eq(s.steps_at_wait[1], 257);
	ck_assert_uint_eq(s.steps_at_wait[2], 258);
	ck_assert_int_gt(s.timeout_ms, 0);
	ck_assert_int_le(s.timeout_ms, 100);
}
END_TEST

/* A step that moved something starts the idle count again: with one in
 * every 200 steps moving, the worker never waits. */
START_TEST(moving_steps_never_wait)
{
	struct script s = { .move_every = 200,
			    .wait_returns = 1,
			    .waits_before_stop = 1 };

	ck_assert_int_eq(run_script(&s), 0);
	ck_assert_uint_eq(s.waits, 0);
	ck_assert_uint_eq(s.steps, MAX_EVENTS);
}
END_TEST

/* A wait that cannot block (0): the worker naps and keeps stepping, and
 * asks again on the next idle step. */
START_TEST(wait_that_cannot_block_naps_and_goes_on)
{
	struct script s = { .wait_returns = 0, .waits_before_stop = 5 };

	ck_assert_int_eq(run_script(&s), 0);
	ck_assert_uint_eq(s.waits, 5);
	ck_assert_uint_eq(s.steps_at_wait[4], 260);
}
END_TEST

/* No wait at all: the worker naps when idle and stops when asked. */
START_TEST(no_wait_naps)
{
	struct script s = { 0 };

	ck_assert_int_eq(run_steps_until_stopped(scripted_step, NULL, &s), 0);
	ck_assert_uint_eq(s.steps, MAX_EVENTS);
}
END_TEST

/* A failed wait ends the run with its error, and stops every thread. */
START_TEST(wait_error_stops)
{
	struct script s = { .wait_returns = -EINVAL, .waits_before_stop = 100 };

	ck_assert_int_eq(run_script(&s), -EINVAL);
	ck_assert_uint_eq(s.waits, 1);
}
END_TEST

/* A failed step likewise, before any wait. */
START_TEST(step_error_stops)
{
	struct script s = { .step_error_at = 10,
			    .wait_returns = 1,
			    .waits_before_stop = 100 };

	ck_assert_int_eq(run_script(&s), -EIO);
	ck_assert_uint_eq(s.steps, 10);
	ck_assert_uint_eq(s.waits, 0);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("run_loop");

	test_add_case(s, "waits_after_idle_steps", waits_after_idle_steps);
	test_add_case(s, "moving_steps_never_wait", moving_steps_never_wait);
	test_add_case(s, "wait_that_cannot_block_naps_and_goes_on",
		 wait_that_cannot_block_naps_and_goes_on);
	test_add_case(s, "no_wait_naps", no_wait_naps);
	test_add_case(s, "wait_error_stops", wait_error_stops);
	test_add_case(s, "step_error_stops", step_error_stops);
	return test_main(s, argc, argv);
}
