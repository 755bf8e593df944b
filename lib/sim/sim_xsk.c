// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The simulated AF_XDP socket: socket(), setsockopt(), mmap(), bind(),
 * getsockopt() and close(), with the checks and errno values of the
 * kernel's net/xdp/xsk.c, xdp_umem.c and xsk_buff_pool.c.
 *
 * Binding creates a pool — the FILL/COMPLETION pair plus the UMEM's
 * geometry — for the port's queue, or joins the pool of the socket whose
 * UMEM it shares when that one is on the same queue. A queue has at most
 * one pool; every socket on it uses that pool's FILL and COMPLETION rings,
 * and the XDP hook's REDIRECT goes to the first of them bound with an RX
 * ring (the kernel redirects through an XSKMAP the program picks from; the
 * simulated hook has no map, so it takes the first).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel_rules.h"
#include "log_internal.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_napi.h"
#include "sim_ring.h"
#include "sim_xsk.h"

/* What a multi-buffer frame gives up to struct skb_shared_info (x86-64). */
#define SIM_MB_TAILROOM 320

static const char *ring_name(int which)
{
	switch (which) {
	case XDP_RX_RING:
		return "RX";
	case XDP_TX_RING:
		return "TX";
	case XDP_UMEM_FILL_RING:
		return "FILL";
	case XDP_UMEM_COMPLETION_RING:
		return "COMPLETION";
	}
	return "unknown";
}

static struct sim_ring **ring_slot(struct sim_xsk *xs, int which)
{
	switch (which) {
	case XDP_RX_RING:
		return &xs->rx;
	case XDP_TX_RING:
		return &xs->tx;
	case XDP_UMEM_FILL_RING:
		return &xs->fq_tmp;
	case XDP_UMEM_COMPLETION_RING:
		return &xs->cq_tmp;
	}
	return NULL;
}

int xskx__sim_xsk_socket(struct xskx_sim *sim, struct sim_xsk **xskp)
{
	struct sim_xsk *xs;

	if (!sim || !xskp)
		return xskx__reason(
			-EINVAL,
			"socket: no simulated machine (is the port NULL?)");
	xs = calloc(1, sizeof(*xs));
	if (!xs)
		return -ENOMEM;
	xs->sim = sim;
	xs->state = SIM_XSK_READY;
	xs->max_tx_budget = XSKX_COPY_TX_BATCH;
	xskx__sim_lock(sim);
	sim->nsockets++;
	xskx__sim_unlock(sim);
	*xskp = xs;
	return 0;
}

/* xdp_umem_reg()'s checks (lib/kernel_rules.h), then the pinning. */
#define SIM_UMEM_FLAGS                                                         \
	(XDP_UMEM_UNALIGNED_CHUNK_FLAG | XDP_UMEM_TX_SW_CSUM |                 \
	 XDP_UMEM_TX_METADATA_LEN)

static uint32_t reg_tx_metadata_len(const struct sim_umem_reg *reg)
{
	return reg->flags & XDP_UMEM_TX_METADATA_LEN ? reg->tx_metadata_len : 0;
}

