// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The burst API (xskx/socket.h): packets handed to the application as
 * struct xskx_pkt views, each frame marked held while the application has
 * it, and every frame handed back checked against those marks. The ring
 * runs underneath — peek and finish on RX, room, reclaim and finish on TX,
 * FILL refill, kicks — are the batch API's too (lib/rings/).
 *
 * Order inside a call matters. RX drains the RX ring before it refills FILL
 * (frames just released are the cache-warm ones to hand back) and kicks
 * last, when FILL holds buffers for the peer to use. TX reclaims COMPLETION
 * before it reserves TX, so the pool and the ring have room. A kick — a
 * syscall on the kernel backend — happens only when the peer asked for one
 * through a need_wakeup flag, or on every idle burst with busy polling.
 */
#include <errno.h>

#include "api.h"
#include "frames/frame_pool.h"
#include "log_internal.h"
#include "rings/call.h"
#include "rings/completion.h"
#include "rings/fill.h"
#include "rings/kick.h"
#include "rings/rx.h"
#include "rings/tx.h"

/*
 * n RX descriptors, consecutive in the ring, to the application as pkts,
 * each frame marked held; returns their bytes. simple: aligned chunks a
 * power of two in size, where the data is at the address and the frame is
 * the address shifted, with no offset bits to decode. The caller passes
 * simple as a constant, so each case gets its own loop.
 */
static inline __attribute__((always_inline)) uint64_t
rx_take(struct xskx_umem *umem, const struct xdp_desc *descs, uint32_t n,
	struct xskx_pkt *pkts, const bool simple)
{
	/*
	 * Locals, not fields: the stores to pkts[] could alias the UMEM's
	 * fields and force a reload of each per packet.
	 */
	const uint32_t shift = umem->frame_shift;
	const uint64_t frames = umem->frame_count;
	bool *held = umem->held;
	char *area = umem->area;
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct xdp_desc *d = &descs[i];
		uint64_t addr = d->addr;

		pkts[i] = (struct xskx_pkt){
			.addr = addr,
			.len = d->len,
			.options = d->options,
			.data = simple ? (uint8_t *)area + addr :
					 xskx_umem_addr_data(area, addr),
		};
		if (simple) {
			if (__builtin_expect((addr >> shift) < frames, 1))
				held[addr >> shift] = true;
		} else if (__builtin_expect(!shift, 0)) {
			xskx_mark_held(umem, addr);
		} else {
			uint64_t frame = xsk_umem__extract_addr(addr) >> shift;

			if (__builtin_expect(frame < frames, 1))
				held[frame] = true;
		}
		bytes += d->len;
	}
	return bytes;
}

XSKX_API int xskx_rx_burst(struct xskx_socket *s, struct xskx_pkt *pkts,
			   uint32_t max)
{
	struct xskx_umem *umem;
	uint64_t bytes;
	uint32_t idx = 0;
	uint32_t n;
	int peeked;

	if (__builtin_expect(!s || (!pkts && max), 0))
		return xskx__fail(-EINVAL, "xskx_rx_burst: socket and pkts must not be NULL");
	peeked = xskx__rx_peek_whole(s, "xskx_rx_burst", max, &idx);
	if (__builtin_expect(peeked < 0, 0))
		return peeked;
	n = (uint32_t)peeked;
	umem = s->umem;
	if (n) {
		const struct xdp_desc *descs = s->rx.ring;
		uint32_t first = idx & s->rx.mask;
		/* Up to the end of the ring, then from its start. */
		uint32_t tail = xskx__ring_run(idx, s->rx.size, n);

		if (umem->frame_shift && !(umem->flags & XSKX_UMEM_UNALIGNED)) {
			bytes = rx_take(umem, descs + first, tail, pkts, true) +
				rx_take(umem, descs, n - tail, pkts + tail, true);
		} else {
			bytes = rx_take(umem, descs + first, tail, pkts, false) +
				rx_take(umem, descs, n - tail, pkts + tail, false);
		}
		xsk_ring_cons__release(&s->rx, n);
		s->fq->posted -= n;
		umem->frames_in_app += n;
		s->stats.rx_packets += n;
		s->stats.rx_bytes += bytes;
	}

	return xskx__rx_finish(s, n);
}

