/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The socket as the burst API and the backends see it. */
#ifndef XSKX_SOCKET_INTERNAL_H
#define XSKX_SOCKET_INTERNAL_H

#include <stdint.h>
#include <xskx/socket.h>

#include "port_internal.h"
#include "rings/tx_meta.h"
#include "umem_internal.h"

struct xskx_backend_ops;

struct xskx_socket {
	/* Fast path first: the rings and what the bursts read every call. */
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	struct xskx_fq_cq *fq;
	struct xskx_umem *umem;
	uint32_t flags;			/* XSKX_SOCKET_* */
	bool kick_always;		/* busy polling: kick whenever a burst would wait */
	/*
	 * The peer completes TX addresses with bit 0 cleared (Linux 6.18's
	 * copy mode): reclaim takes such an address for the odd frame start
	 * after it (lib/burst.c, comp_addr_bit0_restored()).
	 */
	bool comp_clears_bit0;
	uint32_t refill_batch;		/* wanted, at most half of fill_max */
	uint32_t refill_batch_wanted;	/* the options' */
	uint32_t tx_reserve;		/* frames refill leaves in the pool */
	/*
	 * TX wakeups wait for tx_kick_batch packets (0: none wait), or for
	 * the first of them to have waited tx_kick_ns (0: until a call
	 * queues none); tx_waiting_since: when that first one was queued
	 * (CLOCK_MONOTONIC ns), 0 while none waits unwoken.
	 */
	uint32_t tx_kick_batch;
	uint64_t tx_kick_ns;
	uint64_t tx_waiting_since;
	uint32_t tx_options;		/* xdp_desc options TX accepts */
	uint32_t max_frags;		/* descriptors of one TX packet, at most */
	struct xskx_stats stats;	/* library counters; peer's read on demand */
	int deferred_err;		/* a failed kick, for the next burst */
	/* TX metadata: asked for (opts.tx_metadata), and what the peer honours. */
	uint32_t tx_meta;
	uint32_t tx_meta_supported;	/* set by the backend's open */
	struct xskx_tx_ts_ring tx_ts;
	/*
	 * Entries of the open batches (xskx/batch.h): peeked on RX and not yet
	 * released; reserved on TX and not yet submitted. 0: none open.
	 */
	uint32_t rx_batch;
	uint32_t tx_batch;
	const struct xdp_desc *rx_batch_desc; /* the open RX batch's first */
	/*
	 * Multi-buffer sockets: room for a chain of fragments that runs
	 * across the RX ring's end, which an RX batch hands over as a copy
	 * (lib/batch.c). As many entries as the RX ring.
	 */
	struct xdp_desc *rx_bounce;
	/*
	 * The open TX batch's descriptor addresses as xskx_tx_reserve() wrote
	 * them, entry by entry (as many as the TX ring): what submit checks
	 * the ring against, and whose frames go back to the pool unsent
	 * whatever the application wrote into the ring.
	 */
	uint64_t *tx_batch_addrs;

	const struct xskx_backend_ops *ops;
	void *backend;			/* the peer's socket */
	struct xskx_port *port;
	struct xskx_peer_umem *peer_umem; /* the UMEM, as the backend sees it */
	/*
	 * At open: the backend handle of a socket this one shares the UMEM
	 * through (one on its FILL/COMPLETION pair if there is one, else any);
	 * NULL for the UMEM's first socket.
	 */
	void *share_with;
	uint32_t queue_id;
	uint16_t bind_flags;		/* XDP_* bind flags actually requested */
	struct xskx_socket *next;	/* in umem->sockets */
};

/* The bind flags (XDP_*) that the socket's options ask for. */
uint16_t xskx__socket_bind_flags(const struct xskx_socket_opts *opts);

/*
 * Move up to max frames from the pool to the socket's FILL ring, as many as
 * fit, up to its pair's fill_max, leaving the socket's tx_reserve in the
 * pool. Returns how many.
 */
uint32_t xskx__fill_from_pool(struct xskx_socket *sock, uint32_t max);

/*
 * Top FILL up to the pair's share when a refill batch is missing from it, or
 * whatever there is when the peer ran dry and said so (xskx_rx_burst's and
 * xskx_socket_poll's refill).
 */
void xskx__refill(struct xskx_socket *sock);

/*
 * Of n entries of a ring of size entries from index idx, how many come
 * before the ring wraps: the data path reads and writes a ring in at most
 * two stretches, this many from idx's slot, the rest from slot 0.
 */
static inline uint32_t xskx__ring_run(uint32_t idx, uint32_t size, uint32_t n)
{
	uint32_t room = size - (idx & (size - 1));

	return n < room ? n : room;
}

/* Which ring a data-path call works on, for its precondition's message. */
enum xskx_ring_use {
	XSKX_USES_RX,
	XSKX_USES_TX,
};

/*
 * A data-path call cannot run: returns the deferred kick error, or -EBUSY
 * for an open batch on the ring it uses, or -EINVAL for a socket without
 * that ring, with a message naming call.
 */
int xskx__burst_precondition(struct xskx_socket *sock, const char *call,
			     enum xskx_ring_use use);

/*
 * After n RX descriptors were peeked at idx: how many end whole chains
 * (the rest go back to RX), or -EINVAL naming call when the first packet
 * alone has more fragments than max.
 */
int xskx__rx_whole_chains(struct xskx_socket *sock, const char *call,
			  uint32_t idx, uint32_t n, uint32_t max);

/*
 * The end of every RX call that took n packets: refill FILL, kick the peer
 * if RX was empty and it asked; returns n or the kick's error.
 */
int xskx__rx_finish(struct xskx_socket *sock, uint32_t n);

/*
 * The end of every TX call that queued n packets: kick the peer if TX
 * holds descriptors and it asked; returns n or the kick's error.
 */
int xskx__tx_finish(struct xskx_socket *sock, uint32_t n);

/* COMPLETION -> FILL or the pool; returns the frames reclaimed. */
uint32_t xskx__reclaim_completions(struct xskx_socket *sock);

/*
 * Close the socket's open batches (xskx_socket_close): the RX entries go
 * back on the ring, the TX frames to the pool.
 */
void xskx__batches_abandon(struct xskx_socket *sock);

#endif /* XSKX_SOCKET_INTERNAL_H */
