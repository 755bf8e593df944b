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
 * its default. The macro zeroes the whole struct first, padding included:
 * a library that knows fields the caller's header did not have finds zero
 * in their place, even where they took the place of padding.
 *
 * Each options struct names its last field in TYPE__last_field: the library
 * checks that every byte the caller gave past the end of that field is zero
 * (-E2BIG otherwise). Build options with XSKX_OPTS, or memset and fill them
 * in place: a struct returned or assigned by value may carry whatever its
 * padding held.
 */
#ifndef XSKX_OPTS_H
#define XSKX_OPTS_H

#include <stddef.h>
#include <string.h>

#define XSKX_OPTS(TYPE, NAME, ...)                                             \
	struct TYPE NAME = ({                                                  \
		memset(&NAME, 0, sizeof(struct TYPE));                         \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };       \
	})

#endif /* XSKX_OPTS_H */