XSKX_API int xskx_rx_release(struct xskx_socket *s, const struct xskx_pkt *pkts,
			     uint32_t n)
{
	struct xskx_fq_cq *fq;
	uint32_t idx = 0, kept = 0;
	int err;

	if (__builtin_expect(!s || (!pkts && n), 0))
		return xskx__fail(-EINVAL, "xskx_rx_release: socket and pkts must not be NULL");
	if (!n)
		return 0;
	if (!xskx__recycle_to_fill(s, n))
		return xskx__pool_put_many_from_app(s->umem, "xskx_rx_release",
						    &pkts->addr, sizeof(*pkts),
						    n);
	fq = s->fq;
	xsk_ring_prod__reserve(&fq->fill, n, &idx);
	err = xskx__recycle_to_ring(s->umem, "xskx_rx_release", &pkts->addr,
				    sizeof(*pkts), n, &fq->fill, idx, &kept);
	xskx_ring_prod_cancel(&fq->fill, n - kept);
	xsk_ring_prod__submit(&fq->fill, kept);
	fq->posted += kept;
	if (kept)
		s->stats.fill_refills++;
	return err;
}

/*
 * How many of pkts fit on TX now, never splitting a multi-buffer chain: a
 * packet whose last accepted fragment still has XDP_PKT_CONTD set is left
 * out whole.
 */
static uint32_t tx_fit(struct xskx_socket *s, const struct xskx_pkt *pkts,
		       uint32_t n)
{
	uint32_t room = xskx__tx_room(s, n);

	if (room == n)
		return n;
	while (room && (pkts[room - 1].options & XDP_PKT_CONTD))
		room--;
	return room;
}

/* Whether the first packet's chain of fragments is longer than the TX ring. */
static bool chain_exceeds_ring(const struct xskx_socket *s,
			       const struct xskx_pkt *pkts, uint32_t n)
{
	uint32_t len = 1;

	while (len <= n && len <= s->tx.size && (pkts[len - 1].options & XDP_PKT_CONTD))
		len++;
	return len > s->tx.size;
}

/*
 * Multi-buffer: how many of pkts[0..fit) may go to the ring with no chain
 * reaching the socket's max_frags with XDP_PKT_CONTD still set (the kernel
 * would drop it whole): the packets before the first such chain. A pass of
 * its own, so that sockets without multi-buffer never pay for it.
 */
static uint32_t tx_frag_limit(const struct xskx_socket *s,
			      const struct xskx_pkt *pkts, uint32_t fit)
{
	uint32_t start = 0, frags = 0;

	for (uint32_t i = 0; i < fit; i++) {
		if (!(pkts[i].options & XDP_PKT_CONTD)) {
			start = i + 1;
			frags = 0;
		} else if (++frags == s->max_frags) {
			return start;
		}
	}
	return fit;
}

/* Why a TX descriptor was refused before it reached the ring. */
enum tx_fault {
	TX_OK = 0,
	TX_OPTIONS,
	TX_LEN_ZERO,
	TX_OUTSIDE,
	TX_PAST_FRAME,
	TX_NOT_HELD,
	TX_OPEN_CHAIN,
	TX_TOO_MANY_FRAGS,
	TX_META_ROOM,
	TX_META_FLAGS,
	TX_META_CSUM,
};

/*
 * What the checks of one burst read, copied out of the socket and the UMEM
 * once, so that they stay in registers while the held map is written.
 */
struct tx_geometry {
	bool *held;
	uint64_t frame_count;
	uint64_t frame_size;
	uint32_t shift;		/* log2(frame_size), 0 when not a power of two */
	uint32_t options;	/* the xdp_desc options TX accepts */
	bool unaligned;
	/* TX metadata: the UMEM's room (0: none) and what the socket may ask. */
	uint32_t meta_len;
	uint32_t meta_flags;
	char *area;
};

/*
 * The frame an address names: the one COMPLETION will hand back. simple:
 * aligned chunks a power of two in size, where an address with offset bits
 * set names a frame far past the UMEM. The callers pass simple as a
 * constant, so each gets its own loop without the other case's branches.
 */
