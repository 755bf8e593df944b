/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stage-1 rules that overlap, of every kind (nested prefixes in both
 * orders, source against destination, a proto rule before prefix rules,
 * IPv6), and a frame for each way they overlap, all in the documentation
 * ranges, with what first match credits each rule. test_fw_sim.c sends
 * the table through the simulated NIC, test_fw_veth.c through the kernel's
 * XDP program: both stage 1s must agree with first match.
 */
#ifndef XSKX_TESTS_FW_OVERLAP_H
#define XSKX_TESTS_FW_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#include "fw_frames.h"

#define FW_OVERLAP_RULES 10u
#define FW_OVERLAP_FRAMES 14u

extern const char fw_overlap_rules[];

struct fw_overlap_frame {
	struct ip_spec spec;
	bool out; /* allowed by the default: forwarded */
};

/* The table; the frames the default allows come last. */
extern const struct fw_overlap_frame fw_overlap_table[FW_OVERLAP_FRAMES];

/* Per rule, for one copy of the table: stage 1's drops, stage 2's denials. */
extern const uint64_t fw_overlap_stage1[FW_OVERLAP_RULES];
extern const uint64_t fw_overlap_stage2[FW_OVERLAP_RULES];
/* The frames of one copy no rule matches. */
extern const uint64_t fw_overlap_default;

/* Whether the split puts rule i into the XDP program. */
bool fw_overlap_in_xdp(uint32_t rule);
/* What stage 1 drops of one copy of the table, all rules together. */
uint64_t fw_overlap_stage1_total(void);

#endif /* XSKX_TESTS_FW_OVERLAP_H */
