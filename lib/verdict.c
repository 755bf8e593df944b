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

/* Entries of the chain starting at entry i (1 for a single frame). */
static uint32_t chain_len(const struct xskx_rx_batch *b, uint32_t i)
{
	uint32_t k = 1;

	while (i + k < b->n && (b->desc[i + k - 1].options & XDP_PKT_CONTD))
		k++;
	return k;
}

/* What a call needs, found before anything moves. */
struct verdict_plan {
	bool passes;		/* some packet passes: out is used */
	bool chains;		/* a passing packet is a chain */
	uint32_t keep_entries;	/* of the packets kept */
};

static int plan_verdicts(const struct xskx_socket *s,
			 const struct xskx_rx_batch *b, const uint8_t *verdicts,
			 struct verdict_plan *p)
{
	*p = (struct verdict_plan){ 0 };
	for (uint32_t i = 0, k; i < b->n; i += k) {
		k = chain_len(b, i);
		switch (verdicts[i]) {
		case XSKX_PKT_DROP:
			break;
		case XSKX_PKT_PASS:
			p->passes = true;
			p->chains |= k > 1;
			break;
		case XSKX_PKT_KEEP:
			p->keep_entries += k;
			break;
		default:
			return xskx__fail(-EINVAL,
					  "xskx_rx_verdict: verdict %u for entry %u of the batch on queue %u: XSKX_PKT_DROP, XSKX_PKT_PASS or XSKX_PKT_KEEP",
					  verdicts[i], i, s->queue_id);
		}
	}
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

/* Where the call puts what it takes. */
struct verdict_run {
	struct xskx_socket *s, *out;
	struct xskx_umem *umem;
	uint32_t tx_idx, tx_room, tx_used;
	uint64_t bytes, tx_bytes; /* taken from RX; of them, onto TX */
	struct xskx_rx_verdict_result *res;
};

static void pass(struct verdict_run *r, const struct xdp_desc *d, uint32_t k)
{
	struct xdp_desc *slots = r->out->tx.ring;
	const uint32_t mask = r->out->tx.mask;

	for (uint32_t j = 0; j < k; j++) {
		slots[(r->tx_idx + r->tx_used + j) & mask] = d[j];
		r->tx_bytes += d[j].len;
	}
	if (__builtin_expect(r->umem->flags & XSKX_UMEM_TX_TIMESTAMPS, 0))
		xskx__tx_meta_clear(r->umem, d, k);
	/* They left the queue's share for TX, as xskx_rx_forward()'s do. */
	r->s->fq->posted -= k;
	r->tx_used += k;
	r->res->forwarded++;
}

static void drop(struct verdict_run *r, const struct xdp_desc *d, uint32_t k,
		 uint32_t *count)
{
	for (uint32_t j = 0; j < k; j++) {
		xskx_pool_put(r->umem, d[j].addr);
		r->bytes += d[j].len;
	}
	r->s->fq->posted -= k;
	(*count)++;
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
	r->s->fq->posted -= k;
	r->umem->frames_in_app += k;
	r->res->keep_entries += k;
	r->res->kept++;
}

/*
 * Judge the batch's packets in order; returns the entries taken. Stops at
 * a passing packet TX has no room for, unless it is to be dropped.
 */
static uint32_t judge(struct verdict_run *r, const struct xskx_rx_batch *b,
		      const uint8_t *verdicts, uint32_t flags)
{
	uint32_t i, k;

	for (i = 0; i < b->n; i += k) {
		const struct xdp_desc *d = &b->desc[i];

		k = chain_len(b, i);
		if (verdicts[i] == XSKX_PKT_DROP) {
			drop(r, d, k, &r->res->dropped);
		} else if (verdicts[i] == XSKX_PKT_KEEP) {
			keep(r, b, i, k);
		} else if (r->tx_used + k <= r->tx_room) {
			pass(r, d, k);
		} else if (flags & XSKX_RX_VERDICT_TX_FULL_DROP) {
			drop(r, d, k, &r->res->tx_full_dropped);
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
	struct verdict_plan plan;
	struct verdict_run run;
	uint32_t taken;
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
	err = plan_verdicts(s, b, verdicts, &plan);
	if (err)
		return err;
	if (plan.keep_entries > res->keep_max)
		return xskx__fail(-EINVAL,
				  "xskx_rx_verdict: the packets kept of the batch on queue %u take %u entries and res->keep has %u: make keep_max at least the batch's size",
				  s->queue_id, plan.keep_entries, res->keep_max);
	if (plan.passes && (err = out_refused(s, out, plan.chains)))
		return err;

	res->forwarded = res->dropped = res->tx_full_dropped = 0;
	res->kept = res->keep_entries = res->held = 0;
	run = (struct verdict_run){ .s = s, .out = out, .umem = s->umem,
				    .res = res };
	if (plan.passes) {
		xskx__reclaim_completions(out);
		run.tx_room = xskx__tx_room(out, b->n);
		if (run.tx_room)
			xsk_ring_prod__reserve(&out->tx, run.tx_room,
					       &run.tx_idx);
	}
	taken = judge(&run, b, verdicts, flags);
	if (run.tx_room) {
		xskx_ring_prod_cancel(&out->tx, run.tx_room - run.tx_used);
		xsk_ring_prod__submit(&out->tx, run.tx_used);
		out->stats.tx_packets += run.tx_used;
		out->stats.tx_bytes += run.tx_bytes;
	}
	xsk_ring_cons__release(&s->rx, taken);
	b->desc += taken;
	b->n -= taken;
	s->rx_batch = b->n;
	s->rx_batch_desc = b->desc;
	s->stats.rx_bytes += run.bytes + run.tx_bytes;
	if (res->dropped || res->tx_full_dropped)
		xskx__refill(s);
	if (!plan.passes)
		return (int)taken;
	/* A kick's failure after packets moved comes from out's next call. */
	return xskx__call_result(out, taken,
				 xskx__tx_kick_if_due(out, run.tx_used));
}
