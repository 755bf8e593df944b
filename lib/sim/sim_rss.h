/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* RSS (sim_rss.c): the flow hash of a frame and the queue it picks. */
#ifndef XSKX_SIM_RSS_H
#define XSKX_SIM_RSS_H

#include <stdint.h>

/* The queue RSS picks for a frame. */
uint32_t xskx__sim_rss_queue(const uint8_t *frame, uint32_t len,
			     uint32_t nqueues);
/*
 * The flow hash RSS spreads by, and in *rss_type what it covered
 * (XSKX_RSS_*: 0 for a frame that is not IP, whose hash is a constant).
 */
uint32_t xskx__sim_rss_hash(const uint8_t *frame, uint32_t len,
			    uint32_t *rss_type);

#endif /* XSKX_SIM_RSS_H */
