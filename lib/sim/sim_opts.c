// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading a caller's options struct whatever its sz (see xskx/opts.h). */
#include "../opts_copy.h"
#include "sim_internal.h"

int sim_opts_copy(void *out, size_t out_size, const void *opts,
		  const char *type_name)
{
	size_t sz;
	int err = xskx_opts_copy_raw(out, out_size, opts, &sz);

	if (err == -EINVAL)
		return sim_api_fail(
			err,
			"struct %s: sz %zu is smaller than the sz field; set it to sizeof(struct %s)",
			type_name, sz, type_name);
	if (err == -E2BIG)
		return sim_api_fail(
			err,
			"struct %s: this library knows %zu bytes of it and the caller's %zu has a non-zero tail",
			type_name, out_size, sz);
	return 0;
}
