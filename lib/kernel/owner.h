/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Who attached an xskx XDP program, and whether that process still lives:
 * how a program left behind by a crash is told from one in use.
 */
#ifndef XSKX_KERNEL_OWNER_H
#define XSKX_KERNEL_OWNER_H

#include <stdbool.h>
#include <stddef.h>

#include "xskx_shared.h"

enum xskx__owner_state {
	XSKX_OWNER_ALIVE,
	XSKX_OWNER_GONE,
	/* Not recorded yet, or from another pid namespace: cannot tell. */
	XSKX_OWNER_UNKNOWN,
};

/* Describe the calling process. Returns 0 or a negative errno. */
int xskx__owner_self(struct xskx_prog_owner *owner);

/* Reads /proc/<pid>/stat of the recorded owner. */
enum xskx__owner_state xskx__owner_state(const struct xskx_prog_owner *owner);

/* Whether owner names the calling process. */
bool xskx__owner_is_self(const struct xskx_prog_owner *owner);

/*
 * "process PID (NAME)" for messages, or "process PID of another pid
 * namespace" when this one cannot see it.
 */
void xskx__owner_name(const struct xskx_prog_owner *owner, char *buf,
		      size_t size);

#endif /* XSKX_KERNEL_OWNER_H */
