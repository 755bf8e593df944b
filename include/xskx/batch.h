/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The batch API: packets read and written where they lie, on the rings.
 *
 * The burst API (xskx/socket.h) copies each descriptor into a packet view
 * and takes it back from one, marking every frame held on the way out and
 * checking it on the way back. That is what makes a double release or a
 * foreign address an error, and it costs each packet about as much again
 * as the bare ring operations. The batch API keeps the same guarantees
 * without a per-frame step, by never letting a frame's address into the
 * application's hands:
 *
 *   xskx_rx_peek()     a run of received packets, left on the RX ring;
 *                      read them with xskx_rx_batch_data()/_len().
 *   xskx_rx_recycle()  their frames straight back to FILL (the rest of
 *                      the queue's share to the pool), RX released.
 *   xskx_rx_forward()  as many as fit onto a TX ring of a socket on the
 *                      same UMEM, descriptor for descriptor; the rest
 *                      stay in the batch for the next call.
 *   xskx_tx_reserve()  TX slots with free frames from the pool in them,
 *                      every packet len bytes at first;
 *   xskx_tx_submit()   the first n sent, the others' frames back to the
 *                      pool.
 *
 * The library writes every address: a batch cannot carry one outside the
 * UMEM or past its frame, and a length is checked where it is set. A TX
 * batch's descriptors lie on the ring, in reach of the application:
 * xskx_tx_submit() checks each one it sends against what xskx_tx_reserve()
 * wrote, and gives the frames of those it does not send back as reserved,
 * so that writing into them loses no frame. What
 * the application cannot do with a batch is keep one of its packets and
 * give back the others: a packet to keep goes through xskx_rx_burst().
 *
 * A socket has at most one open RX batch and one open TX batch. While one
 * is open, the calls that would move the same ring under it
 * (xskx_rx_burst(), xskx_rx_peek(); xskx_tx_burst(), xskx_tx_reserve(),
 * xskx_rx_forward() into it) return -EBUSY, naming the call that closes
 * it. xskx_socket_close() closes both: a batch's frames go back with the
 * socket's other frames. The census counts a peeked packet's frame under
 * rx until it is recycled or forwarded, and a reserved frame under app
 * until it is submitted.
 *
 * With multi-buffer, an RX batch holds whole chains (as a burst does), one
 * entry per fragment, XDP_PKT_CONTD in xskx_rx_batch_options(); a TX batch
 * holds single-frame packets only.
 */
#ifndef XSKX_BATCH_H
#define XSKX_BATCH_H

#include <stdint.h>
#include <xskx/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_socket;

/*
 * Received packets: n descriptors in a row, read-only. They are the RX
 * ring's own (a batch stops where the ring wraps), or, for a chain of
 * fragments that runs across the ring's end, the socket's copy of them.
 */
struct xskx_rx_batch {
	const struct xdp_desc *desc;	/* entries [0, n) */
	uint8_t *area;			/* the UMEM */
	uint32_t n;			/* entries still in the batch */
	uint32_t unaligned;		/* unaligned chunks: decode offsets */
};

/* Packets to send, entries [0, n) of a run of the TX ring. */
struct xskx_tx_batch {
	struct xdp_desc *ring;		/* the TX ring's descriptors */
	uint8_t *area;
	uint32_t idx;
	uint32_t mask;
	uint32_t n;			/* slots reserved */
	uint32_t room;			/* the most bytes a packet may have */
	uint64_t bytes;			/* of the n packets, as their lengths stand */
};

/* Entry i's data, inside the UMEM; writable, to rewrite before forwarding. */
static inline uint8_t *xskx_rx_batch_data(const struct xskx_rx_batch *b,
					  uint32_t i)
{
	uint64_t addr = b->desc[i].addr;

	if (b->unaligned)
		addr = xsk_umem__add_offset_to_addr(addr);
	return b->area + addr;
}

static inline uint32_t xskx_rx_batch_len(const struct xskx_rx_batch *b,
					 uint32_t i)
{
	return b->desc[i].len;
}

/* XDP_PKT_CONTD: a fragment other than its packet's last (multi-buffer). */
static inline uint32_t xskx_rx_batch_options(const struct xskx_rx_batch *b,
					     uint32_t i)
{
	return b->desc[i].options;
}

/*
 * Peek at up to max received packets: *batch describes them where they lie
 * on the RX ring, up to its end (the next call starts from the ring's
 * start). Returns how many (0 when none), or a negative errno:
 * -EINVAL (NULL arguments, a socket without an RX ring, or with
 * multi-buffer a next packet of more than max fragments), -EBUSY (this
 * socket's RX batch is still open), or a failed kick as xskx_rx_burst()
 * returns it. Refills FILL and kicks the peer by xskx_rx_burst()'s rules.
 * The batch stays open, and its frames the peer's to not reuse, until
 * xskx_rx_recycle() or xskx_rx_forward() has taken every entry. Counts
 * rx_packets now and rx_bytes as the entries are taken.
 */
int xskx_rx_peek(struct xskx_socket *sock, struct xskx_rx_batch *batch,
		 uint32_t max);

/*
 * Give the frames of every entry left in the batch straight back to FILL —
 * as many as the queue's share (fill_max) and the ring take; the rest to
 * the pool — and release them from RX, closing the batch. Returns the
 * entries recycled, or -EINVAL when batch is not the socket's open RX
 * batch. No syscall.
 */
int xskx_rx_recycle(struct xskx_socket *sock, struct xskx_rx_batch *batch);

/*
 * Put the batch's entries, from the first, onto out's TX ring as they are
 * (out may be sock itself; it must be on the same UMEM): as many as TX has
 * room for, never splitting a chain. The entries forwarded leave the batch
 * (entry 0 is then the first one not forwarded); the batch closes when
 * none is left. Reclaims out's completions first and kicks out by
 * xskx_tx_burst()'s rules. Returns the entries forwarded (0 when TX is
 * full: call again, or recycle them), or a negative errno: -EINVAL (not
 * sock's open batch, out on another UMEM or without a TX ring, chains into
 * a socket without multi-buffer), -EBUSY (out's TX batch is open), or the
 * error of a kick that failed for a reason other than "try again"
 * (-ENXIO...): the entries forwarded before it are on out's TX ring all
 * the same and have left the batch (batch->n says how many are left).
 * Nothing is left for a later call.
 */
int xskx_rx_forward(struct xskx_socket *sock, struct xskx_rx_batch *batch,
		    struct xskx_socket *out);

/*
 * Reserve up to max TX slots, each with a free frame from the UMEM's pool
 * and a length of len bytes (what most senders send every time; change one
 * with xskx_tx_batch_set_len()). Reclaims completions first. Returns how
 * many (0 when TX or the pool has none: submit the empty batch to kick a
 * peer that waits), or a negative errno: -EINVAL (NULL arguments, no TX
 * ring, len 0 or above a frame's room: frame size less the UMEM's
 * headroom and TX metadata room), -EBUSY (the socket's TX batch is open).
 * On a UMEM with tx_metadata_len the data starts past that room, as at
 * xskx_umem_tx_addr(); a batch's packets carry no TX metadata.
 */
int xskx_tx_reserve(struct xskx_socket *sock, struct xskx_tx_batch *batch,
		    uint32_t max, uint32_t len);

/*
 * Entry i's data: write the packet here (the frame's start plus headroom
 * and TX metadata room).
 */
static inline uint8_t *xskx_tx_batch_data(const struct xskx_tx_batch *b,
					  uint32_t i)
{
	return b->area + b->ring[(b->idx + i) & b->mask].addr;
}

/*
 * Set entry i's length. Returns 0, or -EINVAL naming the culprit for an
 * entry outside the batch or a length of 0 or above the batch's room.
 */
int xskx_tx_batch_set_len(struct xskx_tx_batch *batch, uint32_t i,
			  uint32_t len);

/*
 * Send entries [0, n) of the batch and give the frames of the others back
 * to the pool (as reserved, whatever their descriptors say), closing it;
 * kicks the peer by xskx_tx_burst()'s rules. Returns n, or a negative
 * errno: -EINVAL (batch not the socket's open TX batch, n above its
 * entries, or one of the n descriptors written into since the reserve —
 * another address, options, a length out of 1..room — named by its index:
 * nothing is sent and the batch stays open), or the error of a kick that
 * failed for a reason other than "try again" (-ENXIO...): the n packets
 * are on TX all the same and the batch is closed (batch->n is 0). Nothing
 * is left for a later call. The check costs about 6 instructions per
 * packet at a batch of 64 (docs/PERFORMANCE.md); no syscall of its own.
 */
int xskx_tx_submit(struct xskx_socket *sock, struct xskx_tx_batch *batch,
		   uint32_t n);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_BATCH_H */
