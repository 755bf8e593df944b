// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP_ADJUST_TAIL_SHRINK's program: every packet shortened by
 * TEST_XDP_TAIL_DELTA bytes.
 */
#include "xdp_tail.bpf.h"

SEC("xdp")
int xskx_tail_shrink(struct xdp_md *ctx)
{
	return adjust_tail_and_redirect(ctx, -TEST_XDP_TAIL_DELTA);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
