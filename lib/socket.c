// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Opening, closing and inspecting sockets; the port's backend does the peer's part. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "batch_internal.h"
#include "frames/frame_pool.h"
#include "port_internal.h"
#include "port_no_socket.h"
#include "rings/fill.h"
#include "rings/tx_meta.h"
#include "socket_internal.h"
#include "umem_internal.h"

#define XSKX_SOCKET_ALL_FLAGS                                                  \
	(XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_TX | XSKX_SOCKET_NO_WAKEUP |      \
	 XSKX_SOCKET_MULTI_BUFFER)
#define XSKX_DEFAULT_REFILL_BATCH 64

static int check_opts(struct xskx_socket_opts *o, const struct xskx_umem *umem)
{
	int err;

	if (!o->port)
		return xskx__fail(-EINVAL,
				  "socket: opts.port is NULL: open a port (xskx_port_open() or xskx_port_open_sim()) and open the socket on it");
	if (o->flags & ~XSKX_SOCKET_ALL_FLAGS)
		return xskx__fail(-EINVAL, "socket: unknown flags 0x%x",
				  o->flags & ~XSKX_SOCKET_ALL_FLAGS);
	if ((o->flags & XSKX_SOCKET_NO_RX) && (o->flags & XSKX_SOCKET_NO_TX))
		return xskx__fail(-EINVAL,
				  "socket: XSKX_SOCKET_NO_RX and XSKX_SOCKET_NO_TX together leave no ring; keep one");
	if (o->copy_mode > XSKX_ZEROCOPY_FORCE)
		return xskx__fail(-EINVAL, "socket: copy_mode %d unknown",
				  (int)o->copy_mode);
	if (!o->rx_size)
		o->rx_size = XSKX_RING_DEFAULT_SIZE;
	if (!o->tx_size)
		o->tx_size = XSKX_RING_DEFAULT_SIZE;
	err = xskx__check_ring_size("socket", "rx_size", o->rx_size);
	if (!err)
		err = xskx__check_ring_size("socket", "tx_size", o->tx_size);
	if (err)
		return err;
	if (o->tx_kick_batch > o->tx_size)
		return xskx__fail(-EINVAL,
				  "socket: tx_kick_batch %u is more than the TX ring's %u entries (tx_size); lower it",
				  o->tx_kick_batch, o->tx_size);
	if (o->tx_kick_usec > XSKX_TX_KICK_USEC_MAX ||
	    (o->tx_kick_usec && !o->tx_kick_batch))
		return xskx__fail(-EINVAL,
				  "socket: tx_kick_usec %u: at most %u, and only with tx_kick_batch (the packets a wakeup waits for)",
				  o->tx_kick_usec, XSKX_TX_KICK_USEC_MAX);
	if (o->fill_max > umem->usable_frames)
		return xskx__fail(-EINVAL,
				  "socket: fill_max %u is more than the UMEM's %u frames; lower it",
				  o->fill_max, umem->usable_frames);
	/*
	 * A batch larger than half of FILL would leave the NIC waiting for it
	 * (share_frames() also keeps it within half of fill_max).
	 */
	if (!o->refill_batch)
		o->refill_batch = XSKX_DEFAULT_REFILL_BATCH;
	if (o->refill_batch > umem->fill_size / 2)
		o->refill_batch = umem->fill_size / 2 ? umem->fill_size / 2 : 1;
	if (o->tx_reserve == XSKX_TX_RESERVE_NONE)
		o->tx_reserve = 0;
	else if (!o->tx_reserve && !(o->flags & (XSKX_SOCKET_NO_RX | XSKX_SOCKET_NO_TX)))
		/* Rounded up: a single frame leaves none for TX otherwise. */
		o->tx_reserve = (umem->usable_frames + 1) / 2;
	return 0;
}

XSKX_BACKEND_API uint16_t
xskx__socket_bind_flags(const struct xskx_socket_opts *o)
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

/* The FILL/COMPLETION pair of the socket's device and queue, new if none. */
static struct xskx_fq_cq *get_pair(struct xskx_umem *umem,
				   const struct xskx_socket_opts *o)
{
	struct xskx_fq_cq *fq;

	for (fq = umem->pairs; fq; fq = fq->next)
		if (fq->port == o->port && fq->queue_id == o->queue_id)
			return fq;
	fq = calloc(1, sizeof(*fq));
	if (!fq)
		return NULL;
	fq->port = o->port;
	fq->queue_id = o->queue_id;
	return fq;
}

