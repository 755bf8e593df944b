// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Publishing the forwarding ports' socket counters (see fwd_publish.h). */
#include "fwd_publish.h"

int fwd_publish(const struct fwd_queue *q, struct fwd_published *pub)
{
	for (uint32_t i = 0; i < q->nports; i++) {
		int err = loss_sock_publish(&pub->sock[i], q->ports[i].sock);

		if (err)
			return err;
	}
	pub->steps = 0;
	return 0;
}

int fwd_publish_every(const struct fwd_queue *q, struct fwd_published *pub,
		      int moved)
{
	int err;

	if (moved < 0 || ++pub->steps < FWD_STEPS_PER_PUBLISH)
		return moved;
	err = fwd_publish(q, pub);
	return err ? err : moved;
}