static inline __attribute__((always_inline)) uint64_t
tx_frame(const struct tx_geometry *g, uint64_t addr, const bool simple)
{
	if (simple)
		return addr >> g->shift;
	if (g->unaligned)
		addr = xsk_umem__extract_addr(addr);
	return g->shift ? addr >> g->shift : addr / g->frame_size;
}

/*
 * On a UMEM with TX metadata room: the room inside the frame in front of
 * the data (the kernel drops a descriptor without it as invalid), and the
 * metadata of a packet that carries it asking only for what the socket
 * may ask, its checksum inside the packet (copy mode would otherwise fail
 * every sendto with EINVAL from this packet on, unable to get past it).
 */
static enum tx_fault tx_check_meta(const struct tx_geometry *g,
				   const struct xskx_pkt *p, uint64_t offset,
				   uint64_t data)
{
	const struct xsk_tx_metadata *meta;

	if (offset < g->meta_len)
		return TX_META_ROOM;
	if (!(p->options & XDP_TX_METADATA))
		return TX_OK;
	meta = (const struct xsk_tx_metadata *)(g->area + data - g->meta_len);
	if (meta->flags & ~(uint64_t)g->meta_flags)
		return TX_META_FLAGS;
	if ((meta->flags & XDP_TXMD_FLAGS_CHECKSUM) &&
	    (uint32_t)meta->request.csum_start + meta->request.csum_offset + 2 >
		    p->len)
		return TX_META_CSUM;
	return TX_OK;
}

/*
 * The checks a descriptor passes before it may reach the ring: the kernel's
 * TX rules (a bad descriptor is consumed and its frame never completed in
 * zero-copy mode) plus the library's own — the data stays inside the frame
 * its address names (the frame COMPLETION hands back), and that frame is the
 * application's to give.
 */
static inline __attribute__((always_inline)) enum tx_fault
tx_check(const struct tx_geometry *g, const struct xskx_pkt *p,
	 uint64_t *index, const bool simple)
{
	uint64_t data = p->addr, frame = tx_frame(g, p->addr, simple), start;

	if (__builtin_expect(p->options & ~g->options, 0))
		return TX_OPTIONS;
	if (__builtin_expect(!p->len, 0))
		return TX_LEN_ZERO;
	if (__builtin_expect(frame >= g->frame_count, 0))
		return TX_OUTSIDE;
	if (!simple && g->unaligned)
		data = xsk_umem__add_offset_to_addr(data);
	start = simple || g->shift ? frame << g->shift : frame * g->frame_size;
	if (__builtin_expect(data - start + p->len > g->frame_size, 0))
		return TX_PAST_FRAME;
	if (__builtin_expect(g->meta_len != 0, 0)) {
		enum tx_fault why = tx_check_meta(g, p, data - start, data);

		if (why != TX_OK)
			return why;
	}
	if (__builtin_expect(!g->held[frame], 0))
		return TX_NOT_HELD;
	*index = frame;
	return TX_OK;
}

/*
 * The message for a refused descriptor, pkts[index] of call's burst: which
 * packet, and why.
 */
static int tx_refuse(struct xskx_socket *s, const char *call,
		     const struct xskx_pkt *pkts, uint32_t index,
		     enum tx_fault why)
{
	static const char *const reasons[] = {
		[TX_OPTIONS] = "options other than XDP_PKT_CONTD, or XDP_PKT_CONTD on a socket without XSKX_SOCKET_MULTI_BUFFER",
		[TX_LEN_ZERO] = "len 0: a packet needs at least one byte",
		[TX_OUTSIDE] = "the address is outside the UMEM",
		[TX_PAST_FRAME] = "the data runs past the end of its frame",
		[TX_NOT_HELD] = "its frame is not held by the application (released, already sent, or never handed out)",
		[TX_OPEN_CHAIN] = "its chain of fragments ends with XDP_PKT_CONTD still set: hand a chain to one burst whole",
		[TX_META_ROOM] = "the UMEM's tx_metadata_len bytes of TX metadata room do not fit in its frame in front of the data (the kernel would drop it as invalid); start the data at xskx_umem_tx_addr() or later",
		[TX_META_FLAGS] = "its TX metadata (XDP_TX_METADATA) asks for what the socket's tx_metadata does not allow, or has unknown flags",
		[TX_META_CSUM] = "its TX metadata's checksum, csum_start + csum_offset + 2, ends past len",
	};
	const struct xskx_pkt *p = &pkts[index];