/*
 * The frame economy (docs/FRAME_SHARING.md). Every receiving FILL/COMPLETION
 * pair of a UMEM may keep at most fill_max frames out with the peer; the
 * fill_max of those that did not choose one is an equal share of what the
 * others and the largest tx_reserve leave, at most the FILL ring. Shares add
 * up to no more than the UMEM holds, so a queue that receives nothing holds
 * its share and no more, and every frame a busy queue sends comes back to it.
 */
static uint32_t largest_reserve(const struct xskx_umem *umem, uint32_t reserve)
{
	for (const struct xskx_socket *s = umem->sockets; s; s = s->next)
		if (s->tx_reserve > reserve)
			reserve = s->tx_reserve;
	return reserve;
}

/*
 * Set every receiving pair's fill_max, and every socket's refill batch to at
 * most half of its pair's fill_max (a larger batch would leave the NIC
 * waiting for it).
 */
static void share_frames(struct xskx_umem *umem)
{
	uint32_t budget = umem->usable_frames - largest_reserve(umem, 0);
	uint32_t chosen = 0, sharers = 0, share;

	for (struct xskx_fq_cq *fq = umem->pairs; fq; fq = fq->next) {
		/*
		 * A pair whose receivers all closed while a TX-only socket
		 * keeps it open still has frames with the peer: not shared.
		 */
		if (!fq->receivers) {
			chosen += fq->posted;
			continue;
		}
		if (fq->fill_max_set)
			chosen += fq->fill_max;
		else
			sharers++;
	}
	share = sharers && budget > chosen ? (budget - chosen) / sharers : 0;
	for (struct xskx_fq_cq *fq = umem->pairs; fq; fq = fq->next)
		if (fq->receivers && !fq->fill_max_set)
			fq->fill_max = share;
	for (struct xskx_socket *s = umem->sockets; s; s = s->next) {
		uint32_t half = s->fq->fill_max / 2 ? s->fq->fill_max / 2 : 1;

		s->refill_batch = s->refill_batch_wanted < half
					  ? s->refill_batch_wanted : half;
	}
}

/*
 * The least frames a receiving pair needs to work at all: its fill_max when
 * chosen, else one frame (refill batches shrink to fit the share).
 */
#define XSKX_MIN_SHARE 1

/*
 * Refuse a socket that would leave the UMEM too few frames. joining is the
 * socket's pair when the socket makes it a receiving one: it needs its
 * minimum, and that minimum must be free now — frames other queues have out
 * with the peer come back only as they receive.
 */
static int check_frames(const struct xskx_umem *umem,
			const struct xskx_socket_opts *o,
			const struct xskx_fq_cq *joining)
{
	uint32_t reserve = largest_reserve(umem, o->tx_reserve);
	uint32_t own = o->fill_max ? o->fill_max : XSKX_MIN_SHARE;
	uint64_t need = reserve, posted = 0;
	uint32_t queues = 0;

	for (const struct xskx_fq_cq *fq = umem->pairs; fq; fq = fq->next) {
		/* A pair with no receiver left may still have frames out. */
		posted += fq->posted;
		if (!fq->receivers)
			continue;
		need += fq->fill_max_set ? fq->fill_max : XSKX_MIN_SHARE;
		queues++;
	}
	if (joining) {
		need += own;
		queues++;
	}
	if (need > umem->usable_frames)
		return xskx__fail(-EINVAL,
				  "socket: the UMEM's %u frames are too few: %u receiving queue%s need %llu (each its fill_max, or %u, plus tx_reserve %u); create the UMEM with at least %llu frames, or lower fill_max or tx_reserve",
				  umem->usable_frames, queues, queues == 1 ? "" : "s",
				  (unsigned long long)need, XSKX_MIN_SHARE, reserve,
				  (unsigned long long)need);
	if (joining && posted + reserve + own > umem->usable_frames)
		return xskx__fail(-EBUSY,
				  "socket: the UMEM's other receiving queues have %llu of its %u frames out with the peer, leaving fewer than the %u this queue needs beyond tx_reserve %u; open every socket of a UMEM before traffic starts, or give the others a fill_max",
				  (unsigned long long)posted, umem->usable_frames, own,
				  reserve);
	return 0;
}

/*
 * The socket's rings longer than fits, the smallest power of two that
 * holds the UMEM's frames, "RX 2048, TX 2048" into buf; returns the longest
 * (0: none). The kernel takes them, but they never fill: at most
 * frame_count packets are ever in flight. FILL and COMPLETION only for a
 * socket that brings them (a new pair).
 */
