/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The simulated machine's insides: ports and their queues, the UMEM
 * registrations and FILL/COMPLETION pairs (the kernel's xsk_buff_pool),
 * sockets, and the small inline rules every step of a packet applies. It
 * declares no function of any file: each file of lib/sim has its own
 * header for what it exports, so that a file imports only the steps it
 * calls and the steps form layers without a circle (docs/ARCHITECTURE.md,
 * "The simulated NIC's files").
 *
 * Who touches what. All NIC work — sources, NAPI polls, TX, wire — runs
 * with the machine lock held: inside the caller's kicks and xskx_sim_poll()
 * in deterministic mode, on the NIC thread in threaded mode (which drops
 * the lock between rounds). Control calls (bind, close, port settings) take
 * the same lock. What other threads read without it — counters, ring
 * indices and flags, faults — is read and written with atomics.
 */
#ifndef XSKX_SIM_INTERNAL_H
#define XSKX_SIM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <xskx/if_xdp_compat.h>
#include <xskx-sim/sim.h>

#include "sim_ring.h"

/* Copy-mode transmit: fragments per packet (MAX_SKB_FRAGS + 1). */
#define SIM_COPY_MAX_FRAGS 18
/* Upper bound of xskx_sim_port_opts.max_frags (stack arrays of segments). */
#define SIM_MAX_FRAGS 64

/* The kernel's XDP_WAKEUP_RX / XDP_WAKEUP_TX (include/net/xdp_sock_drv.h). */
#define SIM_WAKEUP_RX (1u << 0)
#define SIM_WAKEUP_TX (1u << 1)

/* Work another thread asks of a queue in threaded mode (sim_queue.kicks). */
#define SIM_KICK_RX (1u << 0)	   /* recvfrom/poll: NAPI poll now */
#define SIM_KICK_TX (1u << 1)	   /* sendto/poll, zero-copy: wake TX */
#define SIM_KICK_TX_COPY (1u << 2) /* sendto/poll, copy mode: one pass */

/*
 * Counters have one writer (whoever holds the machine lock) and readers on
 * any thread: a relaxed load and store instead of a locked add.
 */
static inline void sim_count(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter,
			 __atomic_load_n(counter, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

static inline uint64_t sim_counter(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* A packet as a list of byte ranges (one per UMEM frame it occupies). */
struct sim_seg {
	const uint8_t *data;
	uint32_t len;
};

struct sim_pkt {
	const struct sim_seg *segs;
	uint32_t nsegs;
	uint32_t len;
};

/* setsockopt(XDP_UMEM_REG): the kernel's struct xdp_umem. */
struct sim_umem {
	uint8_t *area;
	uint64_t size;
	uint32_t chunk_size;
	uint32_t headroom;
	bool unaligned;
	/* XDP_UMEM_TX_METADATA_LEN's room in front of every TX descriptor */
	uint32_t tx_metadata_len;
	/* A packet's first fragment, copied to take the checksum it asks for. */
	uint8_t *tx_scratch;
	bool zc;       /* set by a zero-copy bind, as umem->zc */
	bool sg;       /* XDP_USE_SG given at bind (XDP_UMEM_SG_FLAG) */
	uint32_t refs; /* sockets holding the registration */
};

/*
 * A FILL/COMPLETION pair bound to one queue, with what the NIC knows about
 * the UMEM: the kernel's struct xsk_buff_pool.
 */
struct sim_pool {
	struct sim_umem *umem;
	struct sim_ring *fq;
	struct sim_ring *cq;
	struct sim_queue *queue;
	uint32_t users;	      /* sockets bound with this pair */
	uint32_t frame_room;  /* data bytes per frame: chunk - headroom - 256 */
	uint32_t data_offset; /* data from frame start: 256 + headroom */
	bool zc;
	bool need_wakeup;
	uint8_t cached_need_wakeup; /* SIM_WAKEUP_*: flags as set in the rings */
};

/* One descriptor of the hardware RX ring. */
struct sim_hw_slot {
	uint64_t addr;	/* frame start (its handle in the pool) */
	uint32_t len;	/* bytes received into it */
	uint32_t contd; /* more fragments of this packet follow */
};

struct sim_queue {
	struct xskx_sim_port *port;
	uint32_t index;
	struct sim_pool *pool;	   /* NULL: no socket bound */
	struct sim_xsk *sockets;   /* bound here, in bind order */
	struct sim_xsk *rx_target; /* the newest of them with an RX ring */
	/* xskx's program passed a packet here for want of rx_target. */
	uint64_t no_socket;

	/*
	 * The hardware RX ring: [ntc, ntr) hold received packets waiting for
	 * the NAPI poll, [ntr, ntu) posted empty buffers, the rest is unused
	 * until the next refill.
	 */
	struct sim_hw_slot *hw;
	uint32_t hw_size;
	uint32_t ntc, ntr, ntu;
	uint32_t received, posted;
	/*
	 * Frames the NIC keeps for reuse — recycled by the poll, or taken for
	 * a copy that met a full RX ring — used before FILL is read.
	 */
	uint64_t *spare;
	uint32_t nspare;

	bool rx_sched;		/* NAPI poll pending (arrival, kick, budget) */
	bool tx_awake;		/* zero-copy TX runs in every round */
	uint32_t tx_dry_passes; /* passes in a row that found nothing */
	uint32_t tx_next;	/* first socket of the next TX pass */
	/* Rounds left to look again at rings whose flag went up (sim_ring.h). */
	uint32_t wakeup_watch;
	/* SIM_KICK_*, set by other threads: a line of its own. */
	uint32_t kicks __attribute__((aligned(SIM_CACHE_LINE)));
};

struct sim_source;
struct sim_capture_out;

struct xskx_sim_port {
	struct xskx_sim *sim;
	struct xskx_sim_port *next;
	char *name;
	uint32_t nqueues;
	uint32_t mtu;
	uint32_t hw_ring_size;
	uint32_t hw_tx_ring_size;
	uint32_t napi_budget;
	uint32_t refill_batch;
	uint32_t max_frags;
	enum xskx_sim_rx_full_policy rx_full_policy;
	bool no_zero_copy;
	bool rx_meta;	 /* a library port with XSKX_PORT_RX_METADATA is open */
	bool lib_port;	 /* a library port (xskx_port_open_sim()) is open */
	bool tx_stalled; /* atomic */
	bool link_down;	 /* atomic */
	int wakeup_error; /* atomic: every wakeup fails with it (0: none) */

	struct sim_queue *queues;
	struct xskx_sim_port *peer;
	xskx_sim_xdp_fn xdp;
	xskx_sim_xdp_buff_fn xdp_buff; /* set instead of xdp, never both */
	/*
	 * The hook is the user's: packets it passes on a queue without a
	 * socket are its business, not counted in sim_queue.no_socket as
	 * xskx's program (the default hook, the deny list's) counts them.
	 */
	bool xdp_yours;
	void *xdp_ctx;
	xskx_sim_sink_fn sink;
	void *sink_ctx;
	/*
	 * A packet from the wire enters the port here: RSS, then its queue's
	 * RX (sim_port.c sets it at creation). The wire calls it through this
	 * pointer because the wire lies below the RX path it feeds: NAPI's
	 * XDP_TX and the TX path send on the wire, and the wire's other end
	 * receives into NAPI again; a direct call would close that circle.
	 */
	bool (*receive)(struct xskx_sim_port *port, const struct sim_pkt *pkt);
	struct sim_capture_out *capture; /* sim_capture_write.c; NULL: none */
	struct sim_source *sources;
	/*
	 * Linear copy of a packet for the sink and for queues without a pool:
	 * scratch_size bytes at scratch, behind XSKX_XDP_PACKET_HEADROOM
	 * bytes of its allocation (where the XDP hook puts metadata, as in a
	 * driver's RX buffer).
	 */
	uint8_t *scratch;
	uint32_t scratch_size;
	struct xskx_sim_port_stats stats; /* sim_count() */
};

struct xskx_sim {
	enum xskx_sim_mode mode;
	int cpu_plus_one;
	bool busy_poll; /* kicks poll the queue (xskx_sim_opts.busy_poll) */
	pthread_mutex_t lock;
	pthread_cond_t nic_wake; /* the idle NIC thread sleeps here */
	pthread_mutex_t poll_lock;
	pthread_cond_t poll_wake; /* xskx__sim_xsk_poll() waits here */
	struct xskx_sim_port *ports;
	uint32_t nports;
	uint32_t nsockets;
	pthread_t thread;
	bool running;	  /* atomic: the NIC thread runs */
	bool stopping;	  /* atomic */
	int nic_sleeping; /* atomic */
	int kick_pending; /* atomic */
	int poll_waiters; /* atomic */
	int ctl_waiters;  /* atomic: threads waiting for the lock */
	/* A driver buffer (sim_rx_driver.c) holds a packet right now. */
	bool in_direct_rx;
};

enum sim_xsk_state {
	SIM_XSK_READY,
	SIM_XSK_BOUND,
};

struct sim_xsk {
	struct xskx_sim *sim;
	enum sim_xsk_state state;
	struct sim_umem *umem;
	struct sim_ring *rx;
	struct sim_ring *tx;
	struct sim_ring *fq_tmp; /* FILL/COMP until bind hands them to a pool */
	struct sim_ring *cq_tmp;
	struct sim_pool *pool;
	struct sim_queue *queue;
	struct sim_xsk *next; /* in queue->sockets */
	bool zc;
	bool sg;
	/* A bad fragment was seen: consume to the end of its packet. */
	bool tx_skip_to_eop;
	/* tx_ring_empty_descs was counted and nothing was sent since. */
	bool tx_seen_empty;
	/* Threaded copy mode: a sendto asked for a pass (atomic). */
	bool copy_kick;
	/* Copy mode: descriptors a sendto sends at most (atomic). */
	uint32_t max_tx_budget;
	/*
	 * Copy mode: the last pass stopped at a packet whose TX metadata the
	 * kernel refuses; it stays at the head of TX and sendto fails with
	 * EINVAL (atomic).
	 */
	bool tx_meta_refused;
	uint64_t rx_dropped;
	uint64_t rx_queue_full;
};

/* A packet's fragments in the pool's frames. */
static inline uint32_t sim_frags(const struct sim_pool *pool, uint32_t len)
{
	return len <= pool->frame_room ? 1 : (len - 1) / pool->frame_room + 1;
}

/* Where a frame's packet data starts. */
static inline uint8_t *sim_frame_data(const struct sim_pool *pool,
				      uint64_t frame)
{
	return pool->umem->area + frame + pool->data_offset;
}

/* The address an RX descriptor carries: xp_get_handle() in the kernel. */
static inline uint64_t sim_rx_handle(const struct sim_pool *pool,
				     uint64_t frame)
{
	if (pool->umem->unaligned)
		return frame | (uint64_t)pool->data_offset
				       << XSK_UNALIGNED_BUF_OFFSET_SHIFT;
	return frame + pool->data_offset;
}

/*
 * The frame a FILL entry names, and whether it is a valid one:
 * xp_check_aligned() / xp_check_unaligned() in the kernel. Unaligned mode
 * adds the offset bits to the address: the buffer starts there.
 */
static inline bool sim_fill_frame(const struct sim_umem *umem, uint64_t *addr)
{
	if (umem->unaligned) {
		*addr = (*addr & XSK_UNALIGNED_BUF_ADDR_MASK) +
			(*addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT);
		return *addr < umem->size &&
		       *addr + umem->chunk_size <= umem->size;
	}
	*addr &= ~((uint64_t)umem->chunk_size - 1);
	return *addr < umem->size;
}

#endif /* XSKX_SIM_INTERNAL_H */
