// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Opening, closing and inspecting sockets; the backend is chosen here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "socket_internal.h"

#define XSKX_SOCKET_ALL_FLAGS                                                  \
	(XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_TX | XSKX_SOCKET_NO_WAKEUP |      \
	 XSKX_SOCKET_BUSY_POLL | XSKX_SOCKET_MULTI_BUFFER)
#define XSKX_DEFAULT_REFILL_BATCH 64

static bool is_power_of_2(uint32_t n)
{
	return n && !(n & (n - 1));
}

static int check_opts(struct xskx_socket_opts *o, const struct xskx_umem *umem)
{
	if (!o->ifname == !o->sim_port)
		return xskx_fail(-EINVAL,
				 "socket: set exactly one backend: ifname (kernel) or sim_port (simulated NIC)");
	if (o->flags & ~XSKX_SOCKET_ALL_FLAGS)
		return xskx_fail(-EINVAL, "socket: unknown flags 0x%x",
				 o->flags & ~XSKX_SOCKET_ALL_FLAGS);
	if ((o->flags & XSKX_SOCKET_NO_RX) && (o->flags & XSKX_SOCKET_NO_TX))
		return xskx_fail(-EINVAL,
				 "socket: XSKX_SOCKET_NO_RX and XSKX_SOCKET_NO_TX together leave no ring; keep one");
	if (o->copy_mode > XSKX_ZEROCOPY_FORCE)
		return xskx_fail(-EINVAL, "socket: copy_mode %d unknown",
				 (int)o->copy_mode);
	if (!o->rx_size)
		o->rx_size = XSKX_RING_DEFAULT_SIZE;
	if (!o->tx_size)
		o->tx_size = XSKX_RING_DEFAULT_SIZE;
	if (!is_power_of_2(o->rx_size))
		return xskx_fail(-EINVAL,
				 "socket: rx_size %u is not a power of two; use e.g. 2048",
				 o->rx_size);
	if (!is_power_of_2(o->tx_size))
		return xskx_fail(-EINVAL,
				 "socket: tx_size %u is not a power of two; use e.g. 2048",
				 o->tx_size);
	/* A batch larger than half of FILL would leave the NIC waiting for it. */
	if (!o->refill_batch)
		o->refill_batch = XSKX_DEFAULT_REFILL_BATCH;
	if (o->refill_batch > umem->fill_size / 2)
		o->refill_batch = umem->fill_size / 2 ? umem->fill_size / 2 : 1;
	if (o->tx_reserve == XSKX_TX_RESERVE_NONE)
		o->tx_reserve = 0;
	else if (!o->tx_reserve && !(o->flags & (XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_TX)))
		o->tx_reserve = umem->frame_count / 2;
	return 0;
}

uint16_t xskx_socket_bind_flags(const struct xskx_socket_opts *o)
{
	uint16_t flags = 0;

	if (!(o->flags & XSKX_SOCKET_NO_WAKEUP))
		flags |= XDP_USE_NEED_WAKEUP;
	if (o->flags & XSKX_SOCKET_MULTI_BUFFER)
		flags |= XDP_USE_SG;
	if (o->copy_mode == XSKX_COPY_FORCE)
		flags |= XDP_COPY;
	else if (o->copy_mode == XSKX_ZEROCOPY_FORCE)
		flags |= XDP_ZEROCOPY;
	return flags;
}

static const struct xskx_backend_ops *pick_backend(const struct xskx_socket_opts *o)
{
	return o->ifname ? &xskx_backend_kernel : &xskx_backend_sim;
}

static bool same_device(const struct xskx_fq_cq *fq, const struct xskx_socket_opts *o)
{
	if (fq->queue_id != o->queue_id)
		return false;
	if (o->sim_port)
		return fq->sim_port == o->sim_port;
	return !fq->sim_port && !strcmp(fq->ifname, o->ifname);
}

/* The FILL/COMPLETION pair of the socket's device and queue, new if none. */
static struct xskx_fq_cq *get_pair(struct xskx_umem *umem,
				   const struct xskx_socket_opts *o)
{
	struct xskx_fq_cq *fq;

	for (fq = umem->pairs; fq; fq = fq->next)
		if (same_device(fq, o))
			return fq;
	fq = calloc(1, sizeof(*fq));
	if (!fq)
		return NULL;
	fq->sim_port = o->sim_port;
	if (o->ifname)
		snprintf(fq->ifname, sizeof(fq->ifname), "%s", o->ifname);
	fq->queue_id = o->queue_id;
	return fq;
}

/* The frames the socket starts with on FILL: wanted, 0 for all it may take. */
static void initial_fill(struct xskx_socket *s, uint32_t wanted)
{
	uint32_t n = xskx_fill_from_pool(s, wanted ? wanted : UINT32_MAX);

	if (n)
		s->stats.fill_refills++;
}

