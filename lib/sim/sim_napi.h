/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The RX side of a queue (sim_napi.c): the hardware RX ring, refill from
 * FILL, the NAPI poll and the XDP hook (zero-copy); queues without a pool
 * hand the packet to sim_rx_driver.c.
 */
#ifndef XSKX_SIM_NAPI_H
#define XSKX_SIM_NAPI_H

#include <stdbool.h>
#include <stdint.h>

struct sim_queue;
struct sim_pkt;

bool xskx__sim_queue_can_take(struct sim_queue *q, uint32_t len);
/* DMA a packet into posted buffers; false (rx_missed) when they lack. */
bool xskx__sim_queue_receive(struct sim_queue *q, const struct sim_pkt *pkt);
uint32_t xskx__sim_napi_poll(struct sim_queue *q);
/* A zero-copy pool arrives: fill the ring, as a driver does at enable. */
void xskx__sim_napi_enable(struct sim_queue *q);
/* A poll is due without a kick: no need_wakeup, or work left over. */
bool xskx__sim_napi_due(const struct sim_queue *q);
/* Post buffers when refill_batch slots are empty; false when FILL fell short. */
bool xskx__sim_refill(struct sim_queue *q);
/* Every frame the NIC holds for the queue's pool, for the census. */
uint32_t xskx__sim_queue_frames_held(const struct sim_queue *q);
/* Empty the hardware ring, handing each frame to give_back. */
void xskx__sim_queue_release_frames(struct sim_queue *q,
				    void (*give_back)(uint64_t addr, void *ctx),
				    void *ctx);
/* Threaded mode, after an idle sleep: notice FILL refilled without a kick. */
void xskx__sim_napi_recheck(struct sim_queue *q);

#endif /* XSKX_SIM_NAPI_H */
