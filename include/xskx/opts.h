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
 *
 * Each options struct names its last field in TYPE__last_field. A struct
 * grows only past that field, never into padding between fields, so the
 * bytes that matter are the fields and what follows the last one: the
 * library checks that every byte the caller gave past the end of the last
 * field it knows is zero (-E2BIG otherwise). XSKX_OPTS zeroes the whole
 * struct and copies in no more than the fields, so that the tail padding a
 * newer field may take is zero even when every field is named (a compound
 * literal's padding is whatever the stack held). Build options with
 * XSKX_OPTS, or memset and fill them in place: a struct returned or
 * assigned by value may carry whatever its padding held.
 */
#ifndef XSKX_OPTS_H
#define XSKX_OPTS_H

#include <stddef.h>
#include <string.h>

/* The end of TYPE's last field: where padding, and newer fields, start. */
#define XSKX_OPTS_END(TYPE)                                                    \
	(offsetof(struct TYPE, TYPE##__last_field) +                           \
	 sizeof(((struct TYPE *)0)->TYPE##__last_field))

#define XSKX_OPTS(TYPE, NAME, ...)                                             \
	struct TYPE NAME = ({                                                  \
		struct TYPE xskx_opts_fields__ = {                             \
			.sz = sizeof(struct TYPE), __VA_ARGS__                 \
		};                                                             \
		memset(&NAME, 0, sizeof(struct TYPE));                         \
		memcpy(&NAME, &xskx_opts_fields__, XSKX_OPTS_END(TYPE));       \
		NAME;                                                          \
	})

#endif /* XSKX_OPTS_H */
