// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * No lost wakeup, ever (issue 4): on the simulated NIC in deterministic
 * mode, seeded random configurations and interleavings of the burst API
 * and the NIC's work, with the frame census and every packet accounted for
 * after every step, and a drain that must end (run.c).
 *
 *   test_lost_wakeup FIXED_SEEDS     seeds 1..LV_FIXED_SEEDS
 *   test_lost_wakeup RANDOM_SEEDS    fresh seeds for a few seconds
 *   test_lost_wakeup --seed N        one seed, as a failure message says
 *   test_lost_wakeup --seeds N COUNT seeds N..N+COUNT-1
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "run.h"
#include "world.h"

#define LV_FIXED_SEEDS 1500u
/* Fresh seeds: at most this many, for at most this long. */
#define LV_RANDOM_SEEDS_MAX 5000u
#define LV_RANDOM_SECONDS 2.5
#define LV_CASE_TIMEOUT_S 240

static uint64_t chosen_first, chosen_count;

struct totals {
	uint64_t seeds, steps, packets;
	double worst_drain; /* drain steps / bound, the largest seen */
	uint64_t worst_seed;
};

static void run_one(uint64_t seed, struct totals *t)
{
	struct lv_result r;
	double used;

	lv_run_seed(seed, &r);
	used = (double)r.drain_steps / (double)r.drain_bound;
	t->seeds++;
	t->steps += r.steps + r.drain_steps;
	t->packets += r.packets;
	if (used > t->worst_drain || t->seeds == 1) {
		t->worst_drain = used;
		t->worst_seed = seed;
	}
}

static void report(const char *what, const struct totals *t)
{
	printf("%s: %llu seeds, %llu steps, %llu packets; the slowest drain (seed %llu) used %.0f%% of its bound\n",
	       what, (unsigned long long)t->seeds, (unsigned long long)t->steps,
	       (unsigned long long)t->packets,
	       (unsigned long long)t->worst_seed, 100.0 * t->worst_drain);
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

START_TEST(fixed_seeds)
{
	struct totals t = { 0 };

	for (uint64_t seed = 1; seed <= LV_FIXED_SEEDS; seed++)
		run_one(seed, &t);
	report("fixed seeds", &t);
}
END_TEST

START_TEST(random_seeds)
{
	struct lv_rng r;
	struct timespec start;
	struct totals t = { 0 };

	clock_gettime(CLOCK_MONOTONIC, &start);
	lv_rng_seed(&r, (uint64_t)start.tv_nsec ^
				((uint64_t)start.tv_sec << 32) ^
				(uint64_t)getpid());
	for (uint32_t i = 0; i < LV_RANDOM_SEEDS_MAX &&
			     seconds_since(&start) < LV_RANDOM_SECONDS;
	     i++) {
		uint64_t seed = lv_next(&r);

		/* Unbuffered: names the seed even if it crashes the program. */
		fprintf(stderr, "seed %llu\n", (unsigned long long)seed);
		run_one(seed, &t);
	}
	report("random seeds", &t);
}
END_TEST

START_TEST(chosen_seeds)
{
	struct totals t = { 0 };

	for (uint64_t i = 0; i < chosen_count; i++)
		run_one(chosen_first + i, &t);
	report("chosen seeds", &t);
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, LV_CASE_TIMEOUT_S);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

/* The suite: the two CTest cases, or the seeds named on the command line. */
static Suite *lost_wakeup_suite(void)
{
	Suite *s = suite_create("lost_wakeup");

	if (chosen_count) {
		add_case(s, "CHOSEN_SEEDS", chosen_seeds);
		return s;
	}
	add_case(s, "FIXED_SEEDS", fixed_seeds);
	add_case(s, "RANDOM_SEEDS", random_seeds);
	return s;
}

static bool parse_u64(const char *arg, uint64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoull(arg, &end, 0);
	return !errno && *arg && !*end;
}

int main(int argc, char **argv)
{
	char *only[] = { argv[0], "CHOSEN_SEEDS", NULL };

	lv_program = argv[0];
	if (argc == 3 && !strcmp(argv[1], "--seed") &&
	    parse_u64(argv[2], &chosen_first)) {
		chosen_count = 1;
		return test_main(lost_wakeup_suite(), 2, only);
	}
	if (argc == 4 && !strcmp(argv[1], "--seeds") &&
	    parse_u64(argv[2], &chosen_first) &&
	    parse_u64(argv[3], &chosen_count) && chosen_count)
		return test_main(lost_wakeup_suite(), 2, only);
	if (argc > 1 && argv[1][0] == '-') {
		fprintf(stderr,
			"usage: %s [FIXED_SEEDS | RANDOM_SEEDS | --seed N | --seeds N COUNT]\n",
			argv[0]);
		return EXIT_FAILURE;
	}
	return test_main(lost_wakeup_suite(), argc, argv);
}
