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

#endif /* XSKX_TEST_XDP_TAIL_H */
