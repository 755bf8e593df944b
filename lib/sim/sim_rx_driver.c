// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Queues without a zero-copy pool: the driver receives into buffers of its
 * own and handles each packet as it arrives (its NAPI poll folded into the
 * arrival), running the XDP hook on that buffer.
 *
 * Such a queue has no socket bound, so that REDIRECT has nowhere to go, or
 * one bound in copy mode. A redirected packet is then copied into UMEM
 * frames taken at that moment, as the kernel's __xsk_rcv() does: frames kept
 * from earlier first, then FILL. No frame: rx_dropped (and an empty FILL
 * counts in rx_fill_ring_empty_descs); larger than a frame without
 * XDP_USE_SG: rx_dropped; no room on the RX ring: rx_ring_full, the frame
 * kept for the next packet. The metadata the XDP hook put in front of the
 * packet is copied in front of it (of its first fragment), as the kernel
 * copies from data_meta. A delivered packet is published at once
 * (xsk_generic_rcv() flushes per packet). Nothing here waits for a wakeup,
 * so the FILL flag never goes up in copy mode.
 *
 * One scratch buffer per port stands for the driver's buffers. XDP_TX from
 * here may bring a packet back to another such queue while this one is being
 * handled; that one finds the driver's buffer busy and is missed, which also
 * keeps two hooks that bounce a packet from looping.
 */
#include <string.h>

#include "sim_internal.h"
#include "sim_ring.h"
#include "sim_rx_driver.h"
#include "sim_wire.h"
#include "sim_xdp.h"

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* A frame to copy into: a kept one, else from FILL (xsk_buff_alloc()). */
static bool copy_alloc(struct sim_queue *q, uint64_t *frame)
{
	struct sim_pool *pool = q->pool;
	struct sim_ring *fq = pool->fq;

	if (q->nspare) {
		*frame = q->spare[--q->nspare];
		return true;
	}
	while (sim_ring_cons_avail(fq, 1)) {
		uint64_t addr = *sim_ring_addr(fq, fq->cached_cons);

		sim_ring_cons_release(fq, 1);
		if (sim_fill_frame(pool->umem, &addr)) {
			*frame = addr;
			return true;
		}
		sim_count(&fq->invalid_descs, 1);
	}
	sim_count(&fq->queue_empty_descs, 1);
	return false;
}

/* Frames for all n fragments? (xsk_buff_can_alloc()) */
static bool copy_can_alloc(struct sim_queue *q, uint32_t n)
{
	struct sim_ring *fq = q->pool->fq;
	uint32_t want, avail;

	if (q->nspare >= n)
		return true;
	want = n - q->nspare;
	avail = sim_ring_cons_avail(fq, want);
	if (!avail)
		sim_count(&fq->queue_empty_descs, 1);
	return avail == want;
}

/* Frames for every fragment; false when FILL held invalid entries after all. */
static bool copy_frames(struct sim_queue *q, uint32_t frags, uint64_t *frames)
{
	for (uint32_t f = 0; f < frags; f++)
		if (!copy_alloc(q, &frames[f])) {
			while (f)
				q->spare[q->nspare++] = frames[--f];
			return false;
		}
	return true;
}

/* Frames and RX slots for the packet, in the order and with the counts of __xsk_rcv(). */
static bool copy_room(struct sim_queue *q, struct sim_xsk *xs, uint32_t frags,
		      uint64_t *frames)
{
	struct sim_ring *rx = xs->rx;

	if (frags == 1) {
		if (!copy_alloc(q, &frames[0])) {
			sim_count(&xs->rx_dropped, 1);
			return false;
		}
		if (!sim_ring_prod_free(rx, 1)) {
			sim_count(&xs->rx_queue_full, 1);
			q->spare[q->nspare++] = frames[0];
			return false;
		}
		return true;
	}
	if (frags > min_u32(q->hw_size, SIM_MAX_FRAGS) ||
	    !copy_can_alloc(q, frags)) {
		sim_count(&xs->rx_dropped, 1);
		return false;
	}
	if (sim_ring_prod_free(rx, frags) < frags) {
		sim_count(&xs->rx_queue_full, 1);
		return false;
	}
	if (!copy_frames(q, frags, frames)) {
		sim_count(&xs->rx_dropped, 1);
		return false;
	}
	return true;
}

