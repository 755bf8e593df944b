// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Command-line values for the example programs (see cli.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool cli_bad(const char *flag, const char *value, const char *expected)
{
	fprintf(stderr, "%s: %s %s: expected %s (see --help)\n",
		program_invocation_short_name, flag, value, expected);
	return false;
}

bool cli_parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max,
		   uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* Digits only: strtoull alone would take " 5", "+5" and "-5". */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || errno || *end || v < min || v > max) {
		char expected[64];

		snprintf(expected, sizeof(expected), "an integer in [%llu, %llu]",
			 (unsigned long long)min, (unsigned long long)max);
		return cli_bad(flag, s, expected);
	}
	*out = v;
	return true;
}

bool cli_parse_u32(const char *flag, const char *s, uint32_t min, uint32_t max,
		   uint32_t *out)
{
	uint64_t v;

	if (!cli_parse_u64(flag, s, min, max, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

bool cli_parse_seconds(const char *flag, const char *s, double *out)
{
	char *end;
	double v;

	/* Plain decimals only: strtod alone would take "0x1", " 1" and "1e0". */
	errno = 0;
	v = strtod(s, &end);
	if (!*s || strspn(s, "0123456789.") != strlen(s) || errno || *end ||
	    !(v > 0) || v > 1e6)
		return cli_bad(flag, s, "seconds in (0, 1000000]");
	*out = v;
	return true;
}

bool cli_parse_choice(const char *flag, const char *s,
		      const char *const *names, uint32_t n, uint32_t *out)
{
	char expected[128] = "";

	for (uint32_t i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return true;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s%s",
			 i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
	return cli_bad(flag, s, expected);
}