static int umem_check(const struct sim_umem_reg *reg, uint64_t page)
{
	struct xskx_umem_geometry g = {
		.addr = reg->addr,
		.len = reg->len,
		.chunk_size = reg->chunk_size,
		.headroom = reg->headroom,
		.unaligned = reg->flags & XDP_UMEM_UNALIGNED_CHUNK_FLAG,
		.unknown_flags = reg->flags & ~SIM_UMEM_FLAGS,
		.tx_metadata_len = reg_tx_metadata_len(reg),
	};

	switch (xskx__umem_geometry_check(&g, page)) {
	case XSKX_UMEM_FAULT_NONE:
		break;
	case XSKX_UMEM_FAULT_CHUNK_RANGE:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: chunk_size %u is outside [%u, page size %llu]",
			reg->chunk_size, XSKX_MIN_CHUNK_SIZE,
			(unsigned long long)page);
	case XSKX_UMEM_FAULT_FLAGS:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: unknown flags 0x%x (only XDP_UMEM_UNALIGNED_CHUNK_FLAG, XDP_UMEM_TX_SW_CSUM, XDP_UMEM_TX_METADATA_LEN)",
			reg->flags);
	case XSKX_UMEM_FAULT_CHUNK_NOT_POW2:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: chunk_size %u is not a power of two, as aligned mode needs",
			reg->chunk_size);
	case XSKX_UMEM_FAULT_ADDR_ALIGN:
		return xskx__reason(-EINVAL,
				    "UMEM_REG: area 0x%llx is not page-aligned",
				    (unsigned long long)reg->addr);
	case XSKX_UMEM_FAULT_LEN_TOO_LARGE:
		return xskx__reason(-EINVAL, "UMEM_REG: len %llu is too large",
				    (unsigned long long)reg->len);
	case XSKX_UMEM_FAULT_CHUNK_COUNT:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: len %llu does not hold between one and 2^32 - 1 chunks of %u",
			(unsigned long long)reg->len, reg->chunk_size);
	case XSKX_UMEM_FAULT_LEN_NOT_MULTIPLE:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: len %llu is not a multiple of chunk_size %u, as aligned mode needs",
			(unsigned long long)reg->len, reg->chunk_size);
	case XSKX_UMEM_FAULT_HEADROOM:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: headroom %u must be at most chunk_size %u - %u",
			reg->headroom, reg->chunk_size,
			XSKX_UMEM_HEADROOM_RESERVE);
	case XSKX_UMEM_FAULT_TX_METADATA_LEN:
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: tx_metadata_len %u is not a multiple of 8 below %u",
			reg->tx_metadata_len, XSKX_TX_METADATA_LEN_LIMIT);
	}
	/* The kernel fails to pin pages it cannot reach. */
	if (!reg->addr)
		return xskx__reason(-EFAULT, "UMEM_REG: area is NULL");
	return 0;
}

int xskx__sim_xsk_umem_reg(struct sim_xsk *xs, const struct sim_umem_reg *reg)
{
	struct sim_umem *umem;
	int err;

	if (!xs || !reg)
		return xskx__reason(
			-EINVAL,
			"UMEM_REG: socket and registration must not be NULL");
	if (xs->state != SIM_XSK_READY || xs->umem)
		return xskx__reason(-EBUSY, "UMEM_REG: the socket %s",
				    xs->umem ? "already has a UMEM" :
					      "is bound");
	err = umem_check(reg, (uint64_t)sysconf(_SC_PAGESIZE));
	if (err)
		return err;
	umem = calloc(1, sizeof(*umem));
	if (!umem)
		return -ENOMEM;
	umem->area = (uint8_t *)(uintptr_t)reg->addr;
	umem->size = reg->len;
	umem->chunk_size = reg->chunk_size;
	umem->headroom = reg->headroom;
	umem->unaligned = reg->flags & XDP_UMEM_UNALIGNED_CHUNK_FLAG;
	umem->tx_metadata_len = reg_tx_metadata_len(reg);
	if (umem->tx_metadata_len) {
		umem->tx_scratch = malloc(umem->chunk_size);
		if (!umem->tx_scratch) {
			free(umem);
			return -ENOMEM;
		}
	}
	umem->refs = 1;
	xs->umem = umem;
	return 0;
}

int xskx__sim_xsk_set_ring(struct sim_xsk *xs, int which, uint32_t entries)
{
	struct sim_ring **slot = xs ? ring_slot(xs, which) : NULL;
	bool umem_ring = which == XDP_UMEM_FILL_RING ||
			 which == XDP_UMEM_COMPLETION_RING;

	if (!slot)
		return xskx__reason(-ENOPROTOOPT,
				    "setsockopt: no such ring option %d", which);
	if (xs->state != SIM_XSK_READY)
		return xskx__reason(
			-EBUSY,
			"%s ring: the socket is bound; set ring sizes before bind",
			ring_name(which));
	if (!xskx_is_power_of_2(entries) || *slot)
		return xskx__reason(
			-EINVAL,
			*slot ? "%s ring: its size is already set" :
				"%s ring: %u entries is not a non-zero power of two",
			ring_name(which), entries);
	*slot = xskx__sim_ring_create(entries, umem_ring ? sizeof(uint64_t) :
						     sizeof(struct xdp_desc));
	if (!*slot)
		return -ENOMEM;
	/* TX needs to be woken the first time (xsk_setsockopt). */
	if (which == XDP_TX_RING)
		(*slot)->shared->flags = XDP_RING_NEED_WAKEUP;
	return 0;
}

