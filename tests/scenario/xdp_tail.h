/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * XDP_ADJUST_TAIL_*: what the tail-adjusting XDP programs do to every packet
 * they see, shared by the scenarios, the simulated NIC's hook (peer_sim.c)
 * and the BPF programs (tests/veth/xdp_tail_*.bpf.c): resize it by
 * TEST_XDP_TAIL_DELTA bytes, as the selftests do, and set the bytes it grew
 * by to TEST_XDP_TAIL_FILL, so that the receiver can tell they were
 * written. Plain defines: BPF programs include this too.
 */
#ifndef XSKX_TEST_XDP_TAIL_H
#define XSKX_TEST_XDP_TAIL_H

#define TEST_XDP_TAIL_DELTA 4
#define TEST_XDP_TAIL_FILL 0xa5

/*
 * XDP_ADJUST_TAIL_*_MULTI_BUFF (multi_buff.c): packets of 6144 bytes reach
 * a receiver with 4 KiB frames as fragments of 3840 and 2304 bytes (a
 * frame's data starts after XDP_PACKET_HEADROOM, 256 bytes). Shrinking by
 * 4096, the selftests' figure, takes the second fragment and 1792 bytes of
 * the first. Growing stays one byte short of the last fragment's frame end,
 * as the selftests mean to (their 2047 assumes 4096 data bytes in a
 * fragment, which no 4 KiB frame holds, and the kernel refuses it with
 * -EINVAL: docs/KERNEL_RULES.md, "Multi-buffer"). Grown bytes are zero.
 */
#define TEST_XDP_TAIL_MB_LEN 6144
#define TEST_XDP_TAIL_MB_FRAME 4096
#define TEST_XDP_TAIL_MB_SHRINK (-4096)
#define TEST_XDP_TAIL_MB_GROW \
	(2 * (TEST_XDP_TAIL_MB_FRAME - 256) - TEST_XDP_TAIL_MB_LEN - 1)

#endif /* XSKX_TEST_XDP_TAIL_H */
