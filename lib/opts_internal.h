/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Options structs read whatever their sz (see xskx/opts.h), and output
 * structs written whatever size the caller knows.
 */
#ifndef XSKX_OPTS_INTERNAL_H
#define XSKX_OPTS_INTERNAL_H

#include <stddef.h>
#include <xskx/opts.h>

/*
 * Copy the caller's opts (NULL: all defaults) into the zeroed *out of
 * out_size bytes, of which the library knows the first known_size (up to
 * the end of the last field: what follows is padding). Returns 0, -EINVAL
 * when sz is smaller than the sz field itself, or -E2BIG when the caller's
 * struct has a non-zero byte past known_size; both logged with the struct's
 * name.
 */
int xskx__opts_copy(void *out, size_t out_size, size_t known_size,
		    const void *opts, const char *type_name);

/*
 * Hand an output struct (statistics, census, info) to a caller that knows
 * out_size bytes of it: the first out_size bytes of full, and zeroes past
 * full_size when the caller's struct is newer than the library.
 */
void xskx__out_copy(void *out, size_t out_size, const void *full,
		    size_t full_size);

#define XSKX_OPTS_COPY(out, opts, type)                                        \
	xskx__opts_copy(out, sizeof(*(out)), XSKX_OPTS_END(type), opts,        \
			#type)

#endif /* XSKX_OPTS_INTERNAL_H */
