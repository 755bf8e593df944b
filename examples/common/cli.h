/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Command-line values for the example programs, checked with one kind of
 * message on stderr: "PROGRAM: FLAG VALUE: expected WHAT (see --help)".
 * Each returns true, or false with the message printed.
 */
#ifndef XSKX_EXAMPLES_CLI_H
#define XSKX_EXAMPLES_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* Print the message for a VALUE FLAG does not accept; returns false. */
bool cli_bad(const char *flag, const char *value, const char *expected);

/* A decimal integer in [min, max]. */
bool cli_parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max,
		   uint64_t *out);
bool cli_parse_u32(const char *flag, const char *s, uint32_t min, uint32_t max,
		   uint32_t *out);

/* A duration in seconds, fractions allowed, in (0, 1000000]. */
bool cli_parse_seconds(const char *flag, const char *s, double *out);

/* One of names[0..n): *out is its index. */
bool cli_parse_choice(const char *flag, const char *s,
		      const char *const *names, uint32_t n, uint32_t *out);

#endif /* XSKX_EXAMPLES_CLI_H */
