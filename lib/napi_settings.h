/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Per-queue NAPI settings that the kernel takes over the netdev netlink
 * family (napi-set, kernel 6.13+; threaded 6.17+). Together with
 * SO_PREFER_BUSY_POLL they let the application's busy polls drive the
 * queue while the device's interrupts stay off (defer_hard_irqs empty
 * polls, gro_flush_timeout as the safety timer), or move the poll to a
 * kernel thread of its own (threaded).
 */
#ifndef XSKX_NAPI_SETTINGS_H
#define XSKX_NAPI_SETTINGS_H

#include <stdint.h>

struct xskx_napi_settings {
	uint32_t defer_hard_irqs;	 /* empty polls before IRQs come back */
	uint64_t gro_flush_timeout_ns;	 /* the timer that reschedules NAPI */
	uint64_t irq_suspend_timeout_ns; /* IRQs off while busy polls find work */
	int threaded;			 /* 1 on, 0 off, -1 as it is */
};

#endif /* XSKX_NAPI_SETTINGS_H */
