#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Which ring sizes the running kernel takes for an AF_XDP socket's four
# rings: setsockopt(SOL_XDP, XDP_{RX,TX,UMEM_FILL,UMEM_COMPLETION}_RING) on
# a fresh socket with 0, 3 and every power of two up to 2^MAX_EXP, one line
# per ring. The kernel refuses 0 and non-powers of two (EINVAL) and
# otherwise allocates the ring at once, so the largest size it takes
# depends on memory: a large MAX_EXP allocates that much kernel memory for
# a moment (2^30 RX entries is 16 GiB). The default, 24, stays small.
# The figures in include/xskx/umem.h (XSKX_RING_MAX_SIZE) came from
# `scripts/kernel-ring-limits.sh 31` on a 6.18 kernel with 23 GiB of RAM.
#
# Usage: scripts/kernel-ring-limits.sh [MAX_EXP]   (root or CAP_NET_RAW)
set -eu

max_exp=${1:-24}
case $max_exp in
[0-9] | [12][0-9] | 3[01]) ;;
*) echo "usage: $0 [MAX_EXP 0..31]" >&2; exit 2 ;;
esac
cc=${CC:-cc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cat >"$out/probe.c" <<'PROBE'
#include <errno.h>
#include <linux/if_xdp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

static const char *try_size(int optname, unsigned int entries)
{
	int fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0) {
		perror("socket(AF_XDP)");
		exit(1);
	}
	if (setsockopt(fd, SOL_XDP, optname, &entries, sizeof(entries)))
		err = errno;
	close(fd);
	return err ? strerror(err) : "ok";
}

int main(int argc, char **argv)
{
	static const struct { int opt; const char *name; } rings[] = {
		{ XDP_RX_RING, "rx" }, { XDP_TX_RING, "tx" },
		{ XDP_UMEM_FILL_RING, "fill" },
		{ XDP_UMEM_COMPLETION_RING, "completion" },
	};
	int max_exp = atoi(argv[1]);

	(void)argc;
	for (unsigned int r = 0; r < sizeof(rings) / sizeof(rings[0]); r++) {
		printf("%s: 0 %s; 3 %s", rings[r].name,
		       try_size(rings[r].opt, 0), try_size(rings[r].opt, 3));
		for (int e = 0; e <= max_exp; e++)
			printf("; 2^%d %s", e,
			       try_size(rings[r].opt, 1u << e));
		printf("\n");
	}
	return 0;
}
PROBE
"$cc" -O1 -o "$out/probe" "$out/probe.c"
"$out/probe" "$max_exp"
