// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <xskx/xskx.h>

#include "api.h"

#define XSKX_STR2(x) #x
#define XSKX_STR(x) XSKX_STR2(x)

XSKX_API const char *xskx_version(void)
{
	return XSKX_STR(XSKX_VERSION_MAJOR) "." XSKX_STR(XSKX_VERSION_MINOR) "." XSKX_STR(XSKX_VERSION_PATCH);
}
