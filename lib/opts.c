// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading options structs of any size (see xskx/opts.h). */
#include <errno.h>
#include <string.h>

#include "api.h"
#include "log_internal.h"
#include "opts_internal.h"

XSKX_BACKEND_API int xskx__opts_copy(void *out, size_t out_size,
				     size_t known_size, const void *opts,
				     const char *type_name)
{
	const unsigned char *in = opts;
	size_t sz;

	memset(out, 0, out_size);
	if (!opts)
		return 0;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(sz))
		return xskx__fail(-EINVAL,
				  "struct %s: sz is %zu; set it to sizeof(struct %s) (use XSKX_OPTS)",
				  type_name, sz, type_name);
	for (size_t i = known_size; i < sz; i++)
		if (in[i])
			return xskx__fail(-E2BIG,
					  "struct %s: %zu bytes given, this library knows %zu and byte %zu is not zero; link a newer libxskx, or zero the struct (XSKX_OPTS)",
					  type_name, sz, known_size, i);
	memcpy(out, opts, sz < known_size ? sz : known_size);
	return 0;
}

XSKX_BACKEND_API void xskx__out_copy(void *out, size_t out_size,
				     const void *full, size_t full_size)
{
	if (out_size <= full_size) {
		memcpy(out, full, out_size);
		return;
	}
	memcpy(out, full, full_size);
	memset((unsigned char *)out + full_size, 0, out_size - full_size);
}