int xskx__sim_xsk_set_tx_budget(struct sim_xsk *xs, uint32_t budget)
{
	if (!xs)
		return xskx__reason(-EINVAL,
				    "XDP_MAX_TX_SKB_BUDGET: no socket");
	if (!xskx__tx_budget_valid(budget, xs->tx ? xs->tx->entries : 0))
		return xskx__reason(
			-EACCES,
			xs->tx ?
				"XDP_MAX_TX_SKB_BUDGET: %u is outside [%u, %u], the TX ring's entries" :
				"XDP_MAX_TX_SKB_BUDGET: %u: the socket has no TX ring (set it first)",
			budget, XSKX_COPY_TX_BATCH,
			xs->tx ? xs->tx->entries : 0);
	__atomic_store_n(&xs->max_tx_budget, budget, __ATOMIC_RELAXED);
	return 0;
}

int xskx__sim_xsk_map_ring(struct sim_xsk *xs, int which, struct sim_ring_map *map)
{
	struct sim_ring **slot = xs ? ring_slot(xs, which) : NULL;
	struct sim_ring *ring;

	if (!slot || !map)
		return xskx__reason(-EINVAL, "mmap: no such ring %d", which);
	ring = *slot;
	if (xs->state == SIM_XSK_BOUND && which == XDP_UMEM_FILL_RING)
		ring = xs->pool->fq;
	else if (xs->state == SIM_XSK_BOUND &&
		 which == XDP_UMEM_COMPLETION_RING)
		ring = xs->pool->cq;
	if (!ring)
		return xskx__reason(-EINVAL, "mmap: the socket has no %s ring",
				    ring_name(which));
	map->producer = &ring->shared->producer;
	map->consumer = &ring->shared->consumer;
	map->flags = &ring->shared->flags;
	map->desc = ring->desc;
	map->entries = ring->entries;
	return 0;
}

/* xp_assign_dev()'s check that a packet of MTU size fits zero-copy frames. */
static bool zc_frames_fit(const struct xskx_sim_port *port,
			  const struct sim_umem *umem, bool mb)
{
	uint32_t frame = umem->chunk_size - umem->headroom -
			 XSKX_XDP_PACKET_HEADROOM - (mb ? SIM_MB_TAILROOM : 0);

	frame &= ~127u;
	return port->mtu + XSKX_L2_OVERHEAD <=
	       frame * (mb ? port->max_frags : 1);
}

/*
 * Zero-copy where the port has it and the frames fit, else copy — unless
 * forced (xp_assign_dev()).
 */
static int pick_mode(struct sim_pool *pool, const struct xskx_sim_port *port,
		     uint32_t queue_id, uint16_t flags)
{
	bool force_zc = flags & XDP_ZEROCOPY, mb = flags & XDP_USE_SG;

	if (flags & XDP_COPY)
		return 0;
	if (port->no_zero_copy || (mb && port->max_frags == 1)) {
		if (!force_zc)
			return 0;
		return xskx__reason(
			-EOPNOTSUPP,
			"bind: port %s has no zero-copy%s; bind without XDP_ZEROCOPY for copy mode",
			port->name, port->no_zero_copy ? "" : " multi-buffer");
	}
	if (!zc_frames_fit(port, pool->umem, mb)) {
		if (!force_zc)
			return 0;
		return xskx__reason(
			-EINVAL,
			"bind: port %s queue %u: an MTU %u packet does not fit %s%u-byte frames with %u bytes of headroom",
			port->name, queue_id, port->mtu,
			mb ? "the fragments of " : "", pool->umem->chunk_size,
			pool->umem->headroom);
	}
	pool->zc = true;
	pool->umem->zc = true;
	return 0;
}

