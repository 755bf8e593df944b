// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The verdict batch (xskx/verdict.h): an open RX batch judged packet by
 * packet in one pass. Every verdict and every precondition is checked
 * before anything moves, so that a refused call leaves the batch as it
 * was; then each packet's descriptors go, in the ring's order, to out's TX
 * slots (reserved once, the unused cancelled), to the pool (dropped: FILL
 * is topped up from it by the refill every RX call makes), or to the
 * caller's keep array, held as xskx_rx_burst() holds what it returns. RX
 * is released once, for every entry taken, as xskx_rx_forward() does.
 */
#include <errno.h>

#include <xskx/verdict.h>

#include "api.h"
#include "frames/frame_pool.h"
#include "log_internal.h"
#include "rings/call.h"
#include "rings/completion.h"
#include "rings/fill.h"
#include "rings/kick.h"
#include "rings/tx.h"
#include "rings/tx_meta.h"

/*
 * Entries of the chain starting at entry i: 1 for a single frame, and
 * always 1 where the socket cannot receive chains (no multi-buffer), so
 * that such a socket never reads an option to judge its batch.
 */
static inline uint32_t chain_len(const struct xskx_rx_batch *b, uint32_t i,
				 bool chains)
{
	uint32_t k = 1;

	if (!chains)
		return 1;
	while (i + k < b->n && (b->desc[i + k - 1].options & XDP_PKT_CONTD))
		k++;
	return k;
}

/* What a call needs, found before anything moves. */
struct verdict_plan {
	uint32_t pass_packets;	/* some pass: out is used */
	uint32_t pass_entries;	/* of the packets that pass */
	bool chains;		/* a passing packet is a chain */
	uint32_t keep_entries;	/* of the packets kept */
};

static int verdict_refused(const struct xskx_socket *s, uint8_t v, uint32_t i)
{
	return xskx__fail(-EINVAL,
			  "xskx_rx_verdict: verdict %u for entry %u of the batch on queue %u: XSKX_PKT_DROP, XSKX_PKT_PASS or XSKX_PKT_KEEP",
			  v, i, s->queue_id);
}

static int plan_verdicts(const struct xskx_socket *s,
			 const struct xskx_rx_batch *b, const uint8_t *verdicts,
			 bool chains, struct verdict_plan *p)
{
	struct verdict_plan plan = { 0 };
	uint32_t i, k;

	if (!chains) {
		/*
		 * Each entry is a packet: one pass over the verdicts without
		 * a branch (vector code), and a second only to name a bad one.
		 */
		uint32_t drops = 0, passes = 0, keeps = 0;

		for (i = 0; i < b->n; i++) {
			drops += verdicts[i] == XSKX_PKT_DROP;
			passes += verdicts[i] == XSKX_PKT_PASS;
			keeps += verdicts[i] == XSKX_PKT_KEEP;
		}
		if (__builtin_expect(drops + passes + keeps != b->n, 0)) {
			for (i = 0; verdicts[i] <= XSKX_PKT_KEEP; i++)
				;
			return verdict_refused(s, verdicts[i], i);
		}
		*p = (struct verdict_plan){ .pass_packets = passes,
					    .pass_entries = passes,
					    .keep_entries = keeps };
		return 0;
	}
	for (i = 0; i < b->n; i += k) {
		k = chain_len(b, i, true);
		switch (verdicts[i]) {
		case XSKX_PKT_DROP:
			break;
		case XSKX_PKT_PASS:
			plan.pass_packets++;
			plan.pass_entries += k;
			plan.chains |= k > 1;
			break;
		case XSKX_PKT_KEEP:
			plan.keep_entries += k;
			break;
		default:
			return verdict_refused(s, verdicts[i], i);
		}
	}
	*p = plan;
	return 0;
}

