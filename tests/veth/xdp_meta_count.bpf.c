// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* XDP_METADATA_COPY's program: single-buffer packets. */
#include "xdp_meta_count.bpf.h"

SEC("xdp")
int xskx_meta_count(struct xdp_md *ctx)
{
	return count_into_meta(ctx);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