	s->stats.tx_rejected++;
	if (why == TX_TOO_MANY_FRAGS)
		return xskx__fail(-EINVAL,
				  "%s: queue %u refused the chain starting at pkts[%u], addr 0x%llx: it reaches %u fragments, the kernel's limit for this socket (xskx_socket_info's max_frags), with XDP_PKT_CONTD still set; send the packet in at most %u fragments (larger frames, or a shorter packet); it is still yours to fix or release",
				  call, s->queue_id, index,
				  (unsigned long long)p->addr, s->max_frags,
				  s->max_frags);
	return xskx__fail(-EINVAL,
			  "%s: queue %u refused pkts[%u], addr 0x%llx len %u options 0x%x: %s; it is still yours to fix or release",
			  call, s->queue_id, index, (unsigned long long)p->addr,
			  p->len, p->options, reasons[why]);
}

/*
 * Write the good, whole chains among pkts[0..fit) to the fit TX slots
 * reserved at idx, checking each packet as it is written. The frames of the
 * packets written leave the application (their held flags are cleared); a
 * chain refused part way gets its frames back. Returns how many packets are
 * good, whole chains; their bytes in *bytes; *fault says why the next one
 * is not, when one is not.
 */
static inline __attribute__((always_inline)) uint32_t
tx_write(const struct tx_geometry *g, struct xsk_ring_prod *tx, uint32_t idx,
	 const struct xskx_pkt *pkts, uint32_t fit, uint64_t *bytes,
	 enum tx_fault *fault, const bool simple)
{
	struct xdp_desc *descs = tx->ring;
	const uint32_t mask = tx->mask;
	enum tx_fault why = TX_OK;
	uint32_t whole = 0, i;
	uint64_t sum = 0;

	for (i = 0; i < fit; i++) {
		const struct xskx_pkt *p = &pkts[i];
		struct xdp_desc *d = &descs[(idx + i) & mask];
		uint64_t frame;

		why = tx_check(g, p, &frame, simple);
		if (__builtin_expect(why != TX_OK, 0))
			break;
		/*
		 * A packet without metadata on such a UMEM gets its room's
		 * flags cleared, so that what the room held before is not
		 * read back as a timestamp request at completion (by this
		 * socket or one sharing its COMPLETION ring).
		 */
		if (__builtin_expect(g->meta_len != 0, 0) &&
		    !(p->options & XDP_TX_METADATA))
			((struct xsk_tx_metadata *)(g->area +
						    xsk_umem__add_offset_to_addr(p->addr) -
						    g->meta_len))
				->flags = 0;
		g->held[frame] = false;
		*d = (struct xdp_desc){ .addr = p->addr, .len = p->len,
					.options = p->options };
		sum += p->len;
		if (!(p->options & XDP_PKT_CONTD))
			whole = i + 1;
	}
	if (i == fit && whole != fit)
		why = TX_OPEN_CHAIN;
	for (uint32_t j = whole; j < i; j++) {
		g->held[tx_frame(g, pkts[j].addr, simple)] = true;
		sum -= pkts[j].len;
	}
	*bytes = sum;
	*fault = why;
	return whole;
}

/*
 * tx_write() for the common socket: aligned chunks a power of two in size
 * and no multi-buffer, so every packet is a chain of its own and options
 * must be 0. Writes pkts[0..n) to the n consecutive descriptors at d (a
 * stretch of the ring that does not wrap) and adds their bytes to *bytes.
 * Each check is one operation and a branch (the length's two folded into
 * one: len 0 wraps past the frame), and the loop stops at the first packet
 * that fails (the caller's tx_check() says why). Not inlined: the loop
 * wants every register. Returns the packets written.
 */
