/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The simulated socket's wakeups, shaped like the kernel's syscalls
 * (sim_wakeup.c): sendto(), recvfrom() and poll() on a bound socket of
 * sim_xsk.h. They run the NIC's steps (TX, the NAPI poll, sources) in
 * deterministic mode and wake the NIC thread in threaded mode.
 */
#ifndef XSKX_SIM_WAKEUP_H
#define XSKX_SIM_WAKEUP_H

struct sim_xsk;

/*
 * sendto(MSG_DONTWAIT): wake TX. Deterministic mode: runs the queue's TX
 * work now; threaded: wakes the NIC thread. 0, or -EAGAIN / -EBUSY /
 * -ENOBUFS (try again), -ENETDOWN, -ENXIO (not bound).
 */
int xskx__sim_xsk_sendto(struct sim_xsk *xsk);

/* recvfrom(MSG_DONTWAIT): wake RX (NAPI poll + refill); errors likewise. */
int xskx__sim_xsk_recvfrom(struct sim_xsk *xsk);

/*
 * poll(): kicks where a need_wakeup flag asks, then reports POLLIN (RX not
 * empty) and POLLOUT (TX at most half full) among events. Threaded mode
 * waits up to timeout_ms for one of them; deterministic mode never waits.
 * An unbound socket or a down link reports no events (0), at once.
 */
int xskx__sim_xsk_poll(struct sim_xsk *xsk, short events, int timeout_ms);

#endif /* XSKX_SIM_WAKEUP_H */
