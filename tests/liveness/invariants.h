/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What must hold after every step of a run, and what "drained" means. */
#ifndef LV_INVARIANTS_H
#define LV_INVARIANTS_H

#include "world.h"

/* The counters of a run at one moment. */
struct lv_snapshot {
	struct xskx_sim_port_stats in, out;
	struct xskx_stats rx; /* the receiving socket's; zero without one */
	/* Summed over the sockets. */
	uint64_t tx_packets, tx_completed;
	uint64_t tx_invalid, rx_invalid, bad_completions;
	struct xskx_frame_census census;
	/* Packets port in received and its NAPI poll has not yet handled. */
	uint64_t in_hw;
};

/*
 * Take a snapshot and check every invariant on it: the frame census, every
 * injected packet accounted for, every transmitted one, and the order and
 * integrity of what reached the sinks. Fails the test on the first that
 * does not hold.
 */
void lv_check_step(struct lv_world *w, struct lv_snapshot *s);

/*
 * Nothing is left to do: no packet waits in the NIC or on a ring, every TX
 * descriptor is completed and reclaimed, the application holds nothing.
 */
bool lv_drained(const struct lv_world *w, const struct lv_snapshot *s);

/*
 * After the drain: every packet that arrived went to the application or to
 * a counted drop, and everything the application sent reached its sink.
 */
void lv_check_totals(struct lv_world *w, const struct lv_snapshot *s);

#endif /* LV_INVARIANTS_H */
