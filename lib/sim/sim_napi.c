// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The RX side of a queue bound in zero-copy mode, as a zero-copy driver
 * runs it.
 *
 * The hardware RX ring holds UMEM frames taken from FILL. A packet from the
 * wire is written ("DMA'd") into the next posted frames at the data offset
 * (frame start + XDP_PACKET_HEADROOM + UMEM headroom), one frame per
 * fragment, all or nothing; with no posted frame left the hardware drops it
 * (rx_missed). The NAPI poll then runs the XDP hook on each received
 * packet, in order and within its budget, and acts on the verdict:
 *
 *   REDIRECT  a descriptor per fragment on the bound socket's RX ring,
 *             published once per poll (the kernel's xsk_flush), with the
 *             metadata the hook wrote in front of the first one's data
 *             left there, in the frame's headroom;
 *   PASS      to the sink as the stack; DROP / ABORTED: nothing; TX: out
 *             of the port again —
 *
 * and the frames of packets not redirected are recycled: posted again
 * before anything more is taken from FILL (xp_free / xp_alloc_batch).
 *
 * A full RX ring either stops the poll with the packet left in the hardware
 * ring, for the next poll (zero-copy with need_wakeup and the STOP policy:
 * "xsk: stop NAPI Rx processing on full XSK RQ"), or drops it.
 *
 * need_wakeup (XDP_USE_NEED_WAKEUP): at the end of each poll the FILL
 * ring's flag goes up when the refill fell short, the poll stopped on a
 * full RX ring or no frame is posted, and comes down otherwise; a poll then
 * runs only when something schedules it — an arrival (the interrupt), a
 * kick, or work left over. Without need_wakeup the NIC polls whenever there
 * is work.
 *
 * Queues without a zero-copy pool receive into the driver's own buffers
 * (sim_rx_driver.c).
 */
#include <string.h>

#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_napi.h"
#include "sim_ring.h"
#include "sim_rx_driver.h"
#include "sim_wire.h"
#include "sim_xdp.h"

enum rx_result {
	RX_DELIVERED,
	RX_DROPPED,
	RX_STOP,
};

/* Per-poll tallies, added to the port's counters once per poll. */
struct poll_counts {
	uint64_t redirect;
	uint64_t redirect_err;
	uint64_t pass;
	uint64_t drop;
	uint64_t tx;
	uint64_t wasted;
};

static inline uint32_t hw_next(const struct sim_queue *q, uint32_t i)
{
	return ++i == q->hw_size ? 0 : i;
}

static inline uint32_t hw_unused(const struct sim_queue *q)
{
	return q->hw_size - q->posted - q->received;
}

bool xskx__sim_queue_can_take(struct sim_queue *q, uint32_t len)
{
	uint32_t frags;

	if (!q->pool || !q->pool->zc)
		return xskx__sim_rx_driver_can_take(q, len);
	frags = sim_frags(q->pool, len);
	return frags <= q->posted && frags <= q->port->max_frags;
}

static void dma(struct sim_queue *q, const struct sim_pkt *pkt)
{
	const struct sim_pool *pool = q->pool;
	const struct sim_seg *seg = pkt->segs;
	uint32_t seg_off = 0, left = pkt->len, used = 0;

	do {
		struct sim_hw_slot *slot = &q->hw[q->ntr];
		uint8_t *dst = sim_frame_data(pool, slot->addr);
		uint32_t want = left < pool->frame_room ? left :
							  pool->frame_room;

		slot->len = want;
		left -= want;
		slot->contd = left != 0;
		while (want) {
			uint32_t n = seg->len - seg_off;

			if (n > want)
				n = want;
			memcpy(dst, seg->data + seg_off, n);
			dst += n;
			want -= n;
			seg_off += n;
			if (seg_off == seg->len) {
				seg++;
				seg_off = 0;
			}
		}
		q->ntr = hw_next(q, q->ntr);
		used++;
	} while (left);
	q->posted -= used;
	q->received += used;
}

bool xskx__sim_queue_receive(struct sim_queue *q, const struct sim_pkt *pkt)
{
	struct xskx_sim_port *port = q->port;

	if (!q->pool || !q->pool->zc)
		return xskx__sim_rx_driver(q, pkt);
	if (!xskx__sim_queue_can_take(q, pkt->len)) {
		sim_count(&port->stats.rx_missed, 1);
		return false;
	}
	dma(q, pkt);
	sim_count(&port->stats.rx_packets, 1);
	/* The interrupt: the next round polls this queue. */
	q->rx_sched = true;
	return true;
}

/* Fragments of the packet at next_to_clean. */
static uint32_t packet_frags(const struct sim_queue *q)
{
	uint32_t n = 1, i = q->ntc;

	while (q->hw[i].contd && n < q->received) {
		i = hw_next(q, i);
		n++;
	}
	return n;
}

static struct sim_pkt packet_segs(const struct sim_queue *q, uint32_t frags,
				  struct sim_seg *segs)
{
	struct sim_pkt pkt = { segs, frags, 0 };
	uint32_t i = q->ntc;

	for (uint32_t f = 0; f < frags; f++) {
		segs[f].data = sim_frame_data(q->pool, q->hw[i].addr);
		segs[f].len = q->hw[i].len;
		pkt.len += q->hw[i].len;
		i = hw_next(q, i);
	}
	return pkt;
}

/*
 * The packet at next_to_clean as the XDP hook x left it, to the socket:
 * one descriptor per fragment it kept.
 */
static enum rx_result redirect(struct sim_queue *q, const struct sim_xdp *x,
			       struct poll_counts *c)
{
	const struct sim_pool *pool = q->pool;
	struct sim_xsk *xs = q->rx_target;
	uint32_t frags = x->nr_frags + 1, i = q->ntc;
	struct sim_ring *rx;

	if (!xs) {
		c->redirect_err++;
		return RX_DROPPED;
	}
	/* xsk_rcv_check(): larger than a frame and no XDP_USE_SG. */
	if (frags > 1 && !xs->sg) {
		sim_count(&xs->rx_dropped, 1);
		c->redirect_err++;
		return RX_DROPPED;
	}
	rx = xs->rx;
	if (sim_ring_prod_free(rx, frags) < frags) {
		sim_count(&xs->rx_queue_full, 1);
		c->redirect_err++;
		if (q->port->rx_full_policy == XSKX_SIM_RX_FULL_STOP &&
		    pool->zc && pool->need_wakeup)
			return RX_STOP;
		c->wasted++;
		return RX_DROPPED;
	}
	for (uint32_t f = 0; f < frags; f++) {
		struct xdp_desc *d = sim_ring_desc(rx, rx->cached_prod++);

		d->addr = sim_rx_handle(pool, q->hw[i].addr);
		d->len = f ? x->frag_len[f - 1] : x->buff.len;
		d->options = f + 1 < frags ? XDP_PKT_CONTD : 0;
		i = hw_next(q, i);
	}
	c->redirect++;
	return RX_DELIVERED;
}

/*
 * Free the slots of the packet at next_to_clean: its first to_socket
 * fragments went to the socket, the frames of the others are recycled.
 */
static void consume(struct sim_queue *q, uint32_t frags, uint32_t to_socket)
{
	for (uint32_t f = 0; f < frags; f++) {
		if (f >= to_socket)
			q->spare[q->nspare++] = q->hw[q->ntc].addr;
		q->ntc = hw_next(q, q->ntc);
	}
	q->received -= frags;
}

/*
 * The packet at next_to_clean as the XDP hook sees it: its first buffer,
 * and for a chain the fragments after it. Only a single-buffer packet may
 * grow in its first buffer, to its frame's end.
 */
static void xdp_view(struct sim_queue *q, uint32_t frags, struct sim_xdp *x)
{
	const struct sim_pool *pool = q->pool;
	const struct sim_hw_slot *first = &q->hw[q->ntc];
	uint32_t i = q->ntc;

	sim_xdp_init(x, q, sim_frame_data(pool, first->addr), first->len,
		     frags == 1 ? pool->frame_room - first->len : 0);
	x->frag_room = pool->frame_room;
	x->nr_frags = frags - 1;
	for (uint32_t f = 0; f < x->nr_frags; f++) {
		i = hw_next(q, i);
		x->frag_data[f] = sim_frame_data(pool, q->hw[i].addr);
		x->frag_len[f] = q->hw[i].len;
	}
}

/*
 * What the hook left, into the hardware slots for the stack or TX: the
 * lengths of the fragments it kept (packet_segs() reads that many). The
 * others stay in the packet's slots until consume() recycles them.
 */
static void xdp_apply(struct sim_queue *q, const struct sim_xdp *x)
{
	uint32_t i = q->ntc;

	q->hw[i].len = x->buff.len;
	for (uint32_t f = 0; f < x->nr_frags; f++) {
		i = hw_next(q, i);
		q->hw[i].len = x->frag_len[f];
	}
}

static void post(struct sim_queue *q, uint64_t addr)
{
	struct sim_hw_slot *slot = &q->hw[q->ntu];

	slot->addr = addr;
	slot->len = 0;
	slot->contd = 0;
	q->ntu = hw_next(q, q->ntu);
	q->posted++;
}

static uint32_t refill_from_fill(struct sim_queue *q, uint32_t want)
{
	struct sim_ring *fq = q->pool->fq;
	const struct sim_umem *umem = q->pool->umem;
	uint32_t n = sim_ring_cons_avail(fq, want), valid = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = *sim_ring_addr(fq, fq->cached_cons + i);

		if (sim_fill_frame(umem, &addr)) {
			post(q, addr);
			valid++;
		}
	}
	if (n) {
		sim_ring_cons_release(fq, n);
		if (n != valid)
			sim_count(&fq->invalid_descs, n - valid);
	}
	/* Counted once per attempt that got nothing, as xp_alloc_batch(). */
	if (!valid)
		sim_count(&fq->queue_empty_descs, 1);
	return valid;
}

