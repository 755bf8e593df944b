// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The TX side of a queue: descriptors from the sockets' TX rings, checked
 * as the kernel checks them, out of the port, their addresses on the
 * COMPLETION ring in order.
 *
 * A pass takes as many descriptors as COMPLETION has room for (the kernel's
 * backpressure: nothing is taken that could not be completed), up to its
 * budget: the hardware TX ring (zero-copy), or the socket's budget per
 * sendto (copy mode: the kernel's TX_BATCH_SIZE of 32, or what
 * XDP_MAX_TX_SKB_BUDGET set). The hardware sends at once, so every frame
 * taken is completed within the same pass and none stays in flight.
 *
 * A descriptor is invalid when its length is 0, it runs past its chunk
 * (aligned) or its length exceeds a chunk (unaligned), it lies outside the
 * UMEM, or it has an option bit other than XDP_PKT_CONTD and
 * XDP_TX_METADATA (xp_aligned_validate_desc / xp_unaligned_validate_desc).
 * On a UMEM with tx_metadata_len the descriptor is taken to start that
 * many bytes earlier, whatever its options: without that room inside its
 * chunk it is invalid. A packet's TX metadata: sim_tx_meta.c. A packet is a
 * chain of descriptors with XDP_PKT_CONTD on all but the last; one invalid
 * descriptor, or more fragments than the device takes, makes the whole
 * packet invalid, up to the end of its chain. Every descriptor of an
 * invalid packet is consumed and counted in tx_invalid_descs (measured on
 * 6.18, veth, copy mode: 18 descriptors with XDP_PKT_CONTD and the one
 * that ends them, 19 counted, none sent). Zero-copy never completes them. Copy mode
 * does, as the 6.18 kernel was measured to (veth, raw rings): a sendto puts
 * the addresses of the invalid packet's descriptors taken so far on
 * COMPLETION, in order with the others and whatever they are, and stops
 * right after the first invalid descriptor, returning 0; the rest of that
 * packet's chain goes the same way, one descriptor per sendto. A chain
 * whose end the application has not yet published stays on the ring.
 *
 * need_wakeup (zero-copy): a kick clears the TX flags of the queue's
 * sockets and keeps the NIC sending round after round; when passes find
 * the rings empty the flags go up and TX sleeps until the next kick (see
 * tx_linger). In copy mode TX runs only inside sendto/poll and the flag
 * stays up.
 *
 * tx_ring_empty_descs counts passes that found a socket's TX ring empty:
 * every such sendto/poll, as the kernel's copy path counts, and once per
 * idle period for a NIC that polls on its own.
 */
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_ring.h"
#include "sim_tx.h"
#include "sim_tx_meta.h"
#include "sim_wire.h"

#define SIM_TX_LINGER_ROUNDS 256

static bool tx_desc_valid(const struct sim_umem *umem, const struct xdp_desc *d)
{
	uint64_t room = umem->tx_metadata_len, len = d->len + room, addr;

	if (!d->len ||
	    d->options & ~(uint32_t)(XDP_PKT_CONTD | XDP_TX_METADATA))
		return false;
	if (umem->unaligned) {
		/* An address below the room wraps past the UMEM. */
		addr = (d->addr & XSK_UNALIGNED_BUF_ADDR_MASK) +
		       (d->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT) - room;
		return len <= umem->chunk_size && addr < umem->size &&
		       addr + len <= umem->size;
	}
	addr = d->addr - room;
	return (addr & (umem->chunk_size - 1)) + len <= umem->chunk_size &&
	       addr < umem->size;
}

static const uint8_t *tx_data(const struct sim_umem *umem, uint64_t addr)
{
	return umem->area + (addr & XSK_UNALIGNED_BUF_ADDR_MASK) +
	       (addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT);
}

enum tx_stop {
	TX_DRY,	   /* no complete packet left on the ring */
	TX_BUDGET, /* budget spent; there may be more */
	TX_COMP_FULL,
	TX_INVALID, /* copy mode: a sendto ends at an invalid descriptor */
	TX_META_REFUSED, /* copy mode: metadata refused, the packet stays */
};

/* Descriptors [from, to) of TX to COMPLETION, after the *completed before. */
static void complete(struct sim_ring *tx, struct sim_ring *cq, uint32_t from,
		     uint32_t to, uint32_t *completed)
{
	for (uint32_t k = from; k < to; k++)
		*sim_ring_addr(cq, cq->cached_prod + (*completed)++) =
			sim_ring_desc(tx, tx->cached_cons + k)->addr;
}

