// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The TX kick of a kernel AF_XDP socket, whoever opened it: the kernel
 * backend's sockets and handed-over ones (xsk_adopt.c).
 */
#include <errno.h>
#include <sys/socket.h>

#include "kernel_rules.h"
#include "socket_internal.h"
#include "tx_kick.h"

/*
 * In copy mode the kernel sends at most XSKX_COPY_TX_BATCH descriptors per
 * sendto() (the whole ring once set_tx_budget() raised the budget) and
 * answers EAGAIN when more are left; an invalid descriptor ends a sendto()
 * too. Keep calling while the kernel takes descriptors and some remain, at
 * most as often as a full ring needs at 32.
 * Zero-copy drivers send from their own NAPI poll: one wakeup is enough.
 */
int xskx__kernel_kick_tx_fd(struct xskx_socket *s, int fd, bool zero_copy)
{
	uint32_t rounds = zero_copy ? 1 : s->tx.size / XSKX_COPY_TX_BATCH + 1;

	if (!s->tx.ring)
		return sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 ?
			       -errno :
			       0;

	for (uint32_t i = 0; i < rounds; i++) {
		uint32_t before =
			__atomic_load_n(s->tx.consumer, __ATOMIC_ACQUIRE);
		int err = 0;
		uint32_t after;

		if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0)
			err = -errno;
		after = __atomic_load_n(s->tx.consumer, __ATOMIC_ACQUIRE);
		if (err && (err != -EAGAIN || after == before))
			return err;
		if (after == before ||
		    after == __atomic_load_n(s->tx.producer, __ATOMIC_ACQUIRE))
			break;
	}
	return 0;
}
