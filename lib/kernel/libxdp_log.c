// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libxdp_log.h"
#include "log_internal.h"

static void forward(const char *from, const char *fmt, va_list ap)
{
	char msg[512];
	size_t len;

	if (xskx_log_level() < XSKX_LOG_DEBUG)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	len = strlen(msg);
	while (len && msg[len - 1] == '\n')
		msg[--len] = '\0';
	xskx_debug("%s: %s", from, msg);
}

static int from_libxdp(enum libxdp_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	forward("libxdp", fmt, ap);
	return 0;
}

static int from_libbpf(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	forward("libbpf", fmt, ap);
	return 0;
}

void xskx__libxdp_log_begin(struct xskx_libxdp_log *saved)
{
	saved->libxdp_before = libxdp_set_print(from_libxdp);
	saved->libbpf_before = libbpf_set_print(from_libbpf);
}

void xskx__libxdp_log_end(const struct xskx_libxdp_log *saved)
{
	libxdp_set_print(saved->libxdp_before);
	libbpf_set_print(saved->libbpf_before);
}