bool xskx__sim_refill(struct sim_queue *q)
{
	uint32_t want = hw_unused(q), got = 0;

	if (want < q->port->refill_batch)
		return true;
	while (got < want && q->nspare) {
		post(q, q->spare[--q->nspare]);
		got++;
	}
	if (got < want)
		got += refill_from_fill(q, want - got);
	if (got)
		sim_count(&q->port->stats.hw_refills, 1);
	return got == want;
}

static bool rx_has_room_now(struct sim_queue *q, uint32_t frags)
{
	struct sim_ring *rx = q->rx_target->rx;
	uint32_t cons =
		__atomic_load_n(&rx->shared->consumer, __ATOMIC_SEQ_CST);

	return rx->entries - (rx->cached_prod - cons) >= frags;
}

/*
 * The end of a zero-copy poll with need_wakeup: the driver goes to sleep
 * with the FILL flag up when it cannot go on by itself. Right after raising
 * it, look again at what it waits for: the application may have refilled
 * FILL or drained RX just before, and then found the flag down; and keep
 * looking for a few rounds, for entries whose publication the application's
 * flag load overtook (sim_ring.h).
 */
static void fill_wakeup(struct sim_queue *q, bool refill_failed,
			uint32_t stuck_frags)
{
	struct sim_pool *pool = q->pool;

	if (!refill_failed && !stuck_frags && q->posted) {
		if (pool->cached_need_wakeup & SIM_WAKEUP_RX) {
			sim_ring_clear_need_wakeup(pool->fq);
			pool->cached_need_wakeup &= ~SIM_WAKEUP_RX;
		}
		return;
	}
	if (!(pool->cached_need_wakeup & SIM_WAKEUP_RX)) {
		sim_ring_set_need_wakeup(pool->fq);
		pool->cached_need_wakeup |= SIM_WAKEUP_RX;
	}
	if (stuck_frags ? rx_has_room_now(q, stuck_frags) :
			  sim_ring_cons_has_more(pool->fq))
		q->rx_sched = true;
	else
		xskx__sim_watch_wakeup(q);
}