static uint32_t rings_past_frames(const struct xskx_umem *umem,
				  const struct xskx_socket_opts *o,
				  bool new_pair, uint32_t fits, char *buf,
				  size_t size)
{
	const struct {
		const char *name;
		uint32_t entries;
		bool present;
	} rings[] = {
		{ "FILL", umem->fill_size, new_pair },
		{ "COMPLETION", umem->comp_size, new_pair },
		{ "RX", o->rx_size, !(o->flags & XSKX_SOCKET_NO_RX) },
		{ "TX", o->tx_size, !(o->flags & XSKX_SOCKET_NO_TX) },
	};
	uint32_t longest = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		if (!rings[i].present || rings[i].entries <= fits)
			continue;
		used += (size_t)snprintf(buf + used, used < size ? size - used : 0,
					 "%s%s %u", used ? ", " : "",
					 rings[i].name, rings[i].entries);
		if (rings[i].entries > longest)
			longest = rings[i].entries;
	}
	return longest;
}

/* Warn, with the numbers, of rings the UMEM's frames can never fill. */
static void warn_rings_past_frames(const struct xskx_umem *umem,
				   const struct xskx_socket_opts *o,
				   bool new_pair)
{
	char rings[96];
	uint32_t fits = 1, longest;

	while (fits < umem->usable_frames)
		fits <<= 1;
	longest = rings_past_frames(umem, o, new_pair, fits, rings,
				    sizeof(rings));
	if (!longest)
		return;
	xskx_warn("socket on queue %u: the UMEM's %u frames can never fill its rings of more entries (%s): at most %u packets are in flight on each; rings of %u entries hold them all (fill_size, comp_size, rx_size, tx_size), or create the UMEM with at least %u frames",
		  o->queue_id, umem->usable_frames, rings, umem->usable_frames,
		  fits, longest);
}

/*
 * Frames put on FILL at open: what the options ask for (fill_frames), within
 * the share, and by default none. The first xskx_rx_burst() or
 * xskx_socket_poll() fills FILL up to the share; by then, in a program that
 * opens its sockets and then runs, every socket of the UMEM is open and the
 * shares are final. Frames posted earlier could exceed a share that later
 * sockets shrink, and a queue that never receives never gives them back.
 */
static void initial_fill(struct xskx_socket *s, uint32_t wanted)
{
	if (wanted && xskx__fill_from_pool(s, wanted))
		s->stats.fill_refills++;
}

/*
 * The socket a new one on pair fq shares the UMEM through, as the kernel
 * picks it: one on the same FILL/COMPLETION pair if there is one, else any
 * socket of the UMEM (the new one then brings its own pair); its backend
 * handle, or NULL for the UMEM's first socket.
 */
static void *umem_sharer(const struct xskx_umem *umem,
			 const struct xskx_fq_cq *fq)
{
	for (const struct xskx_socket *o = umem->sockets; o; o = o->next)
		if (o->fq == fq)
			return o->backend;
	return umem->sockets ? umem->sockets->backend : NULL;
}

/*
 * Whether the socket will receive chains of fragments: it asks for
 * multi-buffer, or inherits it from the UMEM's first socket.
 */
static bool chains_arrive(const struct xskx_umem *umem,
			  const struct xskx_socket_opts *o)
{
	if (umem->sockets)
		return umem->sockets->bind_flags & XDP_USE_SG;
	return o->flags & XSKX_SOCKET_MULTI_BUFFER;
}

static void give_back_to_pool(uint64_t addr, void *ctx);

/*
 * The TX metadata requests, checked once the bind says which mode the
 * socket runs in; a refused one closes the peer's socket again.
 */
static int open_tx_meta(struct xskx_socket *s, uint32_t requested)
{
	struct xdp_options options = { 0 };
	int err = s->ops->options(s, &options);

	if (!err)
		err = xskx__tx_meta_open(s, requested,
					 options.flags & XDP_OPTIONS_ZEROCOPY);
	if (err && s->ops->close(s, give_back_to_pool, s->umem))
		xskx__pool_take_back_from_peer(s->umem);
	return err;
}