/* A new pool for (port, queue_id) over umem: xp_create_and_assign_umem + xp_assign_dev. */
static int assign_pool(struct sim_xsk *xs, struct xskx_sim_port *port,
		       uint32_t queue_id, uint16_t flags, struct sim_umem *umem)
{
	struct sim_pool *pool;
	struct sim_queue *q;
	int err;

	if ((flags & XDP_COPY) && (flags & XDP_ZEROCOPY))
		return xskx__reason(-EINVAL,
				    "bind: XDP_COPY and XDP_ZEROCOPY together");
	if (queue_id < port->nqueues && port->queues[queue_id].pool)
		return xskx__reason(
			-EBUSY,
			"bind: queue %u of port %s is held by another socket",
			queue_id, port->name);
	if (queue_id >= port->nqueues)
		return xskx__reason(
			-EINVAL,
			"bind: queue %u out of range: port %s has %u queue%s",
			queue_id, port->name, port->nqueues,
			port->nqueues == 1 ? "" : "s");
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pool->umem = umem;
	pool->fq = xs->fq_tmp;
	pool->cq = xs->cq_tmp;
	pool->frame_room =
		umem->chunk_size - umem->headroom - XSKX_XDP_PACKET_HEADROOM;
	pool->data_offset = XSKX_XDP_PACKET_HEADROOM + umem->headroom;
	pool->need_wakeup = flags & XDP_USE_NEED_WAKEUP;
	pool->cached_need_wakeup = SIM_WAKEUP_TX;
	pool->users = 1;
	if (flags & XDP_USE_SG)
		umem->sg = true;
	err = pick_mode(pool, port, queue_id, flags);
	if (err) {
		free(pool);
		return err;
	}
	q = &port->queues[queue_id];
	pool->queue = q;
	q->pool = pool;
	xs->pool = pool;
	xs->fq_tmp = NULL;
	xs->cq_tmp = NULL;
	return 0;
}

static int bind_shared(struct sim_xsk *xs, struct xskx_sim_port *port,
		       uint32_t queue_id, uint16_t flags, struct sim_xsk *owner)
{
	struct sim_umem *umem;
	int err;

	if (flags &
	    (XDP_COPY | XDP_ZEROCOPY | XDP_USE_NEED_WAKEUP | XDP_USE_SG))
		return xskx__reason(
			-EINVAL,
			"bind: a socket sharing a UMEM takes the owner's mode; pass no XDP_COPY, XDP_ZEROCOPY, XDP_USE_NEED_WAKEUP or XDP_USE_SG");
	if (xs->umem)
		return xskx__reason(
			-EINVAL,
			"bind: XDP_SHARED_UMEM on a socket that registered its own UMEM");
	if (!owner || owner->sim != xs->sim)
		return xskx__reason(
			-EBADF,
			"bind: XDP_SHARED_UMEM needs a socket of the same machine to share with");
	if (owner->state != SIM_XSK_BOUND)
		return xskx__reason(
			-EBADF,
			"bind: the socket to share the UMEM with is not bound");
	umem = owner->umem;
	if (owner->queue->port != port || owner->queue->index != queue_id) {
		uint16_t inherited = umem->zc ? XDP_ZEROCOPY : XDP_COPY;

		/* One FILL and COMPLETION ring for each queue (xp_assign_dev_shared). */
		if (!xs->fq_tmp || !xs->cq_tmp)
			return xskx__reason(
				-EINVAL,
				"bind: sharing a UMEM on another queue needs FILL and COMPLETION rings of its own");
		if (umem->sg)
			inherited |= XDP_USE_SG;
		if (owner->pool->need_wakeup)
			inherited |= XDP_USE_NEED_WAKEUP;
		err = assign_pool(xs, port, queue_id, inherited, umem);
		if (err)
			return err;
	} else {
		if (xs->fq_tmp || xs->cq_tmp)
			return xskx__reason(
				-EINVAL,
				"bind: on the owner's queue the FILL and COMPLETION rings are the owner's; set none");
		xs->pool = owner->pool;
		xs->pool->users++;
	}
	umem->refs++;
	xs->umem = umem;
	return 0;
}

static void add_to_queue(struct sim_xsk *xs, struct sim_queue *q)
{
	struct sim_xsk **p = &q->sockets;

	while (*p)
		p = &(*p)->next;
	*p = xs;
	xs->next = NULL;
	xs->queue = q;
	/* The newest socket takes the queue's XSKMAP slot, as xskx's does. */
	if (xs->rx)
		q->rx_target = xs;
}