/* Send what one socket's TX ring holds, within budget; returns descriptors taken. */
static uint32_t tx_socket(struct sim_queue *q, struct sim_xsk *xs,
			  uint32_t budget, uint32_t max_frags, bool kicked,
			  enum tx_stop *stop)
{
	struct sim_pool *pool = q->pool;
	const struct sim_umem *umem = pool->umem;
	struct sim_ring *tx = xs->tx, *cq = pool->cq;
	struct sim_seg segs[SIM_MAX_FRAGS];
	bool copy = !pool->zc;
	/*
	 * Copy mode looks for the next descriptor before it counts the budget
	 * (__xsk_generic_xmit()): a ring holding exactly the budget is sent
	 * and found dry, not "try again".
	 */
	uint32_t seen = sim_ring_cons_avail(tx, copy ? budget + 1 : budget);
	uint32_t avail = seen < budget ? seen : budget;
	uint32_t room = sim_ring_prod_free(cq, avail);
	uint32_t i = 0, invalid = 0, completed = 0;

	*stop = seen < budget || (copy && seen == budget) ? TX_DRY : TX_BUDGET;
	while (i < avail) {
		uint32_t start = i, frags = 0;
		bool valid = !xs->tx_skip_to_eop, eop = false;
		struct sim_pkt pkt = { segs, 0, 0 };
		struct xsk_tx_metadata *meta = NULL;

		while (i < avail) {
			const struct xdp_desc *d =
				sim_ring_desc(tx, tx->cached_cons + i++);

			if (valid &&
			    (frags == max_frags || !tx_desc_valid(umem, d)))
				valid = false;
			if (valid) {
				segs[frags].data = tx_data(umem, d->addr);
				segs[frags].len = d->len;
				pkt.len += d->len;
			}
			if (valid && !frags &&
			    xskx__sim_tx_meta_read(umem, d, segs[0].data, copy,
						   &meta) == SIM_TX_META_REFUSE) {
				i = start;
				*stop = TX_META_REFUSED;
				break;
			}
			frags++;
			if (!(d->options & XDP_PKT_CONTD)) {
				eop = true;
				break;
			}
			if (!valid && copy)
				break;
		}
		if (*stop == TX_META_REFUSED) {
			/*
			 * The skb being built is freed without completing the
			 * address (6.18.44; 6.18's first releases completed
			 * it once per refused sendto), and the descriptor
			 * stays at the head of TX.
			 */
			break;
		}
		if (*stop == TX_COMP_FULL)
			break;
		if (!valid && copy) {
			if (i - start > room) {
				i = start;
				*stop = TX_COMP_FULL;
				break;
			}
			complete(tx, cq, start, i, &completed);
			room -= i - start;
		}
		if (!valid) {
			invalid += i - start;
			xs->tx_skip_to_eop = !eop;
			if (!copy)
				continue;
			*stop = TX_INVALID;
			break;
		}
		if (!eop) {
			/* The rest of the chain is not published yet. */
			i = start;
			*stop = TX_DRY;
			break;
		}
		if (frags > room) {
			i = start;
			*stop = TX_COMP_FULL;
			break;
		}
		complete(tx, cq, start, i, &completed);
		room -= frags;
		pkt.nsegs = frags;
		if (meta)
			xskx__sim_tx_meta_checksum(umem, meta, segs, frags);
		xskx__sim_port_transmit(q->port, &pkt, q->index);
		if (meta)
			xskx__sim_tx_meta_complete(meta);
	}
	if (i) {
		sim_ring_cons_release(tx, i);
		xs->tx_seen_empty = false;
	}
	if (completed) {
		cq->cached_prod += completed;
		sim_ring_prod_submit(cq);
	}
	if (invalid)
		sim_count(&tx->invalid_descs, invalid);
	if (*stop == TX_DRY) {
		if (kicked || !xs->tx_seen_empty)
			sim_count(&tx->queue_empty_descs, 1);
		xs->tx_seen_empty = true;
	}
	return i;
}

static void set_tx_flags(struct sim_queue *q, bool up)
{
	for (struct sim_xsk *xs = q->sockets; xs; xs = xs->next) {
		if (!xs->tx)
			continue;
		if (up)
			sim_ring_set_need_wakeup(xs->tx);
		else
			sim_ring_clear_need_wakeup(xs->tx);
	}
}

void xskx__sim_tx_wake(struct sim_queue *q)
{
	struct sim_pool *pool = q->pool;

	q->tx_awake = true;
	if (pool->need_wakeup && pool->zc &&
	    pool->cached_need_wakeup & SIM_WAKEUP_TX) {
		set_tx_flags(q, false);
		pool->cached_need_wakeup &= ~SIM_WAKEUP_TX;
	}
}

