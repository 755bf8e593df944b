// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the three modes of xdpsock on the xskx burst API. Each step is
 * one burst; run.c calls it in a loop. The burst calls refill FILL, reclaim
 * COMPLETION and kick the peer themselves, only when it asks for it.
 */
#include <errno.h>
#include <netinet/udp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "eth.h"

/* -F: the packets among n descriptors are the chains' last fragments. */
static uint32_t packets_in(const struct xskx_pkt *pkts, uint32_t n)
{
	uint32_t ends = 0;

	for (uint32_t i = 0; i < n; i++)
		ends += !(pkts[i].options & XDP_PKT_CONTD);
	return ends;
}

int bench_rxdrop_step(struct bench *b)
{
	int n = xskx_rx_burst(b->sock, b->pkts, b->opts->batch);

	if (n <= 0)
		return n;
	if (b->opts->rx_meta)
		bench_rx_meta_count(&b->rx_meta, b->sock, b->pkts, (uint32_t)n);
	xskx_rx_release(b->sock, b->pkts, (uint32_t)n);
	b->rx_packets += b->opts->multi_buffer ? packets_in(b->pkts, (uint32_t)n) :
						 (uint32_t)n;
	return n;
}

/*
 * Write the txonly packet into every frame once, as xdpsock does. With -F a
 * packet larger than a frame's room goes out as a chain of fragments; the
 * pool hands out frames in any order, so a chain's frames get their part of
 * the packet as it is sent (a copy xdpsock, whose chains take consecutive
 * frames, does not make).
 */
/* --pcap-in: every frame of the capture fits a frame's room. */
static int check_replay(const struct bench *b)
{
	const struct capture_load *c = &b->opts->replay;

	for (uint32_t k = 0; k < c->n; k++)
		if (c->len[k] > b->frag_room) {
			fprintf(stderr,
				"xskx-bench: capture %s: frame %u: %u bytes is more than a UMEM frame's %u-byte room: raise --frame-size\n",
				b->opts->capture.in, k + 1, c->len[k],
				b->frag_room);
			return -EMSGSIZE;
		}
	return 0;
}

int bench_txonly_prepare(struct bench *b)
{
	const struct bench_opts *o = b->opts;
	uint32_t count = xskx_umem_frame_count(b->umem);
	void *area = xskx_umem_area(b->umem);
	uint64_t *frames;
	uint32_t n;

	if (o->replay.n)
		return check_replay(b);
	frames = calloc(count, sizeof(*frames));
	b->pkt_bytes = malloc(o->pkt_size);
	if (!frames || !b->pkt_bytes) {
		free(frames);
		return run_lib_error("malloc", -ENOMEM);
	}
	bench_build_udp_frame(b->pkt_bytes, o->pkt_size, &o->packet);
	n = xskx_frame_alloc(b->umem, frames, count);
	for (uint32_t i = 0; i < n; i++)
		memcpy(xskx_umem_addr_data(area, xskx_umem_tx_addr(b->umem,
								   frames[i])),
		       b->pkt_bytes,
		       o->pkt_size < b->frag_room ? o->pkt_size : b->frag_room);
	xskx_frame_free(b->umem, frames, n);
	free(frames);
	return 0;
}

/* Fragment k of a chain: its part of the packet, into its frame (-F). */
static void fill_fragment(struct bench *b, struct xskx_pkt *pkt, uint32_t k)
{
	uint32_t off = k * b->frag_room;
	uint32_t len = b->opts->pkt_size - off;

	if (len > b->frag_room)
		len = b->frag_room;
	pkt->len = len;
	pkt->options = k + 1 < b->frags_per_pkt ? XDP_PKT_CONTD : 0;
	memcpy(xskx_umem_addr_data(xskx_umem_area(b->umem), pkt->addr),
	       b->pkt_bytes + off, len);
}

/* -y: each packet's sequence number and send time, in its first frame. */
static void stamp(struct bench *b, struct xskx_pkt *pkts, uint32_t n)
{
	void *area = xskx_umem_area(b->umem);
	struct timespec now;

	clock_gettime(b->opts->clock, &now);
	for (uint32_t i = 0; i < n; i += b->frags_per_pkt)
		bench_packet_stamp(xskx_umem_addr_data(area, pkts[i].addr),
				   &b->opts->packet, b->tx_seq++, &now);
}

/* A batch, or what is left of -C's count, as xdpsock's last batch. */
uint32_t bench_txonly_batch(const struct bench *b)
{
	uint64_t left = b->opts->packets - b->tx_packets;

	return b->opts->packets && left < b->opts->batch ? (uint32_t)left :
							   b->opts->batch;
}

/*
 * --tx-checksum: each packet's first fragment asks the peer for its UDP
 * checksum, from the UDP header to the packet's end (TX metadata).
 */
static void ask_checksums(struct bench *b, struct xskx_pkt *pkts, uint32_t n)
{
	uint16_t start = (uint16_t)bench_packet_csum_start(&b->opts->packet);

	for (uint32_t i = 0; i < n; i += b->frags_per_pkt) {
		struct xsk_tx_metadata *m = xskx_tx_meta(b->umem, &pkts[i]);

		m->flags = XDP_TXMD_FLAGS_CHECKSUM;
		m->request.csum_start = start;
		m->request.csum_offset = offsetof(struct udphdr, check);
	}
}