static __attribute__((noinline)) uint32_t
tx_write_plain(const struct tx_geometry *g, struct xdp_desc *d,
	       const struct xskx_pkt *pkts, uint32_t n, uint64_t *bytes)
{
	/*
	 * Locals, not g's fields: the stores to the held map and the ring
	 * could alias them and force a reload of each per packet.
	 */
	const uint32_t shift = g->shift;
	const uint64_t frames = g->frame_count, offset_mask = g->frame_size - 1;
	const struct xskx_pkt *p = pkts, *end = pkts + n;
	bool *held = g->held;
	uint64_t sum = 0;

	for (; p != end; p++, d++) {
		const uint64_t addr = p->addr, frame = addr >> shift;
		const uint32_t len = p->len;

		if (__builtin_expect(p->options || frame >= frames ||
					     (addr & offset_mask) + (uint32_t)(len - 1) > offset_mask ||
					     !held[frame],
				     0))
			break;
		held[frame] = false;
		d->addr = addr;
		d->len = len;
		d->options = 0;
		sum += len;
	}
	*bytes += sum;
	return (uint32_t)(p - pkts);
}

/*
 * Why tx_write_plain() stopped at p: no options means no TX metadata room
 * on the UMEM, so the checks run without it.
 */
static enum tx_fault plain_fault(struct tx_geometry *g,
				 const struct xskx_pkt *p)
{
	uint64_t frame;

	g->meta_len = 0;
	return tx_check(g, p, &frame, true);
}

/* tx_write_plain() on the fit slots reserved at idx: up to the ring's end, then from its start. */
static uint32_t tx_write_plain_ring(const struct tx_geometry *g,
				    struct xsk_ring_prod *tx, uint32_t idx,
				    const struct xskx_pkt *pkts, uint32_t fit,
				    uint64_t *bytes)
{
	struct xdp_desc *descs = tx->ring;
	uint32_t first = idx & tx->mask;
	uint32_t tail = xskx__ring_run(idx, tx->size, fit);
	uint32_t done;

	*bytes = 0;
	done = tx_write_plain(g, descs + first, pkts, tail, bytes);
	if (done < tail)
		return done;
	return done + tx_write_plain(g, descs, pkts + tail, fit - tail, bytes);
}

/*
 * Put the good, whole chains among pkts[0..fit) on TX: fit slots are
 * reserved, written as each packet passes its checks, and those after the
 * last good chain given back before the rest is published. Inlined into
 * both TX calls, as it was into the one there was.
 */
static inline __attribute__((always_inline)) uint32_t
tx_queue(struct xskx_socket *s, const struct xskx_pkt *pkts, uint32_t fit,
	 uint64_t *bytes, enum tx_fault *fault)
{
	const struct xskx_umem *umem = s->umem;
	/*
	 * Field by field, the TX metadata ones only where read: the common
	 * socket's path pays nothing for them (an initializer would zero
	 * them).
	 */
	struct tx_geometry g;
	uint32_t idx = 0, whole;

	if (!fit)
		return 0;
	g.held = umem->held;
	g.frame_count = umem->frame_count;
	g.frame_size = umem->frame_size;
	g.shift = umem->frame_shift;
	g.options = s->tx_options;
	g.unaligned = umem->flags & XSKX_UMEM_UNALIGNED;
	xsk_ring_prod__reserve(&s->tx, fit, &idx);
	if (g.shift && !g.unaligned && !g.options) {
		whole = tx_write_plain_ring(&g, &s->tx, idx, pkts, fit, bytes);
		*fault = whole == fit ? TX_OK : plain_fault(&g, &pkts[whole]);
	} else {
		g.meta_len = umem->tx_metadata_len;
		g.meta_flags = s->tx_meta;
		g.area = umem->area;
		if (g.shift && !g.unaligned)
			whole = tx_write(&g, &s->tx, idx, pkts, fit, bytes,
					 fault, true);
		else
			whole = tx_write(&g, &s->tx, idx, pkts, fit, bytes,
					 fault, false);
	}
	xskx_ring_prod_cancel(&s->tx, fit - whole);
	xsk_ring_prod__submit(&s->tx, whole);
	return whole;
}