/*
 * Raise the flags, then look at the rings once more, and again in the next
 * rounds: entries published just before the flag went up came with no
 * kick (see sim_ring.h).
 */
static void tx_sleep(struct sim_queue *q)
{
	struct sim_pool *pool = q->pool;

	q->tx_awake = false;
	if (!(pool->cached_need_wakeup & SIM_WAKEUP_TX)) {
		set_tx_flags(q, true);
		pool->cached_need_wakeup |= SIM_WAKEUP_TX;
	}
	for (struct sim_xsk *xs = q->sockets; xs; xs = xs->next)
		if (xs->tx && sim_ring_cons_has_more(xs->tx)) {
			xskx__sim_tx_wake(q);
			return;
		}
	xskx__sim_watch_wakeup(q);
}

/*
 * Dry passes before TX sleeps. On the NIC thread, TX lingers for a few
 * microseconds of rounds, as a driver's NAPI keeps running until the
 * completions of what it sent come in and so picks up descriptors queued
 * meanwhile without a kick. Run by kicks and xskx_sim_poll(), it sleeps at
 * the first dry pass, so that tests see the flag when the ring runs dry.
 */
static uint32_t tx_linger(const struct sim_queue *q)
{
	return xskx__sim_thread_running(q->port->sim) ? SIM_TX_LINGER_ROUNDS : 1;
}

/* The next socket after xs with a TX ring, wrapping around. */
static struct sim_xsk *next_sender(struct sim_queue *q, struct sim_xsk *xs)
{
	do
		xs = xs->next ? xs->next : q->sockets;
	while (!xs->tx);
	return xs;
}

uint32_t xskx__sim_tx_zc(struct sim_queue *q, bool kicked)
{
	struct xskx_sim_port *port = q->port;
	uint32_t budget = port->hw_tx_ring_size, done = 0, senders = 0;
	struct sim_xsk *xs = NULL, *first = NULL;
	bool dry = true;

	if (xskx__sim_port_tx_stalled(port))
		return 0;
	/* Start each pass at the next socket, so that none is starved. */
	for (struct sim_xsk *s = q->sockets; s; s = s->next) {
		if (!s->tx)
			continue;
		if (!first)
			first = s;
		if (senders++ == q->tx_next)
			xs = s;
	}
	if (!senders)
		return 0;
	if (!xs)
		xs = first;
	q->tx_next = q->tx_next + 1 < senders ? q->tx_next + 1 : 0;
	for (uint32_t k = 0; k < senders && done < budget; k++) {
		enum tx_stop stop;

		done += tx_socket(q, xs, budget - done, port->max_frags, kicked,
				  &stop);
		dry &= stop == TX_DRY;
		xs = next_sender(q, xs);
	}
	if (done == budget)
		dry = false;
	if (!q->pool->need_wakeup)
		return done;
	if (!dry) {
		q->tx_dry_passes = 0;
		xskx__sim_tx_wake(q);
	} else if (++q->tx_dry_passes >= tx_linger(q)) {
		q->tx_dry_passes = 0;
		tx_sleep(q);
	}
	return done;
}

uint32_t xskx__sim_tx_copy(struct sim_xsk *xs, bool *more)
{
	struct sim_queue *q = xs->queue;
	enum tx_stop stop = TX_BUDGET;
	uint32_t done;

	if (xskx__sim_port_tx_stalled(q->port)) {
		*more = sim_ring_cons_avail(xs->tx, 1) != 0;
		return 0;
	}
	done = tx_socket(q, xs,
			 __atomic_load_n(&xs->max_tx_budget, __ATOMIC_RELAXED),
			 SIM_COPY_MAX_FRAGS, true, &stop);
	__atomic_store_n(&xs->tx_meta_refused, stop == TX_META_REFUSED,
			 __ATOMIC_RELEASE);
	/* After an invalid descriptor the kernel's sendto returns 0. */
	*more = stop != TX_DRY && stop != TX_INVALID && stop != TX_META_REFUSED;
	return done;
}

bool xskx__sim_tx_due(const struct sim_queue *q)
{
	const struct sim_pool *pool = q->pool;

	return pool && pool->zc && (q->tx_awake || !pool->need_wakeup);
}

void xskx__sim_tx_recheck(struct sim_queue *q)
{
	struct sim_pool *pool = q->pool;

	if (!pool || !pool->zc || !pool->need_wakeup || q->tx_awake)
		return;
	for (struct sim_xsk *xs = q->sockets; xs; xs = xs->next)
		if (xs->tx && sim_ring_cons_has_more(xs->tx)) {
			xskx__sim_tx_wake(q);
			return;
		}
}
