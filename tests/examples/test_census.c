// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * "frames_accounted", as the three programs' summaries report it
 * (examples/common/census.c): a real UMEM's census with frames in the pool
 * and held, then given back twice; and the judgment of a census that finds
 * a frame missing or one counted twice.
 */
#include "census.h"
#include "helpers.h"

START_TEST(umem_frames_held_and_given_back_twice)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 64);
	struct xskx_umem *umem;
	uint64_t addrs[4];

	ck_assert_int_eq(xskx_umem_create(&umem, &opts), 0);
	ck_assert(census_umem_accounted(umem));
	ck_assert_uint_eq(xskx_frame_alloc(umem, addrs, 4), 4);
	/* Held by the application: in one place all the same. */
	ck_assert(census_umem_accounted(umem));
	ck_assert_int_eq(xskx_frame_free(umem, addrs, 4), 0);
	ck_assert(census_umem_accounted(umem));
	/* Given back again: the census counts it, the run is not accounted. */
	xskx_frame_free(umem, addrs, 1);
	ck_assert(!census_umem_accounted(umem));
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(missing_or_twice_counted_frames)
{
	struct xskx_frame_census c = { .pool = 60, .app = 4, .total = 64 };

	ck_assert(census_accounted(&c));
	c.unaccounted = 1; /* found nowhere */
	ck_assert(!census_accounted(&c));
	c.unaccounted = -1; /* counted twice */
	ck_assert(!census_accounted(&c));
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("census");
	TCase *umem = tcase_create("umem_frames_held_and_given_back_twice");
	TCase *judged = tcase_create("missing_or_twice_counted_frames");

	tcase_add_test(umem, umem_frames_held_and_given_back_twice);
	tcase_add_test(judged, missing_or_twice_counted_frames);
	suite_add_tcase(s, umem);
	suite_add_tcase(s, judged);
	return test_main(s, argc, argv);
}
