// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP_METADATA_COPY_MULTI_BUFF's program: the same with frags support, so
 * that it runs on chains at MTU 9000; the metadata goes in front of a
 * chain's first buffer, the one the program's data points into.
 */
#include "xdp_meta_count.bpf.h"

SEC("xdp.frags")
int xskx_meta_count_mb(struct xdp_md *ctx)
{
	return count_into_meta(ctx);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
