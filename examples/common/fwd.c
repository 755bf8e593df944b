// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The forwarding core of xskx-l2fwd and xskx-fw (see fwd.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

#define FWD_DEFAULT_BATCH 64

const char *const fwd_tx_full_names[FWD_TX_FULL_CHOICES] = { "hold", "drop" };

/* Single writer: a plain read of our own counter, an atomic store for readers. */
static void count(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter, *counter + n, __ATOMIC_RELAXED);
}

bool fwd_port_zero_copy(const struct fwd_port *port)
{
	struct xskx_socket_info info;

	return !xskx_socket_info(port->sock, &info) && info.zero_copy;
}

void fwd_counters_read(const struct fwd_port *port, struct fwd_counters *c)
{
	c->rx = __atomic_load_n(&port->count.rx, __ATOMIC_RELAXED);
	c->tx = __atomic_load_n(&port->count.tx, __ATOMIC_RELAXED);
	c->tx_full_drops = __atomic_load_n(&port->count.tx_full_drops,
					   __ATOMIC_RELAXED);
	c->tx_rejected = __atomic_load_n(&port->count.tx_rejected,
					 __ATOMIC_RELAXED);
	c->dropped = __atomic_load_n(&port->count.dropped, __ATOMIC_RELAXED);
	c->csum_completed = __atomic_load_n(&port->count.csum_completed,
					    __ATOMIC_RELAXED);
}

void fwd_counters_add(struct fwd_counters *sum, const struct fwd_counters *c)
{
	sum->rx += c->rx;
	sum->tx += c->tx;
	sum->tx_full_drops += c->tx_full_drops;
	sum->tx_rejected += c->tx_rejected;
	sum->dropped += c->dropped;
	sum->csum_completed += c->csum_completed;
}

static int open_port(struct fwd_queue *q, struct fwd_port *port,
		     struct xskx_port *xport, const struct fwd_config *cfg)
{
	/*
	 * A pure forwarder only transmits frames it received: no frames need
	 * to stay in the pool for packets of its own (no tx_reserve). The
	 * library shares the UMEM's frames between the ports' FILL rings.
	 */
	XSKX_OPTS(xskx_socket_opts, opts, .port = xport,
		  .queue_id = cfg->queue_id, .rx_size = cfg->rx_size,
		  .flags = cfg->multi_buffer ? XSKX_SOCKET_MULTI_BUFFER : 0,
		  .tx_reserve = XSKX_TX_RESERVE_NONE,
		  .tx_kick_batch = cfg->tx_kick_batch,
		  .tx_kick_usec = cfg->tx_kick_usec);

	port->port = xport;
	port->pkts = calloc(q->batch, sizeof(*port->pkts));
	port->verdicts = calloc(q->batch, sizeof(*port->verdicts));
	port->held = calloc(q->batch, sizeof(*port->held));
	if (!port->pkts || !port->verdicts || !port->held)
		return -ENOMEM;
	return xskx_socket_open(&port->sock, q->umem, &opts);
}

int fwd_open(struct fwd_queue *q, const struct fwd_config *cfg)
{
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = cfg->frames,
		  .frame_size = xskx_frame_size_for_mtu(1500, 0));
	int err;

	memset(q, 0, sizeof(*q));
	q->nports = cfg->nports;
	q->batch = cfg->batch ? cfg->batch : FWD_DEFAULT_BATCH;
	q->tx_full = cfg->tx_full;
	q->multi_buffer = cfg->multi_buffer;
	q->keep_partial_csum = cfg->keep_partial_csum;
	q->filter = cfg->filter;
	q->filter_ctx = cfg->filter_ctx;
	if (cfg->capture && !(q->capture = capture_writer_take_ring(cfg->capture)))
		return -EINVAL; /* the writer has a ring per queue */
	err = xskx_umem_create(&q->umem, &umem_opts);
	for (uint32_t i = 0; !err && i < q->nports; i++)
		err = open_port(q, &q->ports[i], cfg->ports[i], cfg);
	/*
	 * Every port of the UMEM is open, so the shares are final: a burst
	 * that receives nothing fills each port's FILL ring with its share.
	 */
	for (uint32_t i = 0; !err && i < q->nports; i++) {
		int got = xskx_rx_burst(q->ports[i].sock, q->ports[i].pkts, 0);

		err = got < 0 ? got : 0;
	}
	if (err)
		fwd_close(q); /* the open's error is the one to report */
	return err;
}

/*
 * The fragments of the packet at pkts[0] (1 without multi-buffer: each
 * descriptor is a packet). A batch and a keep hand over whole chains only.
 */
