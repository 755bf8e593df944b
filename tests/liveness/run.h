/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* One seed's run: the random phase, then the drain. */
#ifndef LV_RUN_H
#define LV_RUN_H

#include <stdint.h>

struct lv_result {
	uint64_t steps;	      /* random-phase steps */
	uint64_t drain_steps; /* drain steps until nothing was left */
	uint64_t drain_bound; /* the most it was allowed */
	uint64_t packets;     /* injected or built */
};

/*
 * Draw the configuration of seed, run it, and check every invariant after
 * every step and that the drain ends within its bound. Fails the test with
 * the seed and how to rerun it.
 */
void lv_run_seed(uint64_t seed, struct lv_result *result);

#endif /* LV_RUN_H */
