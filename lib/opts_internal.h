/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Reading a caller's options struct whatever its sz (see xskx/opts.h). */
#ifndef XSKX_OPTS_INTERNAL_H
#define XSKX_OPTS_INTERNAL_H

#include <stddef.h>

/*
 * Copy the caller's opts (NULL: all defaults) into the zeroed *out of
 * out_size bytes. Returns 0, -EINVAL when sz is smaller than the sz field
 * itself, or -E2BIG when the caller's struct is larger and its unknown tail is
 * not all zero; both logged with the struct's name.
 */
int xskx__opts_copy(void *out, size_t out_size, const void *opts,
		    const char *type_name);

#define XSKX_OPTS_COPY(out, opts, type)                                        \
	xskx__opts_copy(out, sizeof(*(out)), opts, #type)

#endif /* XSKX_OPTS_INTERNAL_H */