static uint32_t frags_of(const struct fwd_queue *q, const struct xskx_pkt *pkts,
			 uint32_t n)
{
	uint32_t frags;

	if (!q->multi_buffer)
		return 1;
	frags = xskx_pkt_frags(pkts, n, NULL);
	return frags ? frags : n;
}

/* The packets among n descriptors. */
static uint32_t packets_in(const struct fwd_queue *q,
			   const struct xskx_pkt *pkts, uint32_t n)
{
	uint32_t packets = 0;

	if (!q->multi_buffer)
		return n;
	for (uint32_t i = 0; i < n; i += frags_of(q, pkts + i, n - i))
		packets++;
	return packets;
}

/*
 * Headers a forwarder touches are in a chain's first fragment: the MACs
 * reflect swaps, the checksum field of a partial checksum. Returns 1 when
 * it completed a checksum.
 */
static uint64_t fix_headers(const struct fwd_queue *q,
			    const struct xskx_pkt *pkts, uint32_t frags)
{
	uint64_t completed = 0;

	if (!q->keep_partial_csum && xskx_pkt_csum_complete(pkts, frags) > 0)
		completed++;
	if (q->nports == 1)
		fwd_swap_macs(pkts[0].data);
	return completed;
}

/*
 * Peek at a batch on port `index` and judge it: the filter's verdicts,
 * then the headers of the packets that pass fixed. Returns the entries
 * received, or a negative errno from the library.
 */
static int receive(struct fwd_queue *q, uint32_t index)
{
	struct fwd_port *in = &q->ports[index];
	struct xskx_rx_batch *b = &in->batch;
	uint64_t packets = 0, completed = 0;
	uint32_t n, frags;
	int got;

	in->passing = 0;
	got = xskx_rx_peek(in->sock, b, q->batch);
	if (got <= 0)
		return got;
	n = (uint32_t)got;
	for (uint32_t i = 0; i < n; i++)
		in->pkts[i] = (struct xskx_pkt){
			.addr = b->desc[i].addr,
			.len = xskx_rx_batch_len(b, i),
			.options = xskx_rx_batch_options(b, i),
			.data = xskx_rx_batch_data(b, i),
		};
	memset(in->verdicts, XSKX_PKT_PASS, n);
	if (q->filter)
		q->filter(q->filter_ctx, index, in->pkts, n, in->verdicts);
	for (uint32_t i = 0; i < n; i += frags) {
		frags = frags_of(q, in->pkts + i, n - i);
		packets++;
		if (in->verdicts[i] != XSKX_PKT_PASS)
			continue;
		in->passing++;
		completed += fix_headers(q, in->pkts + i, frags);
	}
	count(&in->count.rx, packets);
	count(&in->count.csum_completed, completed);
	return got;
}

/*
 * Copy the packets sent among pkts[0..n) to the capture ring, chains
 * whole: those whose verdict passes, or all of them when verdicts is NULL.
 * They are on TX, their frames ours to read: only this thread reclaims
 * the completions that would reuse them.
 */
static void capture_sent(const struct fwd_queue *q, const struct xskx_pkt *pkts,
			 const uint8_t *verdicts, uint32_t n)
{
	uint32_t frags;

	for (uint32_t i = 0; i < n; i += frags) {
		frags = frags_of(q, pkts + i, n - i);
		if (!verdicts || verdicts[i] == XSKX_PKT_PASS)
			capture_ring_put(q->capture, pkts + i, frags, NULL);
	}
}

/* What `in` holds goes back to the pool, counted in `counter`. */
static void release_held(const struct fwd_queue *q, struct fwd_port *in,
			 uint64_t *counter)
{
	xskx_rx_release(in->sock, in->held + in->held_next, in->held_count);
	count(counter, packets_in(q, in->held + in->held_next, in->held_count));
	in->held_count = 0;
}

/*
 * The rest of `in`'s batch, from verdicts[from] on, when TX had no room
 * for its first passing packet: under drop, back to FILL, the passing
 * packets counted in tx_full_drops; under hold, the passing packets kept
 * (XSKX_PKT_KEEP) for the next rounds to send, the others dropped. Either
 * way the batch closes and RX is read again only once nothing is held.
 */
static int set_aside(struct fwd_queue *q, struct fwd_port *in, uint32_t from)
{
	struct xskx_rx_verdict_result res = { .keep = in->held,
					      .keep_max = q->batch };
	uint8_t *verdicts = in->verdicts + from;
	int err;

	if (q->tx_full == FWD_TX_FULL_DROP) {
		count(&in->count.tx_full_drops, in->passing);
		err = xskx_rx_recycle(in->sock, &in->batch);
		return err < 0 ? err : 0;
	}
	for (uint32_t i = 0; i < in->batch.n; i++)
		if (verdicts[i] == XSKX_PKT_PASS)
			verdicts[i] = XSKX_PKT_KEEP;
	err = xskx_rx_verdict(in->sock, &in->batch, verdicts, NULL, 0, &res);
	if (err < 0)
		return err;
	in->held_next = 0;
	in->held_count = res.keep_entries;
	return 0;
}

