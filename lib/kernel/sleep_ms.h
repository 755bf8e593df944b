/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kernel backend's waits between retries of a refused step. */
#ifndef XSKX_KERNEL_SLEEP_MS_H
#define XSKX_KERNEL_SLEEP_MS_H

#include <time.h>

static inline void xskx__sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

#endif /* XSKX_KERNEL_SLEEP_MS_H */
