/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * TEMPORARY (issue 10, until the port object of issue 9 carries these as
 * options): the environment variables that switch the kernel features of
 * issue 10, read in lib/tuning_env.c and nowhere else.
 *
 *   XSKX_KERNEL_FEATURES=0  none of them: the kernel's default copy-mode
 *                           TX budget of 32 per sendto(), and no NAPI
 *                           settings (the "off" side of scripts/veth-ab.sh)
 */
#ifndef XSKX_TUNING_ENV_H
#define XSKX_TUNING_ENV_H

#include <stdbool.h>

/* False when XSKX_KERNEL_FEATURES is "0". */
bool xskx__env_kernel_features(void);

#endif /* XSKX_TUNING_ENV_H */
