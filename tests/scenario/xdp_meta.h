/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * XDP_METADATA_COPY*: what the metadata programs put in front of every
 * packet they see, shared by the scenarios (xdp_meta.c), the simulated
 * NIC's hook (peer_sim.c) and the BPF programs
 * (tests/veth/xdp_meta_count*.bpf.c): TEST_XDP_META_LEN bytes of metadata
 * (bpf_xdp_adjust_meta) holding a 32-bit count, in host order, of the
 * packets the program saw before this one — on a link that carries only
 * the scenario's stream, the packet's sequence number. Plain defines: BPF
 * programs include this too.
 */
#ifndef XSKX_TEST_XDP_META_H
#define XSKX_TEST_XDP_META_H

#define TEST_XDP_META_LEN 4

#endif /* XSKX_TEST_XDP_META_H */
