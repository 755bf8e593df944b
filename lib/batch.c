// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The batch API (xskx/batch.h): packets handled where they lie on the
 * rings. Every address a batch carries was written by the peer (RX) or by
 * the library (TX), so none needs the per-frame ownership check the burst
 * API makes on what the application hands back; what is checked is that a
 * batch is the socket's open one, once per call, and, as a TX batch's
 * descriptors lie on the ring where the application can write, that each
 * one submitted is still what the library wrote (one compare per packet).
 * The ring runs underneath — peek and finish on RX, room, reclaim and
 * finish on TX, FILL refill, kicks — are the burst API's too (lib/rings/).
 */
#include <errno.h>

#include <xskx/batch.h>

#include "api.h"
#include "batch_internal.h"
#include "frames/frame_pool.h"
#include "log_internal.h"
#include "rings/call.h"
#include "rings/completion.h"
#include "rings/rx.h"
#include "rings/tx.h"
#include "rings/tx_meta.h"

/* Whether b is the socket's open RX batch as the socket left it. */
static bool is_open_rx_batch(const struct xskx_socket *s,
			     const struct xskx_rx_batch *b)
{
	return b->desc == s->rx_batch_desc && b->n == s->rx_batch;
}

static bool is_open_tx_batch(const struct xskx_socket *s,
			     const struct xskx_tx_batch *b)
{
	return s->tx.ring && b->ring == s->tx.ring && b->n == s->tx_batch &&
	       b->idx + b->n == s->tx.cached_prod;
}

static int not_open_batch(const struct xskx_socket *s, const char *call,
			  const char *peek)
{
	return xskx__fail(-EINVAL,
			  "%s: the batch is not the open one of the socket on queue %u (a copy made before the last call on it, or another socket's): pass the batch %s filled in",
			  call, s->queue_id, peek);
}

/*
 * The n descriptors peeked at ring index idx run past the ring's end: keep
 * the whole packets before it (the rest go back to RX), or, when a chain
 * of fragments runs across it, that chain alone, copied into the socket's
 * bounce array. Returns the entries kept; *desc their first.
 */
static uint32_t rx_contiguous(struct xskx_socket *s, uint32_t idx, uint32_t n,
			      const struct xdp_desc **desc)
{
	const struct xdp_desc *ring = s->rx.ring;
	const uint32_t mask = s->rx.mask;
	uint32_t keep = s->rx.size - (idx & mask);

	while (keep && (ring[(idx + keep - 1) & mask].options & XDP_PKT_CONTD))
		keep--;
	if (!keep) {
		/* Whole chains were peeked: this one ends within n. */
		while (ring[(idx + keep) & mask].options & XDP_PKT_CONTD)
			keep++;
		keep++;
		for (uint32_t i = 0; i < keep; i++)
			s->rx_bounce[i] = ring[(idx + i) & mask];
		*desc = s->rx_bounce;
	}
	xsk_ring_cons__cancel(&s->rx, n - keep);
	return keep;
}

XSKX_API int xskx_rx_peek(struct xskx_socket *s, struct xskx_rx_batch *b,
			  uint32_t max)
{
	const struct xdp_desc *desc;
	uint32_t idx = 0, n;
	int peeked;

	if (__builtin_expect(!s || !b, 0))
		return xskx__fail(-EINVAL, "xskx_rx_peek: socket and batch must not be NULL");
	peeked = xskx__rx_peek_whole(s, "xskx_rx_peek", max, &idx);
	if (__builtin_expect(peeked < 0, 0))
		return peeked;
	n = (uint32_t)peeked;
	desc = xsk_ring_cons__rx_desc(&s->rx, idx);
	if (__builtin_expect(n > s->rx.size - (idx & s->rx.mask), 0))
		n = rx_contiguous(s, idx, n, &desc);
	*b = (struct xskx_rx_batch){
		.desc = desc,
		.area = s->umem->area,
		.n = n,
		.unaligned = (s->umem->flags & XSKX_UMEM_UNALIGNED) != 0,
	};
	s->rx_batch = n;
	s->rx_batch_desc = desc;
	s->stats.rx_packets += n;
	return xskx__rx_finish(s, n);
}