uint32_t xskx__sim_napi_poll(struct sim_queue *q)
{
	struct xskx_sim_port *port = q->port;
	struct sim_pool *pool = q->pool;
	struct sim_seg segs[SIM_MAX_FRAGS];
	struct poll_counts c = { 0 };
	uint32_t done = 0, stuck_frags = 0;
	bool delivered = false, refill_failed;

	q->rx_sched = false;
	while (done < port->napi_budget && q->received) {
		uint32_t frags = packet_frags(q), kept, to_socket = 0;
		enum xskx_xdp_verdict verdict;
		struct sim_pkt pkt;
		struct sim_xdp x;
		uint32_t meta_len;

		xdp_view(q, frags, &x);
		/* Metadata stays where the hook wrote it: in the frame's headroom. */
		verdict = sim_run_xdp(q, &x, &meta_len);
		kept = x.nr_frags + 1;
		switch (verdict) {
		case XSKX_XDP_REDIRECT:
			switch (redirect(q, &x, &c)) {
			case RX_DELIVERED:
				delivered = true;
				to_socket = kept;
				break;
			case RX_STOP:
				/*
				 * Left in the ring as it arrived: the next
				 * poll runs the hook on it again, as a driver
				 * reads the length from its descriptor again.
				 */
				stuck_frags = kept;
				goto out;
			case RX_DROPPED:
				break;
			}
			break;
		case XSKX_XDP_PASS:
			c.pass++;
			xdp_apply(q, &x);
			pkt = packet_segs(q, kept, segs);
			xskx__sim_port_sink(port, XSKX_SIM_SINK_STACK, &pkt,
				            q->index);
			break;
		case XSKX_XDP_TX:
			c.tx++;
			xdp_apply(q, &x);
			pkt = packet_segs(q, kept, segs);
			xskx__sim_port_transmit(port, &pkt, q->index);
			break;
		default:
			c.drop++;
			break;
		}
		consume(q, frags, to_socket);
		done++;
	}
out:
	if (delivered)
		sim_ring_prod_submit(q->rx_target->rx);
	refill_failed = !xskx__sim_refill(q);
	if (pool->zc && pool->need_wakeup)
		fill_wakeup(q, refill_failed, stuck_frags);
	if (q->received && !stuck_frags)
		q->rx_sched = true;

	sim_count(&port->stats.napi_polls, 1);
	if (stuck_frags)
		sim_count(&port->stats.napi_stops, 1);
	if (c.redirect)
		sim_count(&port->stats.xdp_redirect, c.redirect);
	if (c.redirect_err)
		sim_count(&port->stats.xdp_redirect_err, c.redirect_err);
	if (c.pass)
		sim_count(&port->stats.xdp_pass, c.pass);
	if (c.drop)
		sim_count(&port->stats.xdp_drop, c.drop);
	if (c.tx)
		sim_count(&port->stats.xdp_tx, c.tx);
	if (c.wasted)
		sim_count(&port->stats.wasted_polls, c.wasted);
	return done;
}