/* Both ways to open a socket, with the caller's options copied in *opts. */
static int socket_open(struct xskx_socket **sockp, struct xskx_umem *umem,
		       const struct xskx_socket_opts *opts)
{
	const struct xskx_backend_ops *ops;
	struct xskx_socket_opts o = *opts;
	struct xskx_socket *s;
	struct xskx_fq_cq *fq;
	bool new_pair, receiving;
	int err;

	err = check_opts(&o, umem);
	if (err)
		return err;
	ops = o.port->ops;
	if (umem->backend && umem->backend != ops)
		return xskx__fail(-EINVAL,
				  "socket: this UMEM is registered with the %s backend; a UMEM serves one backend, create another for port '%s' (%s)",
				  umem->backend->name, o.port->name, ops->name);

	s = calloc(1, sizeof(*s));
	fq = s ? get_pair(umem, &o) : NULL;
	if (!fq) {
		free(s);
		return xskx__fail(-ENOMEM, "socket: out of memory");
	}
	new_pair = fq->users == 0;
	receiving = !(o.flags & XSKX_SOCKET_NO_RX);
	err = check_frames(umem, &o, receiving && !fq->receivers ? fq : NULL);
	if (err)
		goto err_free;
	s->umem = umem;
	s->peer_umem = &umem->peer;
	s->share_with = umem_sharer(umem, fq);
	s->fq = fq;
	s->ops = ops;
	s->port = o.port;
	s->flags = o.flags;
	s->kick_always = o.port->opts.flags & XSKX_PORT_BUSY_POLL;
	s->refill_batch_wanted = o.refill_batch;
	s->tx_reserve = o.tx_reserve;
	s->tx_kick_batch = o.tx_kick_batch;
	s->tx_kick_ns = (uint64_t)o.tx_kick_usec * 1000;
	s->queue_id = o.queue_id;
	if (receiving && chains_arrive(umem, &o)) {
		s->rx_bounce = calloc(o.rx_size,
				      sizeof(*s->rx_bounce));
		if (!s->rx_bounce) {
			err = xskx__fail(-ENOMEM, "socket: out of memory");
			goto err_free;
		}
	}

	if (!(o.flags & XSKX_SOCKET_NO_TX)) {
		s->tx_batch_addrs = calloc(o.tx_size,
					    sizeof(*s->tx_batch_addrs));
		if (!s->tx_batch_addrs) {
			err = xskx__fail(-ENOMEM, "socket: out of memory");
			goto err_free;
		}
	}

	err = ops->open(s, &o);
	if (err)
		goto err_free;
	err = open_tx_meta(s, o.tx_metadata);
	if (err)
		goto err_free;
	/* The kernel's shared-UMEM rule: sharers inherit the first's mode. */
	if (umem->sockets)
		s->bind_flags = umem->sockets->bind_flags;
	s->tx_options = s->bind_flags & XDP_USE_SG ? XDP_PKT_CONTD : 0;
	/* The kernel takes the option from every socket of such a UMEM. */
	if (umem->tx_metadata_len)
		s->tx_options |= XDP_TX_METADATA;
	umem->backend = ops;
	if (new_pair) {
		fq->next = umem->pairs;
		umem->pairs = fq;
	}
	fq->users++;
	o.port->sockets++;
	if (receiving && !fq->receivers++) {
		fq->fill_max = o.fill_max;
		fq->fill_max_set = o.fill_max != 0;
	}
	s->next = umem->sockets;
	umem->sockets = s;
	share_frames(umem);
	if (receiving) {
		initial_fill(s, o.fill_frames);
		/*
		 * A zero-copy driver posts buffers when it polls; one that found
		 * FILL empty at bind sleeps until told that FILL has entries.
		 */
		if (o.fill_frames && xskx_ring_needs_wakeup(&fq->fill))
			xskx_socket_kick_rx(s);
	}
	warn_rings_past_frames(umem, &o, new_pair);
	*sockp = s;
	return 0;

err_free:
	if (new_pair)
		free(fq);
	free(s->rx_bounce);
	free(s->tx_batch_addrs);
	free(s);
	return err;
}

