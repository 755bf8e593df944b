/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The ring between a forwarding thread and the capture writer
 * (capture_writer.h): its layout, shared by the producer's side
 * (capture_ring.c) and the writer's (capture_writer.c).
 *
 * Indices run free over 32 bits; slot i is at i % nslots. The producer
 * fills slot prod, then stores prod + 1 with release; the writer loads
 * prod with acquire (the pair: the slot's bytes are visible before the
 * index that hands them over). The writer, done with slot cons, stores
 * cons + 1 with release; the producer loads cons with acquire before it
 * overwrites that slot (the pair: the writer has finished reading it).
 * The producer reads cons only when its cached copy says the ring is full.
 */
#ifndef XSKX_EXAMPLES_CAPTURE_RING_H
#define XSKX_EXAMPLES_CAPTURE_RING_H

#include <stdint.h>

#include "capture_writer.h"

struct capture_slot {
	uint64_t ts_ns;
	uint32_t caplen, len;
	char note[CAPTURE_NOTE_MAX];
	uint8_t data[]; /* caplen bytes */
};

struct capture_ring {
	/* the producer's line */
	_Alignas(64) uint32_t prod;
	uint32_t cached_cons;
	uint64_t queue_full; /* atomic stores: the writer reads it */
	/* the writer's line */
	_Alignas(64) uint32_t cons;
	/* set at open */
	_Alignas(64) uint8_t *slots;
	uint32_t nslots;
	uint32_t stride; /* bytes from one slot to the next */
	uint32_t snaplen;
};

static inline struct capture_slot *capture_ring_slot(struct capture_ring *r,
						     uint32_t i)
{
	return (struct capture_slot *)(r->slots +
				       (uint64_t)(i % r->nslots) * r->stride);
}

#endif /* XSKX_EXAMPLES_CAPTURE_RING_H */
