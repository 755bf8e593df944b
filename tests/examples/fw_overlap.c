// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Overlapping stage-1 rules and their frames (fw_overlap.h). */
#include <netinet/in.h>

#include "fw_overlap.h"

const char fw_overlap_rules[] =
	"deny src 198.51.100.128/25\n"	/* 0: nested, the longer first */
	"deny src 198.51.100.0/24\n"	/* 1 */
	"deny src 198.51.100.64/26\n"	/* 2: under 1: never matches */
	"deny dst 203.0.113.0/24\n"	/* 3: dst before src (4, 9) */
	"deny src 192.0.2.0/25\n"	/* 4 */
	"deny dst 2001:db8:1::/48\n"	/* 5 */
	"deny src 2001:db8::/33\n"	/* 6 */
	"deny dst 2001:db8:1:2::/64\n"	/* 7: under 5: never matches */
	"deny proto tcp\n"		/* 8: user space */
	"deny src 192.0.2.128/26\n"	/* 9: after a proto rule: user space */
	"default allow\n";

const struct fw_overlap_frame fw_overlap_table[] = {
	/* rule 0 (also 1; also 3 and 8) */
	{ { .src = "198.51.100.200", .dst = "192.0.2.250", .proto = IPPROTO_UDP, .dport = 9 } , false },
	{ { .src = "198.51.100.200", .dst = "203.0.113.1", .proto = IPPROTO_TCP, .dport = 9 } , false },
	/* rule 1 (also 2; also 8) */
	{ { .src = "198.51.100.70", .dst = "192.0.2.250", .proto = IPPROTO_UDP, .dport = 9 } , false },
	{ { .src = "198.51.100.5", .dst = "192.0.2.250", .proto = IPPROTO_TCP, .dport = 9 } , false },
	/* rule 3: the destination rule's line is lower than 4's and 9's */
	{ { .src = "192.0.2.5", .dst = "203.0.113.5", .proto = IPPROTO_UDP, .dport = 9 } , false },
	{ { .src = "192.0.2.130", .dst = "203.0.113.1", .proto = IPPROTO_TCP, .dport = 80 } , false },
	/* rule 4 */
	{ { .src = "192.0.2.5", .dst = "192.0.2.250", .proto = IPPROTO_UDP, .dport = 9 } , false },
	/* rule 5 (also 6; also 7 and 8) */
	{ { .src = "2001:db8::1", .dst = "2001:db8:1::5", .proto = IPPROTO_UDP, .dport = 9 } , false },
	{ { .src = "2001:db8::1", .dst = "2001:db8:1:2::5", .proto = IPPROTO_TCP, .dport = 9 } , false },
	/* rule 6 */
	{ { .src = "2001:db8:7fff::1", .dst = "2001:db8:2::1", .proto = IPPROTO_UDP, .dport = 9 } , false },
	/* rule 8 (stage 2) */
	{ { .src = "192.0.2.200", .dst = "192.0.2.250", .proto = IPPROTO_TCP, .dport = 80 } , false },
	/* rule 9 (stage 2) */
	{ { .src = "192.0.2.130", .dst = "192.0.2.250", .proto = IPPROTO_UDP, .dport = 80 } , false },
	/* the default: allowed */
	{ { .src = "192.0.2.200", .dst = "192.0.2.250", .proto = IPPROTO_UDP, .dport = 80 }, true },
	{ { .src = "2001:db8:8000::1", .dst = "2001:db8:2::1", .proto = IPPROTO_UDP, .dport = 80 }, true },
};

const uint64_t fw_overlap_stage1[FW_OVERLAP_RULES] = { 2, 2, 0, 2, 1,
						       2, 1, 0, 0, 0 };
const uint64_t fw_overlap_stage2[FW_OVERLAP_RULES] = { 0, 0, 0, 0, 0,
						       0, 0, 0, 1, 1 };
const uint64_t fw_overlap_default = 2;

/* Rules 2 and 7 are covered by earlier stage-1 rules; rule 8 denies by
 * protocol, and rule 9 comes after it: both stay in user space. */
bool fw_overlap_in_xdp(uint32_t rule)
{
	return rule != 2 && rule != 7 && rule <= 6;
}

uint64_t fw_overlap_stage1_total(void)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < FW_OVERLAP_RULES; i++)
		total += fw_overlap_stage1[i];
	return total;
}