/*
 * Hand what `in` holds to `out`'s TX ring, as much as it takes. A packet
 * TX refuses (logged) goes back to the pool, counted in tx_rejected.
 */
static int send_held(struct fwd_queue *q, struct fwd_port *in,
		     struct fwd_port *out)
{
	const struct xskx_pkt *held = in->held + in->held_next;
	int sent = xskx_tx_burst(out->sock, held, in->held_count);

	if (sent == -EINVAL) {
		uint32_t frags = frags_of(q, held, in->held_count);

		xskx_rx_release(in->sock, held, frags);
		in->held_next += frags;
		in->held_count -= frags;
		count(&in->count.tx_rejected, 1);
		return 0;
	}
	if (sent < 0)
		return sent;
	if (q->capture)
		capture_sent(q, held, NULL, (uint32_t)sent);
	count(&out->count.tx, packets_in(q, held, (uint32_t)sent));
	in->held_next += (uint32_t)sent;
	in->held_count -= (uint32_t)sent;
	return sent;
}

/*
 * Move what `in` receives to `out`'s TX ring, dropping what the filter
 * denied, in one xskx_rx_verdict() per batch; what `in` holds goes first,
 * and until it has all gone `in` is not read. A round that passes nothing
 * still calls the TX burst: it reclaims `out`'s completions into the
 * pool, from which the RX calls refill FILL, and wakes `out`'s TX if the
 * peer asks (a verdict that passes a packet does both itself).
 */
static int forward(struct fwd_queue *q, uint32_t in_index,
		   struct fwd_port *out)
{
	struct fwd_port *in = &q->ports[in_index];
	struct xskx_rx_verdict_result res = { 0 };
	int received, taken, err;

	if (in->held_count)
		return send_held(q, in, out);
	received = receive(q, in_index);
	if (received < 0)
		return received;
	if (!in->passing && (err = xskx_tx_burst(out->sock, in->pkts, 0)) < 0)
		return err;
	if (!received)
		return 0;
	taken = xskx_rx_verdict(in->sock, &in->batch, in->verdicts, out->sock,
				0, &res);
	if (taken < 0)
		return taken;
	if (q->capture)
		capture_sent(q, in->pkts, in->verdicts, (uint32_t)taken);
	count(&out->count.tx, res.forwarded);
	in->passing -= res.forwarded;
	if (in->batch.n && (err = set_aside(q, in, (uint32_t)taken)) < 0)
		return err;
	return received + taken;
}

int fwd_step(struct fwd_queue *q)
{
	int moved = 0;

	for (uint32_t i = 0; i < q->nports; i++) {
		int n = forward(q, i, &q->ports[(i + 1) % q->nports]);

		if (n < 0)
			return n;
		moved += n;
	}
	return moved;
}

uint32_t fwd_held(const struct fwd_queue *q)
{
	uint32_t held = 0;

	for (uint32_t i = 0; i < q->nports; i++)
		held += q->ports[i].held_count;
	return held;
}

int fwd_wait(struct fwd_queue *q, int timeout_ms)
{
	struct pollfd fds[FWD_MAX_PORTS];

	if (fwd_held(q))
		return 0;
	for (uint32_t i = 0; i < q->nports; i++) {
		int fd = xskx_socket_fd(q->ports[i].sock);

		if (fd < 0)
			return 0;
		fds[i] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	/* A signal (the stop) ends the wait early: the caller looks. */
	if (poll(fds, q->nports, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 1;
}

void fwd_finish(struct fwd_queue *q)
{
	for (uint32_t i = 0; i < q->nports; i++) {
		struct fwd_port *port = &q->ports[i];

		if (!port->sock)
			continue;
		release_held(q, port, &port->count.dropped);
		xskx_tx_reclaim(port->sock);
	}
}

int fwd_close(struct fwd_queue *q)
{
	int first_err = 0, err;

	for (uint32_t i = 0; i < q->nports; i++) {
		if (q->ports[i].sock && (err = xskx_socket_close(q->ports[i].sock)))
			first_err = first_err ? first_err : err;
		free(q->ports[i].pkts);
		free(q->ports[i].verdicts);
		free(q->ports[i].held);
		q->ports[i] = (struct fwd_port){ 0 };
	}
	if (q->umem && (err = xskx_umem_destroy(q->umem)))
		first_err = first_err ? first_err : err;
	q->umem = NULL;
	return first_err;
}