/*
 * k descriptors' frame starts into k consecutive FILL slots (a stretch
 * that does not wrap); returns their bytes.
 */
static inline __attribute__((always_inline)) uint64_t
descs_to_slots(const struct xdp_desc *d, uint64_t *slot, uint32_t k,
	       const uint64_t base_mask)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < k; i++) {
		slot[i] = d[i].addr & base_mask;
		bytes += d[i].len;
	}
	return bytes;
}

/* k descriptors to the FILL slots reserved at fill_idx; returns their bytes. */
static uint64_t descs_to_fill(const struct xdp_desc *d, uint32_t k,
			      struct xsk_ring_prod *fill, uint32_t fill_idx,
			      const uint64_t base_mask)
{
	uint64_t *slots = fill->ring;
	uint32_t first = fill_idx & fill->mask;
	uint32_t tail = xskx__ring_run(fill_idx, fill->size, k);

	return descs_to_slots(d, slots + first, tail, base_mask) +
	       descs_to_slots(d + tail, slots, k - tail, base_mask);
}

XSKX_API int xskx_rx_recycle(struct xskx_socket *s, struct xskx_rx_batch *b)
{
	struct xskx_fq_cq *fq;
	uint32_t n, k, fill_idx = 0;
	uint64_t base_mask, bytes = 0;
	uint32_t others, free_slots;

	if (__builtin_expect(!s || !b, 0))
		return xskx__fail(-EINVAL, "xskx_rx_recycle: socket and batch must not be NULL");
	n = b->n;
	if (!n)
		return 0;
	if (__builtin_expect(!is_open_rx_batch(s, b), 0))
		return not_open_batch(s, "xskx_rx_recycle", "xskx_rx_peek()");
	fq = s->fq;
	/* The queue's share, counting these frames as already given back. */
	others = fq->posted - n;
	k = fq->fill_max > others ? fq->fill_max - others : 0;
	if (k > n)
		k = n;
	/* Frames not a power of two in size: the pool divides. */
	base_mask = xskx_umem_base_mask(s->umem);
	if (!base_mask)
		k = 0;
	free_slots = k ? xsk_prod_nb_free(&fq->fill, k) : 0;
	if (free_slots < k)
		k = free_slots;
	if (k) {
		xsk_ring_prod__reserve(&fq->fill, k, &fill_idx);
		bytes = descs_to_fill(b->desc, k, &fq->fill, fill_idx,
				      base_mask);
		xsk_ring_prod__submit(&fq->fill, k);
		s->stats.fill_refills++;
	}
	for (uint32_t i = k; i < n; i++) {
		xskx_pool_put(s->umem, b->desc[i].addr);
		bytes += b->desc[i].len;
	}
	fq->posted -= n - k;
	xsk_ring_cons__release(&s->rx, n);
	s->rx_batch = 0;
	b->n = 0;
	s->stats.rx_bytes += bytes;
	return (int)n;
}

/* k descriptors into k consecutive TX slots; returns their bytes. */
static inline __attribute__((always_inline)) uint64_t
descs_copy(const struct xdp_desc *d, struct xdp_desc *slot, uint32_t k)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < k; i++) {
		slot[i] = d[i];
		bytes += d[i].len;
	}
	return bytes;
}

/* k descriptors to the TX slots reserved at tx_idx; returns their bytes. */
static uint64_t descs_to_tx(const struct xdp_desc *d, uint32_t k,
			    struct xsk_ring_prod *tx, uint32_t tx_idx)
{
	struct xdp_desc *slots = tx->ring;
	uint32_t first = tx_idx & tx->mask;
	uint32_t tail = xskx__ring_run(tx_idx, tx->size, k);

	return descs_copy(d, slots + first, tail) +
	       descs_copy(d + tail, slots, k - tail);
}

