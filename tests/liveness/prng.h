/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small seeded generator (SplitMix64): the same seed gives the same
 * configuration and the same interleaving on every machine, so that a
 * failing seed reproduces exactly.
 */
#ifndef LV_PRNG_H
#define LV_PRNG_H

#include <stdbool.h>
#include <stdint.h>

struct lv_rng {
	uint64_t state;
};

static inline void lv_rng_seed(struct lv_rng *r, uint64_t seed)
{
	r->state = seed;
}

static inline uint64_t lv_next(struct lv_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (the modulo bias is irrelevant at these ranges). */
static inline uint32_t lv_range(struct lv_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(lv_next(r) % ((uint64_t)hi - lo + 1));
}

static inline bool lv_chance(struct lv_rng *r, uint32_t percent)
{
	return lv_range(r, 1, 100) <= percent;
}

/* 2^k for k uniform in [lo_log, hi_log]. */
static inline uint32_t lv_pow2(struct lv_rng *r, uint32_t lo_log,
			       uint32_t hi_log)
{
	return 1u << lv_range(r, lo_log, hi_log);
}

static inline uint32_t lv_log2(uint32_t n)
{
	return 31 - (uint32_t)__builtin_clz(n);
}

/*
 * In [lo, hi] (lo >= 1), uniform in its logarithm: small values, where the
 * corner cases are (rings of one or two entries, a budget of one), come up
 * as often as large ones.
 */
static inline uint32_t lv_log_range(struct lv_rng *r, uint32_t lo, uint32_t hi)
{
	uint32_t k = lv_range(r, lv_log2(lo), lv_log2(hi));
	uint32_t from = 1u << k;
	uint32_t to = k < 31 ? (2u << k) - 1 : UINT32_MAX;

	return lv_range(r, from > lo ? from : lo, to < hi ? to : hi);
}

#endif /* LV_PRNG_H */
