/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The monotonic clock in nanoseconds, for the library and its simulated NIC. */
#ifndef XSKX_NOW_NS_H
#define XSKX_NOW_NS_H

#include <stdint.h>
#include <time.h>

static inline uint64_t xskx__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* XSKX_NOW_NS_H */
