/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The forwarding ports' socket counters, published by the thread that owns
 * the sockets for the thread that reports (examples/common/loss.h): the
 * library's counters are plain, so only the owner may read them.
 */
#ifndef XSKX_EXAMPLES_FWD_PUBLISH_H
#define XSKX_EXAMPLES_FWD_PUBLISH_H

#include "fwd.h"
#include "loss.h"

struct fwd_published {
	struct loss_sock sock[FWD_MAX_PORTS];
	uint32_t steps;		/* since the last publication */
};

/* Publish now: xskx_socket_stats per port (a getsockopt on the kernel). */
int fwd_publish(const struct fwd_queue *q, struct fwd_published *pub);

/*
 * Count a step that moved `moved` packets (or failed: a negative errno) and
 * publish every FWD_STEPS_PER_PUBLISH steps. Returns moved, or the error.
 */
int fwd_publish_every(const struct fwd_queue *q, struct fwd_published *pub,
		      int moved);

/*
 * Rare enough not to show in the rate, often enough for a line per second
 * (an idle step naps 20 us).
 */
#define FWD_STEPS_PER_PUBLISH 4096

#endif /* XSKX_EXAMPLES_FWD_PUBLISH_H */
