// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_prefix_parse() and xskx_prefix_format(): what a rule file may say,
 * every way it may say it wrong (-EINVAL with a message quoting the text),
 * and the round trip.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "helpers.h"

START_TEST(good_prefixes)
{
	static const struct {
		const char *text;
		uint8_t family, len;
		uint8_t addr[16];
		const char *formatted;
	} good[] = {
		{ "192.0.2.0/24", AF_INET, 24, { 192, 0, 2 }, "192.0.2.0/24" },
		{ "10.1.2.3", AF_INET, 32, { 10, 1, 2, 3 }, "10.1.2.3/32" },
		{ "0.0.0.0/0", AF_INET, 0, { 0 }, "0.0.0.0/0" },
		{ "10.128.0.0/9", AF_INET, 9, { 10, 128 }, "10.128.0.0/9" },
		{ "2001:db8::/32",
		  AF_INET6,
		  32,
		  { 0x20, 0x01, 0x0d, 0xb8 },
		  "2001:db8::/32" },
		{ "::/0", AF_INET6, 0, { 0 }, "::/0" },
		{ "2001:DB8::1",
		  AF_INET6,
		  128,
		  { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		  "2001:db8::1/128" },
		{ "::ffff:10.0.0.0/104",
		  AF_INET6,
		  104,
		  { [10] = 0xff, [11] = 0xff, [12] = 10 },
		  "::ffff:10.0.0.0/104" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct xskx_prefix p, again;
		char text[64];

		memset(&p, 0xa5, sizeof(p));
		ck_assert_msg(!xskx_prefix_parse(good[i].text, &p), "%s: %s",
			      good[i].text, xskx_last_error());
		ck_assert_uint_eq(p.family, good[i].family);
		ck_assert_uint_eq(p.len, good[i].len);
		ck_assert_mem_eq(p.addr, good[i].addr, 16);
		ck_assert_int_eq(xskx_prefix_format(&p, text, sizeof(text)),
				 (int)strlen(good[i].formatted));
		ck_assert_str_eq(text, good[i].formatted);
		ck_assert_int_eq(xskx_prefix_parse(text, &again), 0);
		ck_assert_mem_eq(&again, &p, sizeof(p));
	}
}
END_TEST

START_TEST(bad_prefixes)
{
	static const char *const bad[] = {
		"10.1.2.3/8",	  /* host bits set */
		"2001:db8::1/32", /* likewise */
		"10.0.0.0/33",
		"::/129",
		"",
		"/8",
		"10.0.0.0/",
		"10.0.0.0/08",
		"10.0.0.0/+8",
		"10.0.0.0/ 8",
		"10.0.0.0/8 ",
		" 10.0.0.0/8",
		"10.0.0/8",
		"1.2.3.4.5",
		"256.0.0.0",
		"fe80::1%eth0",
		"2001:db8::/32x",
		"10.0.0.0/8/8",
		"10.0.0.0/-1",
		"2001:db8::/1000",
		"host.example",
		":::/0",
	};
	struct xskx_prefix p, untouched;

	memset(&p, 0x5a, sizeof(p));
	untouched = p;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(xskx_prefix_parse(bad[i], &p) == -EINVAL,
			      "'%s' was accepted", bad[i]);
		ck_assert_msg(strstr(xskx_last_error(), bad[i]),
			      "the message for '%s' does not quote it: %s",
			      bad[i], xskx_last_error());
		ck_assert_mem_eq(&p, &untouched, sizeof(p));
	}
	ck_assert_int_eq(xskx_prefix_parse(NULL, &p), -EINVAL);
	ck_assert_int_eq(xskx_prefix_parse("10.0.0.0/8", NULL), -EINVAL);
}
END_TEST

START_TEST(format_errors)
{
	struct xskx_prefix p;
	char text[64];

	ck_assert_int_eq(xskx_prefix_parse("192.0.2.0/24", &p), 0);
	/* "192.0.2.0/24" is 12 characters and its terminator. */
	ck_assert_int_eq(xskx_prefix_format(&p, text, 13), 12);
	ck_assert_int_eq(xskx_prefix_format(&p, text, 12), -ENOSPC);
	ck_assert_int_eq(xskx_prefix_format(&p, NULL, 0), -ENOSPC);

	p.family = 99;
	ck_assert_int_eq(xskx_prefix_format(&p, text, sizeof(text)), -EINVAL);
	ck_assert_int_eq(xskx_prefix_parse("192.0.2.0/24", &p), 0);
	p.len = 33;
	ck_assert_int_eq(xskx_prefix_format(&p, text, sizeof(text)), -EINVAL);
	p.len = 16;
	ck_assert_int_eq(xskx_prefix_format(&p, text, sizeof(text)), -EINVAL);
	ck_assert_int_eq(xskx_prefix_format(NULL, text, sizeof(text)), -EINVAL);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("prefix");
	TCase *tc;

	test_log_capture();
	tc = tcase_create("good_prefixes");
	tcase_add_test(tc, good_prefixes);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad_prefixes");
	tcase_add_test(tc, bad_prefixes);
	suite_add_tcase(s, tc);
	tc = tcase_create("format_errors");
	tcase_add_test(tc, format_errors);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
