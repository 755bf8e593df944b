/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The Internet checksum written plainly, word by word as RFC 1071 does: the
 * tests' reference for what lib/l4_csum.c computes its own, faster way.
 */
#ifndef XSKX_TESTS_INET_CSUM_H
#define XSKX_TESTS_INET_CSUM_H

#include <stdint.h>

/* acc plus the 16-bit big-endian words of p (an odd byte padded with 0). */
static inline uint32_t inet_csum_add(uint32_t acc, const uint8_t *p,
				     uint32_t len)
{
	for (uint32_t i = 0; i < len; i += 2)
		acc += (uint32_t)(p[i] << 8) | (i + 1 < len ? p[i + 1] : 0);
	return acc;
}

/* The ones' complement sum of acc folded to 16 bits. */
static inline uint16_t inet_csum_fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

#endif /* XSKX_TESTS_INET_CSUM_H */