/*
 * The kernel's __xsk_rcv(): true when the packet is on the RX ring. The
 * meta_len bytes in front of data go in front of the first frame's data,
 * which still takes a whole frame's worth of the packet.
 */
static bool copy_to_socket(struct sim_queue *q, const uint8_t *data,
			   uint32_t len, uint32_t meta_len)
{
	const struct sim_pool *pool = q->pool;
	struct sim_xsk *xs = q->rx_target;
	uint32_t frags = sim_frags(pool, len), off = 0;
	uint64_t frames[SIM_MAX_FRAGS];
	struct sim_ring *rx;

	if (!xs)
		return false;
	rx = xs->rx;
	if (frags > 1 && !xs->sg) {
		sim_count(&xs->rx_dropped, 1);
		return false;
	}
	if (!copy_room(q, xs, frags, frames))
		return false;
	memcpy(sim_frame_data(pool, frames[0]) - meta_len, data - meta_len,
	       meta_len);
	for (uint32_t f = 0; f < frags; f++) {
		struct xdp_desc *d = sim_ring_desc(rx, rx->cached_prod++);
		uint32_t n = min_u32(len - off, pool->frame_room);

		memcpy(sim_frame_data(pool, frames[f]), data + off, n);
		off += n;
		d->addr = sim_rx_handle(pool, frames[f]);
		d->len = n;
		d->options = f + 1 < frags ? XDP_PKT_CONTD : 0;
	}
	sim_ring_prod_submit(rx);
	return true;
}

bool xskx__sim_rx_driver_can_take(struct sim_queue *q, uint32_t len)
{
	struct sim_pool *pool = q->pool;
	uint32_t frags, spare;

	if (q->port->sim->in_direct_rx)
		return false;
	if (!pool || !q->rx_target)
		return true;
	/*
	 * A source sending as fast as the queue takes packets waits for a frame
	 * and an RX slot here, as it waits for posted buffers in zero-copy mode.
	 */
	frags = sim_frags(pool, len);
	spare = min_u32(q->nspare, frags);
	return sim_ring_prod_free(q->rx_target->rx, frags) == frags &&
	       sim_ring_cons_avail(pool->fq, frags - spare) == frags - spare;
}

bool xskx__sim_rx_driver(struct sim_queue *q, const struct sim_pkt *pkt)
{
	struct xskx_sim_port *port = q->port;
	struct xskx_sim *sim = port->sim;
	struct sim_seg seg = { port->scratch, pkt->len };
	struct sim_pkt linear = { &seg, 1, pkt->len };
	uint32_t off = 0, len, meta_len;
	enum xskx_xdp_verdict verdict;
	struct sim_xdp x;

	if (sim->in_direct_rx || pkt->len > port->scratch_size) {
		sim_count(&port->stats.rx_missed, 1);
		return false;
	}
	sim->in_direct_rx = true;
	for (uint32_t i = 0; i < pkt->nsegs; i++) {
		memcpy(port->scratch + off, pkt->segs[i].data,
		       pkt->segs[i].len);
		off += pkt->segs[i].len;
	}
	sim_count(&port->stats.rx_packets, 1);
	/* Linear in the driver's buffer: it may grow to the buffer's end. */
	sim_xdp_init(&x, q, port->scratch, pkt->len,
		     port->scratch_size - pkt->len);
	verdict = sim_run_xdp(q, &x, &meta_len);
	len = seg.len = linear.len = x.buff.len;
	switch (verdict) {
	case XSKX_XDP_REDIRECT:
		if (q->pool && copy_to_socket(q, port->scratch, len, meta_len))
			sim_count(&port->stats.xdp_redirect, 1);
		else
			sim_count(&port->stats.xdp_redirect_err, 1);
		break;
	case XSKX_XDP_PASS:
		sim_count(&port->stats.xdp_pass, 1);
		xskx__sim_port_sink(port, XSKX_SIM_SINK_STACK, &linear, q->index);
		break;
	case XSKX_XDP_TX:
		sim_count(&port->stats.xdp_tx, 1);
		xskx__sim_port_transmit(port, &linear, q->index);
		break;
	default:
		sim_count(&port->stats.xdp_drop, 1);
		break;
	}
	sim->in_direct_rx = false;
	return true;
}
