/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The deny list (xskx/filter.h) between lib/filter.c, which checks every
 * request and works out the list each change leads to, and the backend that
 * holds the list where the device's XDP program reads it: the kernel
 * backend's BPF maps (lib/kernel/filter_kernel.c), the simulated port's XDP
 * hook (lib/sim/filter_sim.c).
 */
#ifndef XSKX_FILTER_INTERNAL_H
#define XSKX_FILTER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/filter.h>

struct xskx_filter_dev;

/*
 * A backend's side. lib/filter.c calls these with its lock held, one
 * operation at a time, with entries already checked (valid prefixes and
 * rule ids, no field and prefix twice, within XSKX_FILTER_MAX_ENTRIES per
 * field). Each returns 0 or a negative errno, logged.
 */
struct xskx_filter_dev_ops {
	/* Make entries[0..n) the list, atomically for packets. */
	int (*set)(struct xskx_filter_dev *dev,
		   const struct xskx_filter_entry *entries, uint32_t n);
	/*
	 * Add an entry (or give an equal one its rule id) and delete one, in
	 * place. Optional: without them a change is a set() of the new list.
	 */
	int (*add)(struct xskx_filter_dev *dev,
		   const struct xskx_filter_entry *entry);
	int (*del)(struct xskx_filter_dev *dev,
		   const struct xskx_filter_entry *entry);
	/* The whole list, in any order, in *entries to free() (NULL if empty). */
	int (*list)(struct xskx_filter_dev *dev,
		    struct xskx_filter_entry **entries, uint32_t *n);
	int (*rule_stats)(struct xskx_filter_dev *dev, uint32_t rule_id,
			  struct xskx_filter_counters *counters);
	/* Let go of what the backend's filter_begin() took. Optional. */
	void (*end)(struct xskx_filter_dev *dev);
};

/* The deny list of one socket's device, for one operation. */
struct xskx_filter_dev {
	const struct xskx_filter_dev_ops *ops;
	void *impl; /* the backend's */
};

/* The same field and prefix: the identity of an entry in the list. */
bool xskx__filter_same_key(const struct xskx_filter_entry *a,
			   const struct xskx_filter_entry *b);

/*
 * Whether the first prefix->len bits of addr (4 or 16 bytes, of
 * prefix->family) are the prefix's.
 */
bool xskx__prefix_covers(const struct xskx_prefix *prefix, const uint8_t *addr);

#endif /* XSKX_FILTER_INTERNAL_H */
