/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A program built against an installed xskx by scripts/check-install.sh: it
 * compiles against the installed headers (which pull in libxdp's ring ABI),
 * links, loads, and checks it got the library it was built for.
 */
#include <stdio.h>
#include <string.h>
#include <xskx/xskx.h>

#define STR(x) #x
#define VERSION_STRING(a, b, c) STR(a) "." STR(b) "." STR(c)

int main(void)
{
	const char *expected = VERSION_STRING(XSKX_VERSION_MAJOR,
					      XSKX_VERSION_MINOR,
					      XSKX_VERSION_PATCH);
	struct xskx_umem *umem;
	int err;

	if (strcmp(xskx_version(), expected) != 0) {
		fprintf(stderr, "xskx_version() %s, headers %s\n",
			xskx_version(), expected);
		return 1;
	}
	err = xskx_umem_create(&umem, NULL);
	if (err) {
		fprintf(stderr, "xskx_umem_create: %s\n", xskx_strerror(err));
		return 1;
	}
	xskx_umem_destroy(umem);
	printf("xskx %s\n", xskx_version());
	return 0;
}
