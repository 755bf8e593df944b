/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The forwarding core of xskx-l2fwd and xskx-fw: one queue of one or two
 * ports, served by one thread. Every socket of the queue shares one UMEM, so
 * a frame received on one port is transmitted on the other as it is: no
 * copy.
 *
 *   forward  port 0 RX -> port 1 TX,  port 1 RX -> port 0 TX
 *   reflect  port 0 RX -> MACs swapped -> port 0 TX
 *
 * When the egress TX ring is full (or its completions are), the queue
 * chooses (fwd_config.tx_full):
 *
 *   hold  the packets TX cannot take yet are held and retried before the
 *         ingress port is read again: a slow egress slows the ingress down,
 *         and the backpressure travels to the NIC (its RX ring fills, then
 *         it misses packets) rather than the forwarder losing any. Default.
 *   drop  what TX did not take right away goes back to the pool, counted
 *         in tx_full_drops, and the ingress port is read on: the NIC keeps
 *         receiving, the packets a slow egress cannot send are lost here.
 *
 * The backend is whatever the ports are, kernel interfaces or simulated
 * ports; the code is the same. The packets are read and judged where they
 * arrived, on the RX ring (xskx_rx_peek()), and go to TX or back to FILL
 * in one call per batch (xskx_rx_verdict(), xskx/verdict.h): the library's
 * batch API, without a per-frame step of its own. Only packets held for
 * room on TX leave the RX ring as the application's (XSKX_PKT_KEEP) and
 * go to TX through the burst API, as the ring frees up.
 */
#ifndef XSKX_EXAMPLES_FWD_H
#define XSKX_EXAMPLES_FWD_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/xskx.h>

#include "capture_writer.h"
#include "eth.h"

#define FWD_MAX_PORTS 2
/* Forwarding queues per run: a thread, a UMEM and a socket per port each. */
#define FWD_MAX_QUEUES 64

/*
 * What one port of one queue did. Written only by the queue's thread, with
 * atomic stores, so that another thread may read them at any time
 * (fwd_counters_read).
 */
struct fwd_counters {
	/* Packets: with multi_buffer a chain of fragments counts once. */
	uint64_t rx;	  /* received on this port */
	uint64_t tx;	  /* accepted by this port's TX ring */
	uint64_t tx_full_drops; /* received here, released: egress TX was full */
	uint64_t tx_rejected; /* received here, released: egress TX refused it */
	uint64_t dropped; /* received here, never sent: still held at the end */
	/* received here with a partial TCP/UDP checksum, completed */
	uint64_t csum_completed;
};

enum fwd_tx_full {
	FWD_TX_FULL_HOLD = 0,
	FWD_TX_FULL_DROP,
	FWD_TX_FULL_CHOICES,
};

/* "hold", "drop": the names the programs' --tx-full takes. */
extern const char *const fwd_tx_full_names[FWD_TX_FULL_CHOICES];

struct fwd_port {
	struct xskx_port *port;	/* the library's port, not owned */
	struct xskx_socket *sock;
	/*
	 * The RX batch being judged (xskx/batch.h): views of its entries
	 * (pkts) and their verdicts (XSKX_PKT_PASS or XSKX_PKT_DROP,
	 * xskx/verdict.h); passing: the packets among them that pass.
	 */
	struct xskx_rx_batch batch;
	struct xskx_pkt *pkts;
	uint8_t *verdicts;
	uint32_t passing;
	/*
	 * Received here, passing, not yet taken by the egress port's TX ring
	 * (hold): kept off the RX ring by their verdict (XSKX_PKT_KEEP) and
	 * sent with xskx_tx_burst() as TX makes room.
	 */
	struct xskx_pkt *held;
	uint32_t held_next, held_count;
	struct fwd_counters count;
};

/*
 * Optional: a verdict on each received batch before it is forwarded (a
 * firewall's). pkts[0..n) are views of the batch's entries, to read (or
 * rewrite in place) but not to keep; verdicts[0..n) come in as
 * XSKX_PKT_PASS, and the filter sets XSKX_PKT_DROP on the packets whose
 * frames go back to the pool. With multi_buffer a packet is a chain
 * (xskx_pkt_frags()), judged whole by the verdict of its first entry.
 * port: the index of the port they arrived on.
 */
typedef void (*fwd_filter_fn)(void *ctx, uint32_t port,
			      const struct xskx_pkt *pkts, uint32_t n,
			      uint8_t *verdicts);

struct fwd_queue {
	struct xskx_umem *umem;
	struct fwd_port ports[FWD_MAX_PORTS];
	uint32_t nports; /* 1: reflect */
	uint32_t batch;
	bool multi_buffer; /* packets may be chains: counted as one each */
	bool keep_partial_csum;
	enum fwd_tx_full tx_full;
	fwd_filter_fn filter;
	void *filter_ctx;
	/* what TX accepted is copied here (capture_writer.h), or NULL */
	struct capture_ring *capture;
};