XSKX_API int xskx_socket_open(struct xskx_socket **sockp, struct xskx_umem *umem,
			      const struct xskx_socket_opts *opts)
{
	const struct xskx_backend_ops *ops;
	struct xskx_socket_opts o;
	struct xskx_socket *s;
	struct xskx_fq_cq *fq;
	bool new_pair;
	int err;

	if (!sockp || !umem)
		return xskx_fail(-EINVAL, "socket: socket pointer and umem must not be NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_socket_opts);
	if (err)
		return err;
	err = check_opts(&o, umem);
	if (err)
		return err;
	ops = pick_backend(&o);
	if (umem->backend && umem->backend != ops)
		return xskx_fail(-EINVAL,
				 "socket: this UMEM is registered with the %s backend; a UMEM serves one backend, create another for %s",
				 umem->backend->name, ops->name);

	s = calloc(1, sizeof(*s));
	fq = s ? get_pair(umem, &o) : NULL;
	if (!fq) {
		free(s);
		return xskx_fail(-ENOMEM, "socket: out of memory");
	}
	new_pair = fq->users == 0;
	s->umem = umem;
	s->fq = fq;
	s->ops = ops;
	s->flags = o.flags;
	s->refill_batch = o.refill_batch;
	s->tx_reserve = o.tx_reserve;
	s->queue_id = o.queue_id;

	err = ops->open(s, &o);
	if (err) {
		if (new_pair)
			free(fq);
		free(s);
		return err;
	}
	umem->backend = ops;
	if (new_pair) {
		fq->next = umem->pairs;
		umem->pairs = fq;
	}
	fq->users++;
	s->next = umem->sockets;
	umem->sockets = s;
	if (!(s->flags & XSKX_SOCKET_NO_RX)) {
		initial_fill(s, o.fill_frames);
		/*
		 * A zero-copy driver posts buffers when it polls; one that found
		 * FILL empty at bind sleeps until told that FILL has entries.
		 */
		if (xskx_ring_needs_wakeup(&fq->fill))
			xskx_socket_kick_rx(s);
	}
	*sockp = s;
	return 0;
}

static void give_back_to_pool(uint64_t addr, void *ctx)
{
	xskx_pool_put(ctx, addr);
}

static void unlink_socket(struct xskx_socket *s)
{
	struct xskx_umem *umem = s->umem;

	for (struct xskx_socket **p = &umem->sockets; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	if (--s->fq->users)
		return;
	for (struct xskx_fq_cq **p = &umem->pairs; *p; p = &(*p)->next)
		if (*p == s->fq) {
			*p = s->fq->next;
			break;
		}
	free(s->fq);
}

/*
 * A pair's backend handle is one of its sockets' (backend.h): when that
 * socket closes while others still use the pair, hand it to one of them.
 */
static void move_pair_handle(struct xskx_socket *closing)
{
	struct xskx_fq_cq *fq = closing->fq;

	if (fq->backend != closing->backend)
		return;
	fq->backend = NULL;
	for (struct xskx_socket *s = closing->umem->sockets; s; s = s->next)
		if (s != closing && s->fq == fq) {
			fq->backend = s->backend;
			return;
		}
}

XSKX_API int xskx_socket_close(struct xskx_socket *s)
{
	if (!s)
		return 0;
	move_pair_handle(s);
	s->ops->close(s, give_back_to_pool, s->umem);
	unlink_socket(s);
	free(s);
	return 0;
}

XSKX_API int xskx_socket_stats(struct xskx_socket *s, struct xskx_stats *stats)
{
	struct xdp_statistics peer;
	int err = s->ops->stats(s, &peer);

	if (err)
		return err;
	*stats = s->stats;
	stats->rx_dropped = peer.rx_dropped;
	stats->rx_invalid_descs = peer.rx_invalid_descs;
	stats->tx_invalid_descs = peer.tx_invalid_descs;
	stats->rx_ring_full = peer.rx_ring_full;
	stats->rx_fill_ring_empty_descs = peer.rx_fill_ring_empty_descs;
	stats->tx_ring_empty_descs = peer.tx_ring_empty_descs;
	return 0;
}

XSKX_API int xskx_socket_info(const struct xskx_socket *s,
			      struct xskx_socket_info *info)
{
	struct xdp_options options;
	int err = s->ops->options(s, &options);

	if (err)
		return err;
	*info = (struct xskx_socket_info){
		.zero_copy = options.flags & XDP_OPTIONS_ZEROCOPY,
		.need_wakeup = s->bind_flags & XDP_USE_NEED_WAKEUP,
		.multi_buffer = s->bind_flags & XDP_USE_SG,
		.queue_id = s->queue_id,
		.backend = s->ops->name,
	};
	return 0;
}

XSKX_API int xskx_socket_fd(const struct xskx_socket *s)
{
	return s->ops->fd(s);
}

XSKX_API struct xskx_umem *xskx_socket_umem(const struct xskx_socket *s)
{
	return s->umem;
}

XSKX_API int xskx_socket_rings(struct xskx_socket *s, struct xskx_rings *rings)
{
	*rings = (struct xskx_rings){
		.fill = &s->fq->fill,
		.comp = &s->fq->comp,
		.rx = s->rx.ring ? &s->rx : NULL,
		.tx = s->tx.ring ? &s->tx : NULL,
		.area = s->umem->area,
	};
	return 0;
}

XSKX_API int xskx_socket_poll(struct xskx_socket *s, short events, int timeout_ms)
{
	return s->ops->poll(s, events, timeout_ms);
}