/* Why out cannot take this socket's packets, or 0. */
static int forward_refused(const struct xskx_socket *s,
			   const struct xskx_socket *out)
{
	if (out->umem != s->umem)
		return xskx__fail(-EINVAL,
				  "xskx_rx_forward: the socket on queue %u is on another UMEM than the one on queue %u: forwarding hands over the frame itself; open both on one UMEM, or copy the packet into a frame of out's and use xskx_tx_burst()",
				  out->queue_id, s->queue_id);
	if ((s->bind_flags & XDP_USE_SG) && !(out->tx_options & XDP_PKT_CONTD))
		return xskx__fail(-EINVAL,
				  "xskx_rx_forward: the socket on queue %u receives chains of fragments (multi-buffer) and the one on queue %u cannot send them: open it with XSKX_SOCKET_MULTI_BUFFER",
				  s->queue_id, out->queue_id);
	return 0;
}

XSKX_API int xskx_rx_forward(struct xskx_socket *s, struct xskx_rx_batch *b,
			     struct xskx_socket *out)
{
	uint32_t n, k, tx_idx = 0;
	int err;

	if (__builtin_expect(!s || !b || !out, 0))
		return xskx__fail(-EINVAL, "xskx_rx_forward: socket, batch and out must not be NULL");
	n = b->n;
	if (__builtin_expect(n && !is_open_rx_batch(s, b), 0))
		return not_open_batch(s, "xskx_rx_forward", "xskx_rx_peek()");
	if (__builtin_expect(out->deferred_err != 0 || !out->tx.ring ||
				     out->tx_batch, 0))
		return xskx__burst_precondition(out, "xskx_rx_forward",
						XSKX_USES_TX);
	err = forward_refused(s, out);
	if (err)
		return err;
	xskx__reclaim_completions(out);
	k = xskx__tx_room(out, n);
	/* A chain goes whole or waits. */
	if (k < n)
		while (k && (xskx_rx_batch_options(b, k - 1) & XDP_PKT_CONTD))
			k--;
	if (k) {
		uint64_t bytes;

		xsk_ring_prod__reserve(&out->tx, k, &tx_idx);
		bytes = descs_to_tx(b->desc, k, &out->tx, tx_idx);
		if (__builtin_expect(s->umem->flags & XSKX_UMEM_TX_TIMESTAMPS, 0))
			xskx__tx_meta_clear(s->umem, b->desc, k);
		xsk_ring_prod__submit(&out->tx, k);
		xsk_ring_cons__release(&s->rx, k);
		b->desc += k;
		b->n -= k;
		s->rx_batch = b->n;
		s->rx_batch_desc = b->desc;
		/* They left the queue's share for TX. */
		s->fq->posted -= k;
		s->stats.rx_bytes += bytes;
		out->stats.tx_packets += k;
		out->stats.tx_bytes += bytes;
	}
	return xskx__tx_finish_now(out, k);
}

/*
 * k frames into k consecutive TX descriptors, each a packet of len bytes;
 * their addresses kept in addrs too, for the submit to check against.
 */
static inline __attribute__((always_inline)) void
frames_to_descs(const uint64_t *frames, struct xdp_desc *d, uint64_t *addrs,
		uint32_t k, const uint32_t headroom, const uint32_t len)
{
	for (uint32_t i = 0; i < k; i++) {
		d[i].addr = addrs[i] = frames[i] + headroom;
		d[i].len = len;
		d[i].options = 0;
	}
}