/* Why out cannot take the passing packets of sock, or 0. */
static int out_refused(struct xskx_socket *s, struct xskx_socket *out,
		       bool chains)
{
	if (!out)
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: a packet of the batch on queue %u passes and out is NULL: name the socket to forward to",
				  s->queue_id);
	if (__builtin_expect(out->deferred_err != 0 || !out->tx.ring ||
				     out->tx_batch, 0))
		return xskx__burst_precondition(out, "xskx_rx_verdict",
						XSKX_USES_TX);
	if (out->umem != s->umem)
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: the socket on queue %u is on another UMEM than the one on queue %u: a passing packet's frame goes to TX as it is, without a copy; open both on one UMEM, or copy the packet into a frame of out's and use xskx_tx_burst()",
				  out->queue_id, s->queue_id);
	if (chains && !(out->tx_options & XDP_PKT_CONTD))
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: a chain of fragments (multi-buffer) passes from the socket on queue %u and the one on queue %u cannot send it: open it with XSKX_SOCKET_MULTI_BUFFER",
				  s->queue_id, out->queue_id);
	return 0;
}

/*
 * Where the call puts what it takes, and its counts, kept here and not in
 * the caller's result as it goes: the TX slots it writes could alias them.
 */
struct verdict_run {
	struct xskx_socket *s, *out;
	struct xskx_umem *umem;
	uint32_t tx_idx, tx_room, tx_used;
	uint32_t forwarded, dropped, tx_full_dropped;
	bool tx_timestamps; /* the UMEM's TX metadata to clear */
	uint64_t bytes, tx_bytes; /* taken from RX; of them, onto TX */
	struct xskx_rx_verdict_result *res;
};

/* n entries, whole packets that pass, onto out's TX slots. */
static inline __attribute__((always_inline)) void
pass(struct verdict_run *r, const struct xdp_desc *d, uint32_t n)
{
	struct xdp_desc *slots = r->out->tx.ring;
	const uint32_t mask = r->out->tx.mask;

	for (uint32_t j = 0; j < n; j++) {
		slots[(r->tx_idx + r->tx_used + j) & mask] = d[j];
		r->tx_bytes += d[j].len;
	}
	if (__builtin_expect(r->tx_timestamps, 0))
		xskx__tx_meta_clear(r->umem, d, n);
	r->tx_used += n;
}

static void drop(struct verdict_run *r, const struct xdp_desc *d, uint32_t k)
{
	for (uint32_t j = 0; j < k; j++) {
		xskx_pool_put(r->umem, d[j].addr);
		r->bytes += d[j].len;
	}
}

static void keep(struct verdict_run *r, const struct xskx_rx_batch *b,
		 uint32_t i, uint32_t k)
{
	struct xskx_pkt *pkt = r->res->keep + r->res->keep_entries;

	for (uint32_t j = 0; j < k; j++) {
		const struct xdp_desc *d = &b->desc[i + j];

		pkt[j] = (struct xskx_pkt){
			.addr = d->addr,
			.len = d->len,
			.options = d->options,
			.data = xskx_rx_batch_data(b, i + j),
		};
		xskx_mark_held(r->umem, d->addr);
		r->bytes += d->len;
	}
	r->umem->frames_in_app += k;
	r->res->keep_entries += k;
	r->res->kept++;
}

/*
 * Judge the batch's packets in order; returns the entries taken. Stops at
 * a passing packet TX has no room for, unless it is to be dropped. Inline
 * twice, with and without chains, so that a socket without multi-buffer
 * judges each entry as a packet and measures nothing.
 */
static inline __attribute__((always_inline)) uint32_t
judge(struct verdict_run *r, const struct xskx_rx_batch *b,
      const uint8_t *verdicts, uint32_t flags, const bool chains,
      const struct verdict_plan *plan)
{
	uint32_t i, k;

	/* A forwarder's common batch: every packet passes, and TX has room. */
	if (b->n && plan->pass_entries == b->n && r->tx_room == b->n) {
		pass(r, b->desc, b->n);
		r->forwarded = plan->pass_packets;
		return b->n;
	}
	for (i = 0; i < b->n; i += k) {
		const struct xdp_desc *d = &b->desc[i];

		k = chain_len(b, i, chains);
		if (verdicts[i] == XSKX_PKT_DROP) {
			drop(r, d, k);
			r->dropped++;
		} else if (verdicts[i] == XSKX_PKT_KEEP) {
			keep(r, b, i, k);
		} else if (r->tx_used + k <= r->tx_room) {
			pass(r, d, k);
			r->forwarded++;
		} else if (flags & XSKX_RX_VERDICT_TX_FULL_DROP) {
			drop(r, d, k);
			r->tx_full_dropped++;
		} else {
			r->res->held = b->n - i;
			break;
		}
	}
	return i;
}

