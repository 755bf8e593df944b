/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A socket and its FILL/COMPLETION pair as the ring runs see them: the
 * state that every data-path call reads and writes (lib/rings/, and the
 * burst and batch APIs built on them), and the peer's half of it that a
 * backend's open fills in (struct xskx_socket's rings and backend fields).
 */
#ifndef XSKX_RINGS_RINGS_H
#define XSKX_RINGS_RINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/ring.h>
#include <xskx/socket.h>

struct xskx_backend_ops;
struct xskx_peer_umem;
struct xskx_port;
struct xskx_umem;

/*
 * One FILL/COMPLETION pair. The kernel gives one to every (device, queue)
 * that a UMEM is bound to: sockets on the same device and queue share it,
 * a socket on another one brings its own.
 */
struct xskx_fq_cq {
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	void *backend;			/* a socket's handle (sock->backend) on the pair */
	/* The key: port (one per device in a process) and queue. */
	struct xskx_port *port;
	uint32_t queue_id;
	uint32_t users;			/* sockets using this pair */
	uint32_t receivers;		/* of them, sockets with an RX ring */
	/*
	 * The frame economy (docs/FRAME_SHARING.md): frames this pair has
	 * out with the peer for receiving — on FILL, in the NIC, on its
	 * sockets' RX rings — and the most it may have. Refills stop at
	 * fill_max, so an idle queue cannot soak up the frames a busy one
	 * returns.
	 */
	uint32_t posted;
	uint32_t fill_max;
	bool fill_max_set;		/* fill_max given by the socket options */
	struct xskx_fq_cq *next;	/* in umem->pairs */
};

/* The TX timestamps a socket keeps until xskx_tx_timestamps() takes them. */
struct xskx_tx_ts_ring {
	struct xskx_tx_timestamp *ts;	/* NULL: no XSKX_TX_META_TIMESTAMP */
	uint32_t mask;			/* entries - 1, a power of two */
	uint32_t head;			/* oldest */
	uint32_t count;
};

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
	 * after it (lib/rings/completion.c, comp_addr_bit0_restored()).
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

#endif /* XSKX_RINGS_RINGS_H */