XSKX_API int xskx_tx_reserve(struct xskx_socket *s, struct xskx_tx_batch *b,
			     uint32_t max, uint32_t len)
{
	struct xskx_umem *umem;
	struct xdp_desc *descs;
	const uint64_t *frames;
	uint32_t n, idx = 0, room, headroom;

	if (__builtin_expect(!s || !b, 0))
		return xskx__fail(-EINVAL, "xskx_tx_reserve: socket and batch must not be NULL");
	if (__builtin_expect(s->deferred_err != 0 || !s->tx.ring || s->tx_batch,
			     0))
		return xskx__burst_precondition(s, "xskx_tx_reserve", XSKX_USES_TX);
	umem = s->umem;
	/* A UMEM's TX metadata room goes in front of the data too. */
	headroom = umem->headroom + umem->tx_metadata_len;
	room = umem->frame_size - headroom;
	if (__builtin_expect(len - 1 >= room, 0))
		return xskx__fail(-EINVAL,
				  "xskx_tx_reserve: len %u: a packet has 1 to %u bytes here (the frame size %u less the UMEM's headroom and TX metadata room, %u)",
				  len, room, umem->frame_size, headroom);
	xskx__reclaim_completions(s);
	n = xsk_prod_nb_free(&s->tx, max);
	if (n > max)
		n = max;
	if (n > umem->pool.count)
		n = umem->pool.count;
	if (n) {
		uint32_t first, tail;

		xsk_ring_prod__reserve(&s->tx, n, &idx);
		umem->pool.count -= n;
		frames = umem->pool.addrs + umem->pool.count;
		descs = s->tx.ring;
		first = idx & s->tx.mask;
		tail = xskx__ring_run(idx, s->tx.size, n);
		frames_to_descs(frames, descs + first, s->tx_batch_addrs, tail,
				headroom, len);
		frames_to_descs(frames + tail, descs, s->tx_batch_addrs + tail,
				n - tail, headroom, len);
		if (__builtin_expect(umem->flags & XSKX_UMEM_TX_TIMESTAMPS, 0)) {
			xskx__tx_meta_clear(umem, descs + first, tail);
			xskx__tx_meta_clear(umem, descs, n - tail);
		}
		umem->frames_in_app += n;
	}
	s->tx_batch = n;
	*b = (struct xskx_tx_batch){
		.ring = s->tx.ring,
		.area = umem->area,
		.idx = idx,
		.mask = s->tx.mask,
		.n = n,
		.room = room,
		.bytes = (uint64_t)n * len,
	};
	return (int)n;
}

XSKX_API int xskx_tx_batch_set_len(struct xskx_tx_batch *b, uint32_t i,
				   uint32_t len)
{
	struct xdp_desc *d;

	if (!b)
		return xskx__fail(-EINVAL, "xskx_tx_batch_set_len: batch is NULL");
	if (i >= b->n)
		return xskx__fail(-EINVAL,
				  "xskx_tx_batch_set_len: entry %u is outside the batch's %u",
				  i, b->n);
	if (len - 1 >= b->room)
		return xskx__fail(-EINVAL,
				  "xskx_tx_batch_set_len: len %u for entry %u: a packet has 1 to %u bytes here (the frame size less the UMEM's headroom)",
				  len, i, b->room);
	d = &b->ring[(b->idx + i) & b->mask];
	b->bytes = b->bytes - d->len + len;
	d->len = len;
	return 0;
}

/* Entries [from, to) of the open TX batch: their frames back to the pool. */
static void tx_unreserve(struct xskx_socket *s, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		xskx_pool_put(s->umem, s->tx_batch_addrs[i]);
}

/*
 * Whether any of k descriptors may differ from what xskx_tx_reserve()
 * wrote (the address in addrs, no options) or have a length out of
 * 1..room; their bytes added to *bytes. Options and length are read as
 * one 64-bit word w, the options its upper half: w is 1..room (options 0,
 * a length in range) exactly when w - 1 is below room. The words less one
 * are OR-ed together, which is no lower than any of them: below room, all
 * are in range; at or above it, one may not be (for one descriptor, k 1,
 * the answer is exact), and the caller looks entry by entry. No branch
 * per packet, so the loop vectorizes; the sums kept in locals: *bytes may
 * alias the descriptors.
 */
static inline __attribute__((always_inline)) bool
descs_changed(const struct xdp_desc *d, const uint64_t *addrs, uint32_t k,
	      const uint64_t room, uint64_t *bytes)
{
	uint64_t moved = 0, bound = 0, sum = 0;

	for (uint32_t i = 0; i < k; i++) {
		uint64_t w = (uint64_t)d[i].options << 32 | d[i].len;

		moved |= d[i].addr ^ addrs[i];
		bound |= w - 1;
		sum += w;
	}
	*bytes += sum;
	return moved || bound >= room;
}

