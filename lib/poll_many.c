// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Waiting on several sockets at once (xskx_socket_poll_many()): what
 * xskx_socket_poll() does for one, for each, then one wait for all.
 */
#include <errno.h>
#include <poll.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "now_ns.h"
#include "rings/fill.h"

/*
 * Sockets of the simulated NIC have no file descriptor: a wait for several
 * of them checks each in turn and, while none is ready, waits on the first
 * for at most this long before checking all again.
 */
#define SIM_SLICE_MS 1

/*
 * The work poll(2) on the fds would not do: FILL refilled for every socket
 * waiting for RX (with nothing on FILL it would wait forever).
 */
static void refill_for_rx(struct xskx_poll_socket *socks, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct xskx_socket *s = socks[i].sock;

		socks[i].revents = 0;
		if ((socks[i].events & POLLIN) && s->rx.ring)
			xskx__refill(s);
	}
}

/* Kernel sockets: one poll(2) over their fds, which kicks as it must. */
static int poll_fds(struct xskx_poll_socket *socks, uint32_t n, int timeout_ms)
{
	struct pollfd fds[XSKX_POLL_MANY_MAX];
	int ready;

	for (uint32_t i = 0; i < n; i++)
		fds[i] = (struct pollfd){ .fd = socks[i].sock->ops->fd(socks[i].sock),
					  .events = socks[i].events };
	ready = poll(fds, n, timeout_ms);
	if (ready < 0)
		return -errno;
	for (uint32_t i = 0; i < n; i++)
		socks[i].revents = fds[i].revents;
	return ready;
}

/* Each socket's own poll, waiting wait_ms on the first only; how many ready. */
static int poll_each(struct xskx_poll_socket *socks, uint32_t n, int wait_ms)
{
	int ready = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct xskx_socket *s = socks[i].sock;
		int got = s->ops->poll(s, socks[i].events, i ? 0 : wait_ms);

		if (got < 0)
			return got;
		socks[i].revents = (short)got;
		ready += got != 0;
	}
	return ready;
}

/*
 * A slice that came back this fast with nothing ready did not wait: the
 * simulated NIC in deterministic mode never sleeps (it runs when the
 * application polls it), so waiting longer would wait forever.
 */
#define DID_NOT_WAIT_NS 100000u

/* Sockets of the simulated NIC (or of both backends): checked in turn. */
static int poll_in_slices(struct xskx_poll_socket *socks, uint32_t n,
			  int timeout_ms)
{
	uint64_t end = xskx__now_ns() + (uint64_t)timeout_ms * 1000000u;
	int ready = poll_each(socks, n, 0);

	while (!ready && timeout_ms) {
		uint64_t start = xskx__now_ns();

		if (timeout_ms > 0 && start >= end)
			break;
		ready = poll_each(socks, n, SIM_SLICE_MS);
		if (!ready && xskx__now_ns() - start < DID_NOT_WAIT_NS)
			break;
	}
	return ready;
}

XSKX_API int xskx_socket_poll_many(struct xskx_poll_socket *socks, uint32_t n,
				   int timeout_ms)
{
	bool all_fds = true;

	if (!socks || !n || n > XSKX_POLL_MANY_MAX)
		return xskx__fail(-EINVAL,
				  "xskx_socket_poll_many: %u sockets: give 1 to XSKX_POLL_MANY_MAX (%u) in a non-NULL array",
				  n, XSKX_POLL_MANY_MAX);
	for (uint32_t i = 0; i < n; i++) {
		if (!socks[i].sock)
			return xskx__fail(-EINVAL,
					  "xskx_socket_poll_many: socks[%u].sock is NULL",
					  i);
		all_fds = all_fds && socks[i].sock->ops->fd(socks[i].sock) >= 0;
	}
	refill_for_rx(socks, n);
	if (all_fds)
		return poll_fds(socks, n, timeout_ms);
	return poll_in_slices(socks, n, timeout_ms);
}
