// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * UMEM creation: every registration rule of the kernel (KERNEL_RULES.md,
 * "UMEM registration") and of xskx's options structs, each failing with its
 * errno and exactly one log message that names the field; the accepted
 * configurations; and the frame size chosen for an MTU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static uint32_t page_size(void)
{
	return (uint32_t)sysconf(_SC_PAGESIZE);
}

/*
 * xskx_umem_create(opts) fails with err, logs one message, and
 * xskx_last_error() names field and shows value (NULL: not checked).
 */
static void expect_umem_error(const struct xskx_umem_opts *opts, int err,
			      const char *field, const char *value)
{
	struct xskx_umem *umem = NULL;
	int ret;

	test_log_reset();
	ret = xskx_umem_create(&umem, opts);
	if (!ret)
		xskx_umem_destroy(umem);
	ck_assert_msg(ret == err, "expected %d (%s) for a bad %s, got %d (%s)",
		      err, xskx_strerror(err), field, ret, xskx_strerror(ret));
	ck_assert_msg(strstr(xskx_last_error(), field),
		      "the error message does not name %s: \"%s\"", field,
		      xskx_last_error());
	if (value)
		ck_assert_msg(
			strstr(xskx_last_error(), value),
			"the error message does not show the value %s: \"%s\"",
			value, xskx_last_error());
	ck_assert_msg(test_log_count() == 1,
		      "a bad %s logged %u messages, expected one", field,
		      test_log_count());
}

static struct xskx_umem *expect_umem_ok(const struct xskx_umem_opts *opts)
{
	struct xskx_umem *umem = NULL;
	int ret = xskx_umem_create(&umem, opts);

	ck_assert_msg(ret == 0, "xskx_umem_create failed: %d (%s): %s", ret,
		      xskx_strerror(ret), xskx_last_error());
	ck_assert_ptr_nonnull(umem);
	return umem;
}

static void setup(void)
{
	test_log_capture();
}

static void teardown(void)
{
	xskx_set_log(NULL, NULL);
}

START_TEST(defaults)
{
	struct xskx_umem *umem = expect_umem_ok(NULL);

	ck_assert_uint_eq(xskx_umem_frame_count(umem),
			  XSKX_UMEM_DEFAULT_FRAME_COUNT);
	ck_assert_uint_eq(xskx_umem_frame_size(umem),
			  XSKX_UMEM_DEFAULT_FRAME_SIZE);
	ck_assert_uint_eq(xskx_umem_headroom(umem), 0);
	ck_assert_uint_eq(xskx_umem_size(umem),
			  (uint64_t)XSKX_UMEM_DEFAULT_FRAME_COUNT *
				  XSKX_UMEM_DEFAULT_FRAME_SIZE);
	ck_assert_uint_eq((uintptr_t)xskx_umem_area(umem) % page_size(), 0);
	ck_assert_uint_eq(xskx_umem_pool_count(umem),
			  XSKX_UMEM_DEFAULT_FRAME_COUNT);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(library_area_is_zeroed_and_sized)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 64, .frame_size = 2048,
		  .headroom = 128);
	struct xskx_umem *umem = expect_umem_ok(&opts);
	const uint8_t *area = xskx_umem_area(umem);

	ck_assert_uint_eq(xskx_umem_size(umem), 64 * 2048);
	ck_assert_uint_eq(xskx_umem_headroom(umem), 128);
	for (uint64_t i = 0; i < xskx_umem_size(umem); i += 509)
		ck_assert_uint_eq(area[i], 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(frame_size_below_2048)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 16, .frame_size = 1024);

	expect_umem_error(&opts, -EINVAL, "frame_size", "1024");
	opts.frame_size = 2047;
	expect_umem_error(&opts, -EINVAL, "frame_size", "2047");
}
END_TEST

