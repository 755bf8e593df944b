// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The wakeups: sendto(), recvfrom() and poll() on a simulated socket.
 *
 * Deterministic mode (no NIC thread running): the kick does the NIC's work
 * right away, in the caller's thread — sendto a TX pass, recvfrom a NAPI
 * poll (zero-copy; copy mode receives as packets arrive and has nothing to
 * wake), poll() what its need_wakeup flags ask for; with busy_poll, the
 * sources' due packets and then the queue's NAPI, RX and TX, whatever the
 * kick was for (xskx_sim_opts.busy_poll). Threaded mode: the kick
 * only records the request and wakes the NIC thread; the rings are touched
 * by their two owners alone.
 *
 * As in the kernel: a socket that is not bound fails with -ENXIO, a down
 * link with -ENETDOWN, a missing ring with -ENOBUFS; a copy-mode sendto
 * that leaves descriptors behind (its 32 are spent, or COMPLETION is full)
 * returns -EAGAIN.
 */
#include <errno.h>
#include <poll.h>

#include "log_internal.h"
#include "now_ns.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_machine.h"
#include "sim_napi.h"
#include "sim_ring.h"
#include "sim_source.h"
#include "sim_tx.h"
#include "sim_wakeup.h"
#include "sim_wire.h"

static int check_common(const struct sim_xsk *xs, const char *call)
{
	int err;

	if (!xs)
		return xskx__reason(-EINVAL, "%s: socket is NULL", call);
	if (xs->state != SIM_XSK_BOUND)
		return xskx__reason(-ENXIO, "%s: the socket is not bound", call);
	if (xskx__sim_port_link_down(xs->queue->port))
		return xskx__reason(-ENETDOWN, "%s: port %s: link is down", call,
				    xs->queue->port->name);
	err = xskx__sim_port_wakeup_error(xs->queue->port);
	if (err)
		return xskx__reason(err, "%s: port %s: the wakeup_error fault",
				    call, xs->queue->port->name);
	return 0;
}

/*
 * The NIC work of a kick, in the caller's thread (deterministic mode). With
 * busy_poll the wire delivers first and a zero-copy kick polls the whole
 * queue, TX before RX as drivers' NAPI handlers do.
 */
static int kick_now(struct sim_xsk *xs, bool rx, bool tx)
{
	struct sim_queue *q = xs->queue;
	int err = 0;

	xskx__sim_lock(xs->sim);
	if (xs->sim->busy_poll) {
		xskx__sim_sources_run(q->port, xskx__now_ns());
		if (xs->zc) {
			xskx__sim_tx_wake(q);
			xskx__sim_tx_zc(q, tx);
			tx = false;
			rx = true;
		}
	}
	if (rx && xs->zc) {
		q->rx_sched = true;
		xskx__sim_napi_poll(q);
	}
	if (tx && xs->zc) {
		xskx__sim_tx_wake(q);
		xskx__sim_tx_zc(q, true);
	} else if (tx && xs->tx) {
		bool more;

		xskx__sim_tx_copy(xs, &more);
		if (more)
			err = -EAGAIN;
		if (__atomic_load_n(&xs->tx_meta_refused, __ATOMIC_ACQUIRE))
			err = -EINVAL;
	}
	xskx__sim_unlock(xs->sim);
	return err;
}

/* The same request for the NIC thread (threaded mode). */
static void kick_thread(struct sim_xsk *xs, bool rx, bool tx)
{
	uint32_t kicks = rx && xs->zc ? SIM_KICK_RX : 0;

	if (tx && xs->zc) {
		kicks |= SIM_KICK_TX;
	} else if (tx && xs->tx) {
		__atomic_store_n(&xs->copy_kick, true, __ATOMIC_RELEASE);
		kicks |= SIM_KICK_TX_COPY;
	}
	if (kicks)
		xskx__sim_kick_queue(xs->queue, kicks);
}

static int kick(struct sim_xsk *xs, bool rx, bool tx)
{
	if (!xskx__sim_thread_running(xs->sim))
		return kick_now(xs, rx, tx);
	kick_thread(xs, rx, tx);
	/* The NIC thread's pass runs later: its refusal shows on the next. */
	if (tx && !xs->zc &&
	    __atomic_load_n(&xs->tx_meta_refused, __ATOMIC_ACQUIRE))
		return -EINVAL;
	return 0;
}

int xskx__sim_xsk_sendto(struct sim_xsk *xs)
{
	int err = check_common(xs, "sendto");

	if (err)
		return err;
	if (!xs->tx)
		return xskx__reason(-ENOBUFS,
				    "sendto: the socket has no TX ring");
	return kick(xs, false, true);
}

int xskx__sim_xsk_recvfrom(struct sim_xsk *xs)
{
	int err = check_common(xs, "recvfrom");

	if (err)
		return err;
	if (!xs->rx)
		return xskx__reason(-ENOBUFS,
				    "recvfrom: the socket has no RX ring");
	return kick(xs, true, false);
}

static int poll_ready(struct sim_xsk *xs, short events)
{
	int mask = 0;

	if (xs->rx && sim_ring_present(xs->rx))
		mask |= POLLIN | POLLRDNORM;
	if (xs->tx && sim_ring_present(xs->tx) <= xs->tx->entries / 2)
		mask |= POLLOUT | POLLWRNORM;
	return mask & events;
}

int xskx__sim_xsk_poll(struct sim_xsk *xs, short events, int timeout_ms)
{
	bool fill_flag, tx_flag;

	if (!xs)
		return xskx__reason(-EINVAL, "poll: socket is NULL");
	/* Like xsk_poll(): no events from an unbound socket or a down link. */
	if (check_common(xs, "poll"))
		return 0;
	/*
	 * xsk_poll() wakes the driver when a flag is up: in zero-copy mode
	 * its NAPI (RX and TX), in copy mode a transmit pass.
	 */
	fill_flag = sim_ring_needs_wakeup(xs->pool->fq);
	tx_flag = xs->tx && sim_ring_needs_wakeup(xs->tx);
	if (xs->zc && (fill_flag || tx_flag))
		kick(xs, true, true);
	else if (!xs->zc && tx_flag)
		kick(xs, false, true);
	if (!xskx__sim_thread_running(xs->sim))
		return poll_ready(xs, events);
	return xskx__sim_wait_ready(xs->sim, timeout_ms, poll_ready, xs, events);
}