/*
 * The first of entries [0, n) of the open TX batch that the application
 * wrote into, or n when none was (descs_changed()'s bound was loose).
 */
static uint32_t tx_batch_first_changed(const struct xskx_socket *s,
				       uint32_t idx, uint32_t n, uint32_t room)
{
	const struct xdp_desc *descs = s->tx.ring;
	uint64_t bytes = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (descs_changed(&descs[(idx + i) & s->tx.mask],
				  &s->tx_batch_addrs[i], 1, room, &bytes))
			break;
	return i;
}

/*
 * -EINVAL naming entry i of the open TX batch, which the application wrote
 * into; the batch stays open, nothing is sent.
 */
static int tx_batch_changed(const struct xskx_socket *s, uint32_t idx,
			    uint32_t i, uint32_t room)
{
	const struct xdp_desc *d = &((const struct xdp_desc *)
					     s->tx.ring)[(idx + i) & s->tx.mask];

	return xskx__fail(-EINVAL,
			  "xskx_tx_submit: entry %u of the batch on queue %u was written into: address 0x%llx (reserved 0x%llx), len %u (1 to %u), options 0x%x (none); set a length with xskx_tx_batch_set_len() and write the packet at xskx_tx_batch_data(). Nothing was sent: the batch is still open",
			  i, s->queue_id, (unsigned long long)d->addr,
			  (unsigned long long)s->tx_batch_addrs[i],
			  d->len, room, d->options);
}

XSKX_API int xskx_tx_submit(struct xskx_socket *s, struct xskx_tx_batch *b,
			    uint32_t n)
{
	uint32_t reserved;

	if (__builtin_expect(!s || !b, 0))
		return xskx__fail(-EINVAL, "xskx_tx_submit: socket and batch must not be NULL");
	reserved = b->n;
	if (__builtin_expect(reserved && !is_open_tx_batch(s, b), 0))
		return not_open_batch(s, "xskx_tx_submit", "xskx_tx_reserve()");
	if (__builtin_expect(n > reserved, 0))
		return xskx__fail(-EINVAL,
				  "xskx_tx_submit: n %u is above the batch's %u entries",
				  n, reserved);
	if (reserved) {
		const struct xskx_umem *umem = s->umem;
		/* As at the reserve: the frame less headroom and TX metadata. */
		const uint32_t room = umem->frame_size - umem->headroom -
				      umem->tx_metadata_len;
		const uint32_t idx = b->idx;
		uint32_t first = idx & s->tx.mask;
		uint32_t tail = xskx__ring_run(idx, s->tx.size, n);
		struct xdp_desc *descs = s->tx.ring;
		uint64_t bytes = 0;
		bool suspect;

		/* The descriptors are the application's to write: not trusted. */
		suspect = descs_changed(descs + first, s->tx_batch_addrs, tail,
					room, &bytes);
		suspect |= descs_changed(descs, s->tx_batch_addrs + tail,
					 n - tail, room, &bytes);
		if (__builtin_expect(suspect, 0)) {
			uint32_t changed = tx_batch_first_changed(s, idx, n, room);

			if (changed < n)
				return tx_batch_changed(s, idx, changed, room);
		}
		tx_unreserve(s, n, reserved);
		xskx_ring_prod_cancel(&s->tx, reserved - n);
		xsk_ring_prod__submit(&s->tx, n);
		s->umem->frames_in_app -= reserved;
		s->stats.tx_packets += n;
		s->stats.tx_bytes += bytes;
		s->tx_batch = 0;
		b->n = 0;
	}
	return xskx__tx_finish_now(s, n);
}

void xskx__batches_abandon(struct xskx_socket *s)
{
	if (s->rx_batch) {
		xsk_ring_cons__cancel(&s->rx, s->rx_batch);
		s->rx_batch = 0;
	}
	if (s->tx_batch) {
		tx_unreserve(s, 0, s->tx_batch);
		xskx_ring_prod_cancel(&s->tx, s->tx_batch);
		s->umem->frames_in_app -= s->tx_batch;
		s->tx_batch = 0;
	}
}