struct fwd_config {
	/* open ports (xskx/port.h): kernel interfaces or simulated ports */
	struct xskx_port *ports[FWD_MAX_PORTS];
	uint32_t nports;  /* 1: reflect on ports[0] */
	uint32_t queue_id;
	uint32_t batch;	  /* packets per batch (--batch); 0: 64 */
	uint32_t frames;  /* UMEM frames; 0: the library's default */
	uint32_t rx_size; /* RX ring entries per socket; 0: the library's default */
	enum fwd_tx_full tx_full;    /* 0: hold */
	/*
	 * XSKX_SOCKET_MULTI_BUFFER on every socket: jumbo frames (MTU 9000)
	 * arrive and leave as chains of fragments, forwarded whole. A filter
	 * then keeps or drops each chain whole (xskx_pkt_frags()).
	 */
	bool multi_buffer;
	/*
	 * Forward partial TCP/UDP checksums as they arrived. By default every
	 * packet to be forwarded goes through xskx_pkt_csum_complete(): a
	 * packet a local stack sent into a veth with TX checksum offload on
	 * (the default) carries only the pseudo-header's sum, which copy-mode
	 * TX would send on as it is, for the receiver to drop.
	 */
	bool keep_partial_csum;
	/* xskx_socket_opts' TX wakeup coalescing, on every socket; 0: none */
	uint32_t tx_kick_batch, tx_kick_usec;
	fwd_filter_fn filter;	     /* NULL: forward everything */
	void *filter_ctx;
	/*
	 * Every packet a TX ring accepts is copied to a ring of this writer
	 * (one per queue, capture_writer_take_ring()) for its thread to write:
	 * xskx-l2fwd's and xskx-fw's --pcap-out on interfaces. NULL: none.
	 */
	struct capture_writer *capture;
	/* A filter's: where it copies what it drops (xskx-fw --pcap-drops). */
	struct capture_writer *drops;
};

/*
 * Create the queue's UMEM and open a socket on each port. Returns 0 or the
 * library's negative errno; xskx_last_error() says why. On failure whatever
 * was opened is closed again.
 */
int fwd_open(struct fwd_queue *q, const struct fwd_config *cfg);

/*
 * One round: on each port that holds nothing, receive a batch and hand it
 * to its egress port; on each that holds packets, hand those. Returns the
 * descriptors received plus those taken or sent (0: nothing moved) or a
 * negative errno from the library.
 */
int fwd_step(struct fwd_queue *q);

/* Packets held right now, waiting for room on an egress TX ring (hold). */
uint32_t fwd_held(const struct fwd_queue *q);

/*
 * Block in poll(2) until a port has received a packet or timeout_ms has
 * passed, and return 1; return 0 at once where blocking could strand a
 * packet: some are held for room on TX (the next step sends them as TX
 * completes, which poll(2) on RX would not see), or the sockets have no
 * file descriptor (the simulated NIC). Packets that coalesced TX wakeups
 * (tx_kick_batch) left on a TX ring do not wait out the sleep: poll(2) on
 * an AF_XDP socket with need_wakeup wakes its TX itself (the kernel's
 * xsk_poll(): a sendmsg in copy mode, the driver's wakeup in zero-copy).
 * A negative errno if poll fails.
 */
int fwd_wait(struct fwd_queue *q, int timeout_ms);

/*
 * At the end of a run: give held packets back to the pool, counting them as
 * dropped, and reclaim what the egress ports have completed.
 */
void fwd_finish(struct fwd_queue *q);

/*
 * Close the sockets (the last receiving one on a kernel port detaches the
 * XDP program) and the UMEM; the ports stay open. Safe on a queue fwd_open() failed on. Returns 0 or
 * the first negative errno met; it closes everything it can regardless.
 */
int fwd_close(struct fwd_queue *q);

/* A consistent-enough snapshot of a port's counters, from any thread. */
void fwd_counters_read(const struct fwd_port *port, struct fwd_counters *c);

/* sum += c: a port's counters over several queues. */
void fwd_counters_add(struct fwd_counters *sum, const struct fwd_counters *c);

/*
 * Whether the port's socket is bound in zero-copy mode, as the kernel
 * reports it (the library chooses zero-copy where the driver has it).
 */
bool fwd_port_zero_copy(const struct fwd_port *port);

/* Packets received on a port that the forwarder gave up, for any reason. */
static inline uint64_t fwd_given_up(const struct fwd_counters *c)
{
	return c->tx_full_drops + c->tx_rejected + c->dropped;
}

/* What reflect does to every frame (tests build their expected frames with it). */
static inline void fwd_swap_macs(uint8_t *frame)
{
	eth_swap_macs(frame);
}

#endif /* XSKX_EXAMPLES_FWD_H */
