// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading options structs of any size (see xskx/opts.h). */
#include "log_internal.h"
#include "opts_copy.h"
#include "opts_internal.h"

int xskx_opts_copy(void *out, size_t out_size, const void *opts,
		   const char *type_name)
{
	size_t sz;
	int err = xskx_opts_copy_raw(out, out_size, opts, &sz);

	if (err == -EINVAL)
		return xskx_fail(err,
				 "struct %s: sz is %zu; set it to sizeof(struct %s) (use XSKX_OPTS)",
				 type_name, sz, type_name);
	if (err == -E2BIG)
		return xskx_fail(err,
				 "struct %s: %zu bytes given, this library knows %zu and the rest is not zero; link a newer libxskx",
				 type_name, sz, out_size);
	return 0;
}
