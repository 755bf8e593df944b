/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libxdp and libbpf print to stderr by default; lib/ never prints. Around
 * its calls into them the kernel backend routes their messages into the
 * xskx log at debug level (its own errors say what went wrong), then puts
 * the application's print functions back.
 */
#ifndef XSKX_KERNEL_LIBXDP_LOG_H
#define XSKX_KERNEL_LIBXDP_LOG_H

#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

struct xskx_libxdp_log {
	libxdp_print_fn_t libxdp_before;
	libbpf_print_fn_t libbpf_before;
};

void xskx__libxdp_log_begin(struct xskx_libxdp_log *saved);
void xskx__libxdp_log_end(const struct xskx_libxdp_log *saved);

#endif /* XSKX_KERNEL_LIBXDP_LOG_H */