START_TEST(frame_size_above_page_size)
{
	char value[16];
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 16,
		  .frame_size = 2 * page_size());

	snprintf(value, sizeof(value), "%u", 2 * page_size());
	expect_umem_error(&opts, -EINVAL, "frame_size", value);
	opts.flags = XSKX_UMEM_UNALIGNED;
	expect_umem_error(&opts, -EINVAL, "frame_size", value);
}
END_TEST

START_TEST(frame_size_power_of_two_only_when_aligned)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 16, .frame_size = 3000);
	struct xskx_umem *umem;

	expect_umem_error(&opts, -EINVAL, "frame_size", "3000");

	opts.flags = XSKX_UMEM_UNALIGNED;
	umem = expect_umem_ok(&opts);
	ck_assert_uint_eq(xskx_umem_frame_size(umem), 3000);
	ck_assert_uint_eq(xskx_umem_frame_count(umem), 16);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(frame_sizes_in_range_are_accepted)
{
	uint32_t sizes[] = { 2048, page_size() };

	for (unsigned int i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8,
			  .frame_size = sizes[i]);
		struct xskx_umem *umem = expect_umem_ok(&opts);

		ck_assert_uint_eq(xskx_umem_frame_size(umem), sizes[i]);
		ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	}
}
END_TEST

START_TEST(caller_area_must_be_page_aligned)
{
	uint8_t *mem = aligned_alloc(page_size(), 17 * (size_t)page_size());
	XSKX_OPTS(xskx_umem_opts, opts, .area = mem + 64,
		  .size = 16 * (uint64_t)page_size(),
		  .frame_size = page_size());

	ck_assert_ptr_nonnull(mem);
	expect_umem_error(&opts, -EINVAL, "area", NULL);
	free(mem);
}
END_TEST

START_TEST(caller_area_size_multiple_of_frame_when_aligned)
{
	uint8_t *mem = aligned_alloc(page_size(), 17 * (size_t)page_size());
	XSKX_OPTS(xskx_umem_opts, opts, .area = mem,
		  .size = 16 * (uint64_t)page_size() + 2048,
		  .frame_size = page_size());
	struct xskx_umem *umem;

	ck_assert_ptr_nonnull(mem);
	expect_umem_error(&opts, -EINVAL, "size", NULL);

	opts.flags = XSKX_UMEM_UNALIGNED;
	umem = expect_umem_ok(&opts);
	ck_assert_uint_eq(xskx_umem_frame_count(umem), 16);
	ck_assert_ptr_eq(xskx_umem_area(umem), mem);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	free(mem);
}
END_TEST

START_TEST(caller_area_sets_the_frame_count)
{
	uint8_t *mem = aligned_alloc(page_size(), 16 * (size_t)page_size());
	XSKX_OPTS(xskx_umem_opts, opts, .area = mem,
		  .size = 16 * (uint64_t)page_size(), .frame_size = 2048);
	struct xskx_umem *umem;

	ck_assert_ptr_nonnull(mem);
	umem = expect_umem_ok(&opts);
	ck_assert_uint_eq(xskx_umem_frame_count(umem), 16 * page_size() / 2048);
	ck_assert_ptr_eq(xskx_umem_area(umem), mem);
	ck_assert_uint_eq(xskx_umem_size(umem), 16 * (uint64_t)page_size());
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);

	opts.frame_count = 8;
	expect_umem_error(&opts, -EINVAL, "frame_count", NULL);

	opts.frame_count = 0;
	opts.size = 0;
	expect_umem_error(&opts, -EINVAL, "size", NULL);
	free(mem);
}
END_TEST

/*
 * The kernel's bound, measured on 6.18.44 and 7.3.4
 * (scripts/umem-headroom-probe.py): at most the frame less 704 bytes.
 */
