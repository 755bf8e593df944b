/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The XDP programs already on a device, whoever attached them: the single
 * program, or each program in libxdp's dispatcher.
 */
#ifndef XSKX_KERNEL_XDP_DEVICE_H
#define XSKX_KERNEL_XDP_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <xdp/libxdp.h>

struct xskx_xdp_found {
	struct xdp_multiprog *mp; /* what is on the device */
	struct xdp_program *prog; /* one program of it */
	bool in_dispatcher;
	enum xdp_attach_mode mode;
};

/*
 * Call fn for each program on ifindex until it returns non-zero; returns
 * that value, 0 when every program was seen (or none is attached), or a
 * negative errno when the device's programs cannot be read.
 */
int xskx__xdp_each_prog(int ifindex,
		        int (*fn)(const struct xskx_xdp_found *found, void *ctx),
		        void *ctx);

/* Where a program attached directly to a device (no dispatcher) runs. */
enum xskx_xdp_direct {
	XSKX_XDP_DIRECT_NATIVE,
	XSKX_XDP_DIRECT_GENERIC,
	XSKX_XDP_DIRECT_IDS,
};

/*
 * The ids of the programs attached directly to ifindex in each mode (0:
 * none), read with libbpf alone: libxdp 1.3.1 leaks a file descriptor each
 * time it describes a device whose program is attached without its
 * dispatcher, and the library looks at the device on every open and close.
 * Returns 0 or -errno.
 */
int xskx__xdp_direct_ids(int ifindex, uint32_t ids[XSKX_XDP_DIRECT_IDS]);

/*
 * An fd for the map named name among the maps of program prog_fd (used or
 * bound to it), to close after use; -ENOENT when it has none such.
 */
int xskx__prog_map_fd(int prog_fd, const char *name);

#endif /* XSKX_KERNEL_XDP_DEVICE_H */
