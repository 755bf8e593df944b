/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Options structs that can grow without breaking the ABI.
 *
 * Every xskx_*_opts struct starts with `size_t sz`, which the caller sets to
 * sizeof the struct it was compiled against. A newer library reads only the
 * first sz bytes and treats the rest as zero (the default); an older library
 * given a larger struct accepts it only if the unknown tail is all zero, and
 * otherwise fails with -E2BIG naming the struct. Zero always means "the
 * default", so
 *
 *	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = 8192);
 *
 * declares a struct with sz set, one field chosen and every other field at
 * its default.
 */
#ifndef XSKX_OPTS_H
#define XSKX_OPTS_H

#include <stddef.h>

#define XSKX_OPTS(TYPE, NAME, ...)                                             \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

#endif /* XSKX_OPTS_H */
