/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What runs in an interface's XDP hook, for tests that look behind the
 * library: a program by name (in libxdp's dispatcher or attached alone)
 * and one of its maps by name.
 */
#ifndef XSKX_TESTS_XDP_QUERY_H
#define XSKX_TESTS_XDP_QUERY_H

struct xdp_multiprog;

/*
 * The fd of the program called name on ifindex, valid while *mp is open
 * (xdp_multiprog__close()). Returns the fd, or -ENOENT (printed) when no
 * such program is attached, or another negative errno.
 */
int xdp_query_prog_fd(int ifindex, const char *name, struct xdp_multiprog **mp);

/* A new fd of prog_fd's map called name (to close), or a negative errno. */
int xdp_query_map_fd(int prog_fd, const char *name);

#endif /* XSKX_TESTS_XDP_QUERY_H */
