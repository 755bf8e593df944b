// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading a caller's options struct whatever its sz (see xskx/opts.h). */
#include <errno.h>
#include <string.h>

#include "sim_internal.h"

int sim_opts_copy(void *out, size_t out_size, const void *opts,
		  const char *type_name)
{
	const unsigned char *in = opts;
	size_t sz;

	memset(out, 0, out_size);
	if (!opts)
		return 0;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(sz))
		return sim_api_fail(
			-EINVAL,
			"struct %s: sz %zu is smaller than the sz field; set it to sizeof(struct %s)",
			type_name, sz, type_name);
	if (sz > out_size) {
		for (size_t i = out_size; i < sz; i++)
			if (in[i])
				return sim_api_fail(
					-E2BIG,
					"struct %s: this library knows %zu bytes of it, and byte %zu of the caller's %zu is set",
					type_name, out_size, i, sz);
		sz = out_size;
	}
	memcpy(out, opts, sz);
	return 0;
}
