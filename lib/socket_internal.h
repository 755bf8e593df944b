/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The socket as the burst API and the backends see it. */
#ifndef XSKX_SOCKET_INTERNAL_H
#define XSKX_SOCKET_INTERNAL_H

#include <stdint.h>
#include <xskx/socket.h>

#include "port_internal.h"
#include "tx_meta.h"
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
	uint32_t tx_options;		/* xdp_desc options TX accepts */
	uint32_t max_frags;		/* descriptors of one TX packet, at most */
	struct xskx_stats stats;	/* library counters; peer's read on demand */
	int deferred_err;		/* a failed kick, for the next burst */
	/* TX metadata: asked for (opts.tx_metadata), and what the peer honours. */
	uint32_t tx_meta;
	uint32_t tx_meta_supported;	/* set by the backend's open */
	struct xskx_tx_ts_ring tx_ts;

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

#endif /* XSKX_SOCKET_INTERNAL_H */