/*
 * The burst behind both TX calls: reclaim COMPLETION, then the good, whole
 * chains among pkts onto TX. Returns how many packets were queued, or a
 * negative errno when none was: the call cannot run, or pkts[0] was refused
 * (named, counted). When fewer than n were queued, *fault says why the
 * next one was not: a check refused it, or TX_OK when TX ran out of room.
 * The caller kicks. Inlined into each caller, with call a constant.
 */
static inline __attribute__((always_inline)) int
tx_burst_queue(struct xskx_socket *s, const struct xskx_pkt *pkts, uint32_t n,
	       const char *call, enum tx_fault *fault)
{
	enum tx_fault cut = TX_OK;
	uint64_t bytes = 0;
	uint32_t fit;

	*fault = TX_OK;
	if (__builtin_expect(!s || (!pkts && n), 0))
		return xskx__fail(-EINVAL, "%s: socket and pkts must not be NULL",
				  call);
	if (__builtin_expect(s->deferred_err != 0 || !s->tx.ring || s->tx_batch,
			     0))
		return xskx__burst_precondition(s, call, XSKX_USES_TX);
	xskx__reclaim_completions(s);
	fit = tx_fit(s, pkts, n);
	if (__builtin_expect(!fit && n, 0) && chain_exceeds_ring(s, pkts, n))
		return xskx__fail(-EINVAL,
				  "%s: a packet of more than %u fragments can never fit the TX ring of queue %u; raise tx_size",
				  call, s->tx.size, s->queue_id);
	if (__builtin_expect(s->tx_options & XDP_PKT_CONTD, 0)) {
		uint32_t limit = tx_frag_limit(s, pkts, fit);

		if (!limit && fit)
			return tx_refuse(s, call, pkts, 0, TX_TOO_MANY_FRAGS);
		if (limit < fit)
			cut = TX_TOO_MANY_FRAGS;
		fit = limit;
	}
	n = tx_queue(s, pkts, fit, &bytes, fault);
	if (__builtin_expect(!n && *fault != TX_OK, 0))
		return tx_refuse(s, call, pkts, 0, *fault);
	if (n == fit && *fault == TX_OK)
		*fault = cut;
	if (n) {
		s->umem->frames_in_app -= n;
		s->stats.tx_packets += n;
		s->stats.tx_bytes += bytes;
	}
	return (int)n;
}

XSKX_API int xskx_tx_burst(struct xskx_socket *s, const struct xskx_pkt *pkts,
			   uint32_t n)
{
	enum tx_fault fault;
	int queued = tx_burst_queue(s, pkts, n, "xskx_tx_burst", &fault);

	if (__builtin_expect(queued < 0, 0))
		return queued;
	/*
	 * A packet refused after others were queued waits for the next call,
	 * which starts with it: this one returns the count.
	 */
	return xskx__tx_finish(s, (uint32_t)queued);
}

XSKX_API int xskx_tx_burst_status(struct xskx_socket *s,
				  const struct xskx_pkt *pkts, uint32_t n,
				  uint32_t *accepted)
{
	enum tx_fault fault;
	int queued, err;

	if (__builtin_expect(!accepted, 0))
		return xskx__fail(-EINVAL,
				  "xskx_tx_burst_status: accepted must not be NULL");
	*accepted = 0;
	queued = tx_burst_queue(s, pkts, n, "xskx_tx_burst_status", &fault);
	if (__builtin_expect(queued < 0, 0))
		return queued;
	*accepted = (uint32_t)queued;
	/*
	 * The wakeup first: the packets queued need it whatever follows. A
	 * hard kick error (the socket is broken) wins over a refusal, which
	 * the next call meets again, starting with the refused packet.
	 */
	err = xskx__tx_kick_if_due(s, (uint32_t)queued);
	if (__builtin_expect(err != 0, 0))
		return err;
	if (__builtin_expect(fault != TX_OK, 0))
		return tx_refuse(s, "xskx_tx_burst_status", pkts,
				 (uint32_t)queued, fault);
	return 0;
}