static int do_bind(struct sim_xsk *xs, struct xskx_sim_port *port,
		   uint32_t queue_id, uint16_t flags, struct sim_xsk *shared)
{
	const uint16_t known = XDP_SHARED_UMEM | XDP_COPY | XDP_ZEROCOPY |
			       XDP_USE_NEED_WAKEUP | XDP_USE_SG;
	bool new_pool;
	int err;

	if (flags & ~known)
		return xskx__reason(-EINVAL, "bind: unknown flags 0x%x",
				    flags & ~known);
	if (xs->state != SIM_XSK_READY)
		return xskx__reason(-EBUSY, "bind: the socket is already bound");
	if (!port)
		return xskx__reason(-ENODEV, "bind: no port");
	if (port->sim != xs->sim)
		return xskx__reason(
			-EINVAL,
			"bind: port %s belongs to another simulated machine",
			port->name);
	if (!xs->rx && !xs->tx)
		return xskx__reason(
			-EINVAL,
			"bind: the socket has neither an RX nor a TX ring");
	if (flags & XDP_SHARED_UMEM) {
		struct sim_pool *had = shared ? shared->pool : NULL;

		err = bind_shared(xs, port, queue_id, flags, shared);
		new_pool = xs->pool != had;
	} else if (!xs->umem || !xs->fq_tmp || !xs->cq_tmp) {
		return xskx__reason(
			-EINVAL,
			"bind: register a UMEM and set the FILL and COMPLETION ring sizes first");
	} else {
		err = assign_pool(xs, port, queue_id, flags, xs->umem);
		new_pool = true;
	}
	if (err)
		return err;
	xs->zc = xs->umem->zc;
	xs->sg = xs->umem->sg;
	add_to_queue(xs, xs->pool->queue);
	xs->state = SIM_XSK_BOUND;
	if (new_pool && xs->pool->zc)
		xskx__sim_napi_enable(xs->pool->queue);
	return 0;
}

int xskx__sim_xsk_bind(struct sim_xsk *xs, struct xskx_sim_port *port,
		       uint32_t queue_id, uint16_t flags, struct sim_xsk *shared)
{
	int err;

	if (!xs)
		return xskx__reason(-EINVAL, "bind: socket is NULL");
	xskx__sim_lock(xs->sim);
	err = do_bind(xs, port, queue_id, flags, shared);
	xskx__sim_unlock(xs->sim);
	return err;
}

static void umem_put(struct sim_umem *umem)
{
	if (umem && !--umem->refs) {
		free(umem->tx_scratch);
		free(umem);
	}
}

typedef void (*give_back_fn)(uint64_t addr, void *ctx);

/*
 * The frame a ring entry names; false when outside the UMEM. A FILL entry
 * is read as the NIC reads it (unaligned: address plus offset); the offset
 * bits of the others say where the data lies in the frame.
 */
static bool frame_of(const struct sim_umem *umem, int which, uint64_t addr,
		     uint64_t *frame)
{
	if (which == XDP_UMEM_FILL_RING && umem->unaligned)
		*frame = (addr & XSK_UNALIGNED_BUF_ADDR_MASK) +
			 (addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT);
	else if (umem->unaligned)
		*frame = addr & XSK_UNALIGNED_BUF_ADDR_MASK;
	else
		*frame = addr & ~((uint64_t)umem->chunk_size - 1);
	return *frame < umem->size;
}

/* Hand over the frames of the entries between a ring's consumer and producer. */
static void give_back_ring(const struct sim_ring *ring, int which,
			   const struct sim_umem *umem, give_back_fn give_back,
			   void *ctx)
{
	bool descs = which == XDP_RX_RING || which == XDP_TX_RING;
	uint32_t prod, cons;

	if (!ring)
		return;
	prod = __atomic_load_n(&ring->shared->producer, __ATOMIC_ACQUIRE);
	cons = __atomic_load_n(&ring->shared->consumer, __ATOMIC_ACQUIRE);
	for (; cons != prod; cons++) {
		uint64_t addr = descs ? sim_ring_desc(ring, cons)->addr :
					*sim_ring_addr(ring, cons);
		uint64_t frame;

		if (frame_of(umem, which, addr, &frame))
			give_back(frame, ctx);
	}
}

