// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A user's program that defines functions under names libxskx uses
 * internally, linked against libxskx.a: it must link (only the API is
 * global in the archive), and its calls must reach its own functions.
 * Built by the test xskx_static_names (cmake/PackageTests.cmake).
 */
#include <stdio.h>
#include <string.h>
#include <xskx/xskx.h>

static int locked;

void sim_lock(void)
{
	locked++;
}

/*
 * lib/sim/sim_machine.c had a sim_lock() before internal names took the
 * xskx__ prefix; lib/frame_pool.c has an xskx__pool_take() now.
 */
int xskx__pool_take(int n)
{
	return n + 1;
}

int main(void)
{
	const char *version = xskx_version();

	sim_lock();
	if (locked != 1 || xskx__pool_take(1) != 2) {
		fprintf(stderr, "static_names: a call reached libxskx's function\n");
		return 1;
	}
	if (!version || !strlen(version)) {
		fprintf(stderr, "static_names: no xskx_version()\n");
		return 1;
	}
	printf("libxskx.a %s links beside a program's sim_lock and xskx__pool_take\n",
	       version);
	return 0;
}
