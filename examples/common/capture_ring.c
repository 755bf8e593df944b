// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The forwarding thread's side of a capture ring (capture_ring.h). */
#include <string.h>
#include <time.h>
#include <xskx/socket.h>

#include "capture_ring.h"

static uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void capture_ring_put(struct capture_ring *r, const struct xskx_pkt *frags,
		      uint32_t n, const char *note)
{
	uint32_t prod = r->prod;
	struct capture_slot *s;

	if (prod - r->cached_cons == r->nslots) {
		/* Acquire: pairs with the writer's release of cons. */
		r->cached_cons = __atomic_load_n(&r->cons, __ATOMIC_ACQUIRE);
		if (prod - r->cached_cons == r->nslots) {
			__atomic_store_n(&r->queue_full, r->queue_full + 1,
					 __ATOMIC_RELAXED);
			return;
		}
	}
	s = capture_ring_slot(r, prod);
	s->caplen = s->len = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t room = r->snaplen - s->caplen;
		uint32_t take = frags[i].len < room ? frags[i].len : room;

		memcpy(s->data + s->caplen, frags[i].data, take);
		s->caplen += take;
		s->len += frags[i].len;
	}
	s->ts_ns = realtime_ns();
	s->note[0] = '\0';
	if (note)
		strncat(s->note, note, sizeof(s->note) - 1);
	/* Release: pairs with the writer's acquire of prod. */
	__atomic_store_n(&r->prod, prod + 1, __ATOMIC_RELEASE);
}