void xskx__sim_napi_enable(struct sim_queue *q)
{
	bool refill_failed = !xskx__sim_refill(q);

	if (q->pool->need_wakeup)
		fill_wakeup(q, refill_failed, 0);
}

bool xskx__sim_napi_due(const struct sim_queue *q)
{
	if (!q->pool || !q->pool->zc)
		return false;
	if (q->rx_sched)
		return true;
	if (q->pool->zc && q->pool->need_wakeup)
		return false;
	return q->received || hw_unused(q) >= q->port->refill_batch;
}

void xskx__sim_napi_recheck(struct sim_queue *q)
{
	struct sim_pool *pool = q->pool;

	if (!pool || q->rx_sched || !(pool->cached_need_wakeup & SIM_WAKEUP_RX))
		return;
	if (q->received ? q->rx_target && rx_has_room_now(q, 1) :
			  sim_ring_cons_has_more(pool->fq))
		q->rx_sched = true;
}

uint32_t xskx__sim_queue_frames_held(const struct sim_queue *q)
{
	return q->posted + q->received + q->nspare;
}

void xskx__sim_queue_release_frames(struct sim_queue *q,
			            void (*give_back)(uint64_t addr, void *ctx),
			            void *ctx)
{
	if (give_back) {
		for (uint32_t i = q->ntc, n = q->received + q->posted; n; n--) {
			give_back(q->hw[i].addr, ctx);
			i = hw_next(q, i);
		}
		for (uint32_t i = 0; i < q->nspare; i++)
			give_back(q->spare[i], ctx);
	}
	q->ntc = q->ntr = q->ntu = 0;
	q->received = q->posted = q->nspare = 0;
	q->rx_sched = false;
	q->tx_awake = false;
	q->tx_dry_passes = 0;
	q->wakeup_watch = 0;
}