START_TEST(headroom_at_most_frame_minus_704)
{
	uint32_t limit = 2048 - 704;
	char value[16];
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8, .frame_size = 2048,
		  .headroom = limit + 1);
	struct xskx_umem *umem;

	snprintf(value, sizeof(value), "%u", limit + 1);
	expect_umem_error(&opts, -EINVAL, "headroom", value);

	opts.headroom = limit;
	umem = expect_umem_ok(&opts);
	ck_assert_uint_eq(xskx_umem_headroom(umem), limit);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(ring_sizes_power_of_two_zero_is_default)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8, .fill_size = 1000);
	struct xskx_umem *umem;

	expect_umem_error(&opts, -EINVAL, "fill_size", "1000");
	opts.fill_size = 0;
	opts.comp_size = 3;
	expect_umem_error(&opts, -EINVAL, "comp_size", "3");

	opts.comp_size = 0; /* both at XSKX_RING_DEFAULT_SIZE */
	umem = expect_umem_ok(&opts);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);

	opts.fill_size = 64;
	opts.comp_size = 4096;
	umem = expect_umem_ok(&opts);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

START_TEST(unknown_flags)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8, .flags = 1u << 5);

	expect_umem_error(&opts, -EINVAL, "flags", NULL);
}
END_TEST

/* A caller compiled against a newer xskx whose opts struct grew a field. */
struct newer_umem_opts {
	struct xskx_umem_opts known;
	uint64_t future_field;
};

START_TEST(opts_with_unknown_tail)
{
	struct newer_umem_opts newer;
	struct xskx_umem *umem;

	memset(&newer, 0, sizeof(newer));
	newer.known.sz = sizeof(newer);
	newer.known.frame_count = 8;
	newer.future_field = 1;
	expect_umem_error(&newer.known, -E2BIG, "xskx_umem_opts", NULL);

	newer.future_field = 0;
	umem = expect_umem_ok(&newer.known);
	ck_assert_uint_eq(xskx_umem_frame_count(umem), 8);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

/* Fill the stack a callee will use with non-zero bytes. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile unsigned char junk[4096];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

/*
 * Every field named: the compound literal's tail padding is whatever the
 * stack held, and XSKX_OPTS must still hand over a struct whose bytes past
 * the last field are zero (the library refuses them otherwise).
 */
static __attribute__((noinline)) int sim_opts_every_field_named(void)
{
	XSKX_OPTS(xskx_sim_opts, o, .mode = XSKX_SIM_DETERMINISTIC,
		  .cpu_plus_one = 0, .busy_poll = false);
	const unsigned char *bytes = (const unsigned char *)&o;
	struct xskx_sim *sim = NULL;
	int err;

	for (size_t i = XSKX_OPTS_END(xskx_sim_opts); i < sizeof(o); i++)
		ck_assert_msg(!bytes[i], "byte %zu of the tail padding is 0x%02x",
			      i, bytes[i]);
	err = xskx_sim_create(&sim, &o);
	if (!err)
		xskx_sim_destroy(sim);
	return err;
}

START_TEST(opts_every_field_named)
{
	ck_assert_uint_gt(sizeof(struct xskx_sim_opts),
			  XSKX_OPTS_END(xskx_sim_opts));
	dirty_stack();
	ck_assert_msg(!sim_opts_every_field_named(), "%s", xskx_last_error());
}
END_TEST

START_TEST(opts_with_bad_sz)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8);

	opts.sz = 2;
	expect_umem_error(&opts, -EINVAL, "xskx_umem_opts", NULL);
}
END_TEST

START_TEST(frame_size_for_mtu_1500_is_two_per_page)
{
	uint32_t fs = xskx_frame_size_for_mtu(1500, 0);

	ck_assert_uint_eq(fs, 2048);
	ck_assert_uint_eq(4096 / fs, 2);
}
END_TEST

START_TEST(frame_size_for_mtu_3000_is_4096)
{
	ck_assert_uint_eq(xskx_frame_size_for_mtu(3000, 0), 4096);
}
END_TEST

START_TEST(frame_size_for_mtu_9000_needs_multi_buffer)
{
	/* Only where a page cannot hold it: 4 KiB pages, not arm64's 16/64 KiB. */
	ck_assert_uint_eq(xskx_frame_size_for_mtu(9000, 0),
			  page_size() >= 16384 ? 16384 : 0);
}
END_TEST