/* The end of a FILL/COMPLETION pair: every frame it still holds goes back. */
static void give_back_pair(struct sim_ring *fq, struct sim_ring *cq,
			   const struct sim_umem *umem, give_back_fn give_back,
			   void *ctx)
{
	if (give_back && umem) {
		give_back_ring(fq, XDP_UMEM_FILL_RING, umem, give_back, ctx);
		give_back_ring(cq, XDP_UMEM_COMPLETION_RING, umem, give_back,
			       ctx);
	}
	xskx__sim_ring_destroy(fq);
	xskx__sim_ring_destroy(cq);
}

static void unbind(struct sim_xsk *xs, give_back_fn give_back, void *ctx)
{
	struct sim_queue *q = xs->queue;
	struct sim_pool *pool = xs->pool;

	for (struct sim_xsk **p = &q->sockets; *p; p = &(*p)->next)
		if (*p == xs) {
			*p = xs->next;
			break;
		}
	/* The slot goes back to the newest socket left with an RX ring. */
	if (q->rx_target == xs) {
		q->rx_target = NULL;
		for (struct sim_xsk *s = q->sockets; s; s = s->next)
			if (s->rx)
				q->rx_target = s;
	}
	q->tx_next = 0;
	xs->state = SIM_XSK_READY;
	if (--pool->users)
		return;
	/* The pair's last user: the frames the NIC holds go back. */
	xskx__sim_queue_release_frames(q, give_back, ctx);
	q->pool = NULL;
	give_back_pair(pool->fq, pool->cq, pool->umem, give_back, ctx);
	free(pool);
}

void xskx__sim_xsk_close(struct sim_xsk *xs, give_back_fn give_back, void *ctx)
{
	struct xskx_sim *sim;

	if (!xs)
		return;
	sim = xs->sim;
	xskx__sim_lock(sim);
	if (give_back && xs->umem) {
		give_back_ring(xs->rx, XDP_RX_RING, xs->umem, give_back, ctx);
		give_back_ring(xs->tx, XDP_TX_RING, xs->umem, give_back, ctx);
	}
	if (xs->state == SIM_XSK_BOUND)
		unbind(xs, give_back, ctx);
	give_back_pair(xs->fq_tmp, xs->cq_tmp, xs->umem, give_back, ctx);
	umem_put(xs->umem);
	sim->nsockets--;
	xskx__sim_unlock(sim);
	xskx__sim_ring_destroy(xs->rx);
	xskx__sim_ring_destroy(xs->tx);
	free(xs);
}

int xskx__sim_xsk_get_stats(struct sim_xsk *xs, struct xdp_statistics *stats)
{
	const struct sim_pool *pool;

	if (!xs || !stats)
		return xskx__reason(
			-EINVAL,
			"XDP_STATISTICS: socket and stats must not be NULL");
	pool = xs->pool;
	*stats = (struct xdp_statistics){
		.rx_dropped = sim_counter(&xs->rx_dropped),
		.rx_ring_full = sim_counter(&xs->rx_queue_full),
		.rx_invalid_descs =
			pool ? sim_counter(&pool->fq->invalid_descs) : 0,
		.rx_fill_ring_empty_descs =
			pool ? sim_counter(&pool->fq->queue_empty_descs) : 0,
		.tx_invalid_descs =
			xs->tx ? sim_counter(&xs->tx->invalid_descs) : 0,
		.tx_ring_empty_descs =
			xs->tx ? sim_counter(&xs->tx->queue_empty_descs) : 0,
	};
	return 0;
}

int xskx__sim_xsk_get_options(struct sim_xsk *xs, struct xdp_options *opts)
{
	if (!xs || !opts)
		return xskx__reason(
			-EINVAL,
			"XDP_OPTIONS: socket and options must not be NULL");
	opts->flags = xs->zc ? XDP_OPTIONS_ZEROCOPY : 0;
	return 0;
}

uint32_t xskx__sim_xsk_tx_max_frags(const struct sim_xsk *xs)
{
	if (!xs->sg)
		return 1;
	return xs->zc ? xs->queue->port->max_frags : SIM_COPY_MAX_FRAGS;
}

uint32_t xskx__sim_xsk_frames_in_nic(const struct sim_xsk *xs)
{
	struct xskx_sim *sim;
	uint32_t n = 0;

	if (!xs || !xs->pool)
		return 0;
	sim = xs->sim;
	xskx__sim_lock(sim);
	n = xskx__sim_queue_frames_held(xs->pool->queue);
	xskx__sim_unlock(sim);
	return n;
}