/* --pcap-in: the capture's next frames into the packets' frames. */
static void fill_replay(struct bench *b, struct xskx_pkt *pkts, uint32_t n)
{
	const struct capture_load *c = &b->opts->replay;
	void *area = xskx_umem_area(b->umem);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = (uint32_t)((b->tx_packets + i) % c->n);

		pkts[i].len = c->len[k];
		memcpy(xskx_umem_addr_data(area, pkts[i].addr),
		       c->bytes + c->offset[k], c->len[k]);
	}
}

int bench_txonly_step(struct bench *b)
{
	uint32_t frags = b->frags_per_pkt;
	uint32_t want = bench_pace(b, bench_txonly_batch(b));
	uint32_t got = xskx_frame_alloc(b->umem, b->frames, want * frags);
	uint32_t n = got - got % frags; /* whole packets only */
	int sent;

	for (uint32_t i = 0; i < n; i++) {
		b->pkts[i] = (struct xskx_pkt){
			.addr = b->frames[i] + b->tx_offset,
			.len = b->opts->pkt_size,
		};
		if (frags > 1)
			fill_fragment(b, &b->pkts[i], i % frags);
	}
	if (b->opts->replay.n)
		fill_replay(b, b->pkts, n);
	if (b->opts->packet.timestamp)
		stamp(b, b->pkts, n);
	if (b->opts->packet.tx_checksum)
		ask_checksums(b, b->pkts, n);
	/*
	 * Even with no frame to send (all in flight), the burst reclaims
	 * completions for the next round and wakes the NIC if it stopped.
	 */
	sent = xskx_tx_burst(b->sock, b->pkts, n);
	if (sent < 0) {
		xskx_frame_free(b->umem, b->frames, got);
		return sent;
	}
	/* The TX ring takes a chain whole or not at all. */
	if ((uint32_t)sent < got)
		xskx_frame_free(b->umem, b->frames + sent, got - (uint32_t)sent);
	b->tx_packets += (uint32_t)sent / frags;
	return sent;
}

/* l2fwd -F: swap the MACs of first fragments only; the rest is payload. */
static void swap_first_fragments(struct bench *b, struct xskx_pkt *pkts,
				 uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!b->rx_in_chain)
			eth_swap_macs(pkts[i].data);
		b->rx_in_chain = pkts[i].options & XDP_PKT_CONTD;
	}
}

/*
 * Receive a burst behind the carried fragments of an open chain (-F), swap
 * MACs, and make what ends in whole packets pending; an open chain at the
 * end waits for the rest of its fragments (TX takes a chain whole).
 */
static int l2fwd_receive(struct bench *b)
{
	uint32_t carried = b->fwd_carried, total, whole;
	int n;

	if (carried)
		memmove(b->pkts, b->pkts + b->fwd_next,
			carried * sizeof(*b->pkts));
	n = xskx_rx_burst(b->sock, b->pkts + carried, b->opts->batch);
	if (n < 0)
		return n;
	if (b->opts->rx_meta)
		bench_rx_meta_count(&b->rx_meta, b->sock, b->pkts + carried,
				    (uint32_t)n);
	if (!b->opts->multi_buffer) {
		for (int i = 0; i < n; i++)
			eth_swap_macs(b->pkts[i].data);
		b->rx_packets += (uint32_t)n;
		whole = total = (uint32_t)n;
	} else {
		swap_first_fragments(b, b->pkts + carried, (uint32_t)n);
		b->rx_packets += packets_in(b->pkts + carried, (uint32_t)n);
		total = carried + (uint32_t)n;
		for (whole = total; whole && (b->pkts[whole - 1].options &
					      XDP_PKT_CONTD);)
			whole--;
	}
	b->fwd_next = 0;
	b->fwd_pending = whole;
	b->fwd_carried = total - whole;
	return 0;
}

/*
 * Forward what was received back out (with -M, out of the second socket on
 * the same UMEM): the TX descriptor points at the very frame the packet
 * arrived in, no copy. Packets the TX ring cannot take yet are held and
 * retried before receiving more, so a slow TX side slows RX down
 * (backpressure) instead of dropping.
 */
int bench_l2fwd_step(struct bench *b)
{
	int sent, err;

	if (!b->fwd_pending && (err = l2fwd_receive(b)))
		return err;
	/* With nothing to forward, still reclaim completions and wake TX. */
	sent = xskx_tx_burst(b->tx_sock, b->pkts + b->fwd_next,
			     b->fwd_pending);
	if (sent < 0)
		return sent;
	b->tx_packets += b->opts->multi_buffer ?
				 packets_in(b->pkts + b->fwd_next,
					    (uint32_t)sent) :
				 (uint32_t)sent;
	b->fwd_next += (uint32_t)sent;
	b->fwd_pending -= (uint32_t)sent;
	return sent;
}

/*
 * --xdp-action tx|drop: the port's XDP hook decides every packet and none
 * reaches the RX ring; this thread only kicks the NIC (the burst does, on
 * busy polling or when FILL asks) and counts what the hook did.
 */
int bench_xdp_step(struct bench *b)
{
	struct xskx_sim_port_stats port;
	uint64_t before = b->rx_packets;
	int n = xskx_rx_burst(b->sock, b->pkts, b->opts->batch);
	int err;

	if (n < 0)
		return n;
	err = xskx_sim_port_stats(b->sim_port, &port);
	if (err)
		return err;
	b->rx_packets = b->opts->xdp_action == BENCH_XDP_TX ? port.xdp_tx :
							      port.xdp_drop;
	b->tx_packets = port.tx_packets;
	return (int)(b->rx_packets - before);
}
