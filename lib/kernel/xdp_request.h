/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What a port asks of the XDP program on its interface (xdp_prog.h). */
#ifndef XSKX_KERNEL_XDP_REQUEST_H
#define XSKX_KERNEL_XDP_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <xskx/kernel.h>

struct xskx_xdp_request {
	enum xskx_xdp_mode mode;
	bool fallback;	 /* native unsupported: generic instead */
	bool frags;	 /* multi-buffer packets (xdp.frags) */
	bool rx_meta;	 /* xskx's RX metadata program (XSKX_PORT_RX_METADATA) */
	const void *obj; /* the caller's BPF object; NULL: xskx's own */
	size_t obj_size;
};

#endif /* XSKX_KERNEL_XDP_REQUEST_H */
