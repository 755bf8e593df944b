/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The rule of xskx/opts.h, once, for lib/ and lib/sim/ alike (libc only):
 * copy the caller's options struct, whatever its sz, into a zeroed *out.
 * Callers word their own message around the result.
 */
#ifndef XSKX_OPTS_COPY_H
#define XSKX_OPTS_COPY_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

/*
 * Returns 0 (opts NULL: all defaults), -EINVAL when sz is smaller than the
 * sz field itself, or -E2BIG when the caller's struct is larger than out and
 * its unknown tail is not all zero. *sz is the caller's sz.
 */
static inline int xskx_opts_copy_raw(void *out, size_t out_size,
				     const void *opts, size_t *sz)
{
	const unsigned char *in = opts;

	memset(out, 0, out_size);
	*sz = 0;
	if (!opts)
		return 0;
	memcpy(sz, opts, sizeof(*sz));
	if (*sz < sizeof(*sz))
		return -EINVAL;
	for (size_t i = out_size; i < *sz; i++)
		if (in[i])
			return -E2BIG;
	memcpy(out, opts, *sz < out_size ? *sz : out_size);
	return 0;
}

#endif /* XSKX_OPTS_COPY_H */
