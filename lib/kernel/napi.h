/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A queue's NAPI instance, found and configured over the netdev netlink
 * family: queue-get names the NAPI serving (ifindex, RX queue), napi-get
 * reads its settings and thread, napi-set changes them. What apply changed,
 * restore puts back as it was found.
 */
#ifndef XSKX_KERNEL_NAPI_H
#define XSKX_KERNEL_NAPI_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "napi_settings.h"

struct xskx_napi {
	int ifindex;
	uint32_t queue;
	uint32_t id;
	pid_t thread;	     /* the NAPI thread's pid; 0: not threaded */
	bool threaded_known; /* the kernel reports threaded (6.17+) */
	struct xskx_napi_settings found; /* as napi-get read them */
	bool applied;
};

/*
 * Find the NAPI of RX queue `queue` of ifindex, a device with rx_queues
 * RX queues, and read its settings into *napi. The queue names it
 * (queue-get), or, for drivers that do not link queues to NAPIs (veth),
 * the device's NAPIs do when there is one per RX queue: the queue-th by
 * id. 0; -ENOENT when no NAPI is found (a driver that registers none, or
 * veth without a native XDP program); -EOPNOTSUPP when the kernel has no
 * queue-get/napi-get (before 6.8); another negative errno. Logs nothing:
 * callers decide what a missing NAPI means.
 */
int xskx__napi_find(int ifindex, uint32_t queue, uint32_t rx_queues,
		    struct xskx_napi *napi);

/*
 * Apply want to the NAPI found (napi-set). 0, or a negative errno with a
 * message naming the setting and the fix (-EPERM: needs CAP_NET_ADMIN;
 * -EOPNOTSUPP: a kernel before 6.13, or threaded before 6.17).
 */
int xskx__napi_apply(struct xskx_napi *napi,
		     const struct xskx_napi_settings *want);

/* Put back what apply changed, as found. 0 or a negative errno, logged. */
int xskx__napi_restore(struct xskx_napi *napi);

#endif /* XSKX_KERNEL_NAPI_H */