XSKX_API int xskx_socket_open(struct xskx_socket **sockp, struct xskx_umem *umem,
			      const struct xskx_socket_opts *opts)
{
	struct xskx_socket_opts o;
	int err;

	if (!sockp || !umem)
		return xskx__fail(-EINVAL, "socket: socket pointer and umem must not be NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_socket_opts);
	if (err)
		return err;
	return socket_open(sockp, umem, &o);
}

XSKX_API int xskx_socket_open_queue(struct xskx_socket **sockp,
				    struct xskx_port *port, uint32_t queue_id,
				    struct xskx_umem *umem,
				    const struct xskx_socket_opts *opts)
{
	struct xskx_socket_opts o;
	int err;

	if (!sockp || !port || !umem)
		return xskx__fail(-EINVAL,
				  "xskx_socket_open_queue: socket pointer, port and umem must not be NULL (a port comes from xskx_port_open() or xskx_port_open_sim())");
	err = XSKX_OPTS_COPY(&o, opts, xskx_socket_opts);
	if (err)
		return err;
	/* The arguments say it; opts may only agree (or leave it out). */
	if (o.port && o.port != port)
		return xskx__fail(-EINVAL,
				  "xskx_socket_open_queue: opts.port names port '%s', the port argument '%s'; leave opts.port NULL",
				  o.port->name, port->name);
	if (o.queue_id && o.queue_id != queue_id)
		return xskx__fail(-EINVAL,
				  "xskx_socket_open_queue: opts.queue_id is %u, the queue_id argument %u; leave opts.queue_id 0",
				  o.queue_id, queue_id);
	o.port = port;
	o.queue_id = queue_id;
	return socket_open(sockp, umem, &o);
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
	if (!(s->flags & XSKX_SOCKET_NO_RX))
		s->fq->receivers--;
	if (--s->fq->users) {
		share_frames(umem);
		return;
	}
	for (struct xskx_fq_cq **p = &umem->pairs; *p; p = &(*p)->next)
		if (*p == s->fq) {
			*p = s->fq->next;
			break;
		}
	free(s->fq);
	share_frames(umem);
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
	xskx__batches_abandon(s);
	/* What is on its RX ring goes back to the pool with the socket. */
	if (s->rx.ring)
		s->fq->posted -= xskx_ring_cons_queued(&s->rx);
	move_pair_handle(s);
	/* While the program's counters are still there to read. */
	if (s->rx.ring)
		xskx__port_no_socket_check(s->port);
	if (s->ops->close(s, give_back_to_pool, s->umem))
		xskx__pool_take_back_from_peer(s->umem);
	s->port->sockets--;
	unlink_socket(s);
	xskx__tx_meta_close(s);
	free(s->rx_bounce);
	free(s->tx_batch_addrs);
	free(s);
	return 0;
}

XSKX_API int xskx_socket_stats_sized(struct xskx_socket *s,
				     struct xskx_stats *stats, size_t stats_size)
{
	struct xdp_statistics peer;
	struct xskx_stats full;
	int err;

	if (!s || !stats || !stats_size)
		return xskx__fail(-EINVAL, "xskx_socket_stats: socket and stats must not be NULL, stats_size not 0");
	err = s->ops->stats(s, &peer);
	if (err)
		return err;
	full = s->stats;
	full.rx_dropped = peer.rx_dropped;
	full.rx_invalid_descs = peer.rx_invalid_descs;
	full.tx_invalid_descs = peer.tx_invalid_descs;
	full.rx_ring_full = peer.rx_ring_full;
	full.rx_fill_ring_empty_descs = peer.rx_fill_ring_empty_descs;
	full.tx_ring_empty_descs = peer.tx_ring_empty_descs;
	xskx__out_copy(stats, stats_size, &full, sizeof(full));
	return 0;
}

XSKX_API int xskx_socket_info_sized(const struct xskx_socket *s,
				    struct xskx_socket_info *info,
				    size_t info_size)
{
	struct xdp_options options;
	struct xskx_socket_info full;
	int err;

	if (!s || !info || !info_size)
		return xskx__fail(-EINVAL, "xskx_socket_info: socket and info must not be NULL, info_size not 0");
	err = s->ops->options(s, &options);
	if (err)
		return err;
	full = (struct xskx_socket_info){
		.zero_copy = options.flags & XDP_OPTIONS_ZEROCOPY,
		.need_wakeup = s->bind_flags & XDP_USE_NEED_WAKEUP,
		.multi_buffer = s->bind_flags & XDP_USE_SG,
		.queue_id = s->queue_id,
		.backend = s->ops->name,
		.max_frags = s->max_frags,
		.tx_metadata_supported = s->tx_meta_supported,
		.tx_metadata = s->tx_meta,
	};
	xskx__out_copy(info, info_size, &full, sizeof(full));
	return 0;
}

XSKX_API int xskx_socket_fd(const struct xskx_socket *s)
{
	if (!s)
		return xskx__fail(-EINVAL, "xskx_socket_fd: socket is NULL");
	return s->ops->fd(s);
}

XSKX_API struct xskx_umem *xskx_socket_umem(const struct xskx_socket *s)
{
	if (!s) {
		xskx__fail(-EINVAL, "xskx_socket_umem: socket is NULL");
		return NULL;
	}
	return s->umem;
}

XSKX_API int xskx_socket_rings(struct xskx_socket *s, struct xskx_rings *rings)
{
	if (!s || !rings)
		return xskx__fail(-EINVAL, "xskx_socket_rings: socket and rings must not be NULL");
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
	if (!s)
		return xskx__fail(-EINVAL, "xskx_socket_poll: socket is NULL");
	/* Waiting for RX with nothing on FILL would wait forever. */
	if ((events & POLLIN) && s->rx.ring)
		xskx__refill(s);
	return s->ops->poll(s, events, timeout_ms);
}
