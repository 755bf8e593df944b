/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The owner map of an xskx XDP program (bpf/xskx_shared.h): the program's
 * own record, and this process's entry among the processes using it.
 */
#ifndef XSKX_KERNEL_OWNER_SET_H
#define XSKX_KERNEL_OWNER_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "xskx_shared.h"

/* The other processes in the map, as one look found them. */
struct xskx_owner_census {
	uint32_t serving; /* alive, or in another pid namespace (cannot tell) */
	uint32_t closing; /* alive and detaching or replacing the program */
	uint32_t dead;	  /* gone: their entries were removed by this look */
	struct xskx_prog_owner user; /* one of the serving, for messages */
};

/* Write (role XSKX_OWNER_PROGRAM) or read the program's own record. */
int xskx__owners_describe(int map_fd, const struct xskx_owner_entry *program);
int xskx__owners_program(int map_fd, struct xskx_owner_entry *program);

/* Put this process's entry in the map with role. 0, -ENOSPC or -errno. */
int xskx__owners_enter(int map_fd, enum xskx_owner_role role);

/* Take this process's entry out (nothing when it has none). */
void xskx__owners_leave(int map_fd);

/* Look at every other entry, removing those of dead processes. */
int xskx__owners_census(int map_fd, struct xskx_owner_census *census);

/* Whether a map of this type and sizes is an owner map as declared here. */
bool xskx__owners_layout_ok(uint32_t type, uint32_t key_size,
			    uint32_t value_size);

/* 0 when map_fd is an owner map as declared here, -EPROTO or -errno. */
int xskx__owners_check_layout(int map_fd);

#endif /* XSKX_KERNEL_OWNER_SET_H */