START_TEST(frame_size_for_mtu_counts_headroom)
{
	/* 1500 bytes fit a 2048 frame only with little extra headroom. */
	ck_assert_uint_eq(xskx_frame_size_for_mtu(1500, 128), 2048);
	ck_assert_uint_eq(xskx_frame_size_for_mtu(1500, 512), 4096);
}
END_TEST

START_TEST(frame_size_for_mtu_grows_in_powers_of_two)
{
	uint32_t prev = 2048;

	for (uint32_t mtu = 68; mtu <= 9000; mtu++) {
		uint32_t fs = xskx_frame_size_for_mtu(mtu, 0);

		if (!fs) {
			prev = 0;
			continue;
		}
		ck_assert_msg(prev,
			      "mtu %u fits a frame after a smaller MTU did not",
			      mtu);
		ck_assert_msg(fs >= prev && !(fs & (fs - 1)) &&
				      fs <= page_size(),
			      "mtu %u: frame size %u after %u", mtu, fs, prev);
		ck_assert_msg(fs >= XSKX_XDP_PACKET_HEADROOM + 14 + mtu,
			      "mtu %u does not fit its frame size %u", mtu, fs);
		prev = fs;
	}
}
END_TEST

START_TEST(max_mtu_matches_frame_size_for_mtu)
{
	uint32_t headrooms[] = { 0, 256 };

	for (unsigned int i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8,
			  .frame_size = 2048, .headroom = headrooms[i]);
		struct xskx_umem *umem = expect_umem_ok(&opts);
		uint32_t mtu = xskx_umem_max_mtu(umem);

		ck_assert_uint_gt(mtu, 0);
		ck_assert_uint_eq(xskx_frame_size_for_mtu(mtu, headrooms[i]),
				  2048);
		ck_assert_uint_ne(
			xskx_frame_size_for_mtu(mtu + 1, headrooms[i]), 2048);
		ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	}
}
END_TEST

static Suite *umem_suite(void)
{
	Suite *s = suite_create("umem");
	TCase *create = tcase_create("create");
	TCase *rules = tcase_create("rules");
	TCase *mtu = tcase_create("mtu");

	tcase_add_checked_fixture(create, setup, teardown);
	tcase_add_test(create, defaults);
	tcase_add_test(create, library_area_is_zeroed_and_sized);
	tcase_add_test(create, frame_sizes_in_range_are_accepted);
	tcase_add_test(create, caller_area_sets_the_frame_count);
	suite_add_tcase(s, create);

	tcase_add_checked_fixture(rules, setup, teardown);
	tcase_add_test(rules, frame_size_below_2048);
	tcase_add_test(rules, frame_size_above_page_size);
	tcase_add_test(rules, frame_size_power_of_two_only_when_aligned);
	tcase_add_test(rules, caller_area_must_be_page_aligned);
	tcase_add_test(rules, caller_area_size_multiple_of_frame_when_aligned);
	tcase_add_test(rules, headroom_at_most_frame_minus_704);
	tcase_add_test(rules, ring_sizes_power_of_two_zero_is_default);
	tcase_add_test(rules, unknown_flags);
	tcase_add_test(rules, opts_with_unknown_tail);
	tcase_add_test(rules, opts_with_bad_sz);
	tcase_add_test(rules, opts_every_field_named);
	suite_add_tcase(s, rules);

	tcase_add_checked_fixture(mtu, setup, teardown);
	tcase_add_test(mtu, frame_size_for_mtu_1500_is_two_per_page);
	tcase_add_test(mtu, frame_size_for_mtu_3000_is_4096);
	tcase_add_test(mtu, frame_size_for_mtu_9000_needs_multi_buffer);
	tcase_add_test(mtu, frame_size_for_mtu_counts_headroom);
	tcase_add_test(mtu, frame_size_for_mtu_grows_in_powers_of_two);
	tcase_add_test(mtu, max_mtu_matches_frame_size_for_mtu);
	suite_add_tcase(s, mtu);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(umem_suite(), argc, argv);
}
