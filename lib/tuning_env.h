/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * TEMPORARY (issue 10, until the port object of issue 9 carries these as
 * options): the environment variables that switch the kernel features of
 * issue 10, read in lib/tuning_env.c and nowhere else.
 *
 *   XSKX_KERNEL_FEATURES=0  none of them: the kernel's default copy-mode
 *                           TX budget of 32 per sendto(), and no NAPI
 *                           settings (the "off" side of scripts/veth-ab.sh)
 *   XSKX_NAPI=SETTINGS      per-queue NAPI settings (napi_settings.h) that
 *                           a kernel socket with an RX ring applies to its
 *                           queue's NAPI when it opens and restores when it
 *                           closes: comma-separated defer_hard_irqs=N,
 *                           gro_flush_timeout=NS, irq_suspend_timeout=NS,
 *                           threaded=0|1; the ones left out are 0 (threaded:
 *                           as it is)
 */
#ifndef XSKX_TUNING_ENV_H
#define XSKX_TUNING_ENV_H

#include <stdbool.h>

#include "napi_settings.h"

/* False when XSKX_KERNEL_FEATURES is "0". */
bool xskx__env_kernel_features(void);

/*
 * 1 with *s filled when XSKX_NAPI asks for NAPI settings; 0 when it is
 * unset or empty, or XSKX_KERNEL_FEATURES is "0"; -EINVAL, logged with the
 * item at fault, when it cannot be read.
 */
int xskx__env_napi(struct xskx_napi_settings *s);

#endif /* XSKX_TUNING_ENV_H */