XSKX_API int xskx_rx_verdict(struct xskx_socket *s, struct xskx_rx_batch *b,
			     const uint8_t *verdicts, struct xskx_socket *out,
			     uint32_t flags, struct xskx_rx_verdict_result *res)
{
	struct verdict_plan plan = { 0 };
	struct verdict_run run;
	uint32_t taken;
	bool chains;
	int err;

	if (__builtin_expect(!s || !b || !res || (!verdicts && b->n), 0))
		return xskx__fail(-EINVAL, "xskx_rx_verdict: socket, batch, verdicts and res must not be NULL");
	if (flags & ~XSKX_RX_VERDICT_TX_FULL_DROP)
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: flags 0x%x: the only flag is XSKX_RX_VERDICT_TX_FULL_DROP (0x%x)",
				  flags, XSKX_RX_VERDICT_TX_FULL_DROP);
	if (__builtin_expect(b->n && (b->desc != s->rx_batch_desc ||
				      b->n != s->rx_batch), 0))
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: the batch is not the open one of the socket on queue %u (a copy made before the last call on it, or another socket's): pass the batch xskx_rx_peek() filled in",
				  s->queue_id);
	chains = s->bind_flags & XDP_USE_SG;
	err = plan_verdicts(s, b, verdicts, chains, &plan);
	if (err)
		return err;
	if (plan.keep_entries > res->keep_max)
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: the packets kept of the batch on queue %u take %u entries and res->keep has %u: make keep_max at least the batch's size",
				  s->queue_id, plan.keep_entries, res->keep_max);
	if (plan.pass_packets && (err = out_refused(s, out, plan.chains)))
		return err;

	res->kept = res->keep_entries = res->held = 0;
	run = (struct verdict_run){
		.s = s, .out = out, .umem = s->umem, .res = res,
		.tx_timestamps = s->umem->flags & XSKX_UMEM_TX_TIMESTAMPS,
	};
	if (plan.pass_packets) {
		xskx__reclaim_completions(out);
		run.tx_room = xskx__tx_room(out, b->n);
		if (run.tx_room)
			xsk_ring_prod__reserve(&out->tx, run.tx_room,
					       &run.tx_idx);
	}
	taken = chains ? judge(&run, b, verdicts, flags, true, &plan) :
			 judge(&run, b, verdicts, flags, false, &plan);
	res->forwarded = run.forwarded;
	res->dropped = run.dropped;
	res->tx_full_dropped = run.tx_full_dropped;
	if (run.tx_room) {
		xskx_ring_prod_cancel(&out->tx, run.tx_room - run.tx_used);
		xsk_ring_prod__submit(&out->tx, run.tx_used);
		out->stats.tx_packets += run.tx_used;
		out->stats.tx_bytes += run.tx_bytes;
	}
	xsk_ring_cons__release(&s->rx, taken);
	/* Passed, dropped or kept, what it took left the queue's FILL share. */
	s->fq->posted -= taken;
	b->desc += taken;
	b->n -= taken;
	s->rx_batch = b->n;
	s->rx_batch_desc = b->desc;
	s->stats.rx_bytes += run.bytes + run.tx_bytes;
	if (res->dropped || res->tx_full_dropped)
		xskx__refill(s);
	if (!plan.pass_packets)
		return (int)taken;
	/* A kick's failure after packets moved comes from out's next call. */
	return xskx__call_result(out, taken,
				 xskx__tx_kick_if_due(out, run.tx_used));
}
