// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "helpers.h"
#include "traffic.h"
#include "xdp_meta.h"
#include "xdp_tail.h"

#define TRAFFIC_BATCH 64u
#define TRAFFIC_MAX_BATCH 8192u
#define TRAFFIC_WINDOW 128u
/*
 * Turns without a packet after which a lossy receiver stops waiting: a
 * deterministic peer is idle at once, one that runs on its own may still be
 * restarting a poll it stopped.
 */
#define TRAFFIC_IDLE_TURNS 20u
#define TRAFFIC_IDLE_TURNS_ASYNC 500u
/* The kernel's copy-mode TX budget: descriptors one sendto() sends at most. */
#define TRAFFIC_COPY_TX_BUDGET 32u
/* Pumps after a bare sendto() that moved nothing, before giving up on it. */
#define TRAFFIC_KICK_WAIT_TURNS 1000u

static const char *port_name(enum test_port port)
{
	return port == TEST_PORT_A ? "A" : "B";
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

void traffic_opts_init(struct traffic_opts *opts, enum test_port from)
{
	memset(opts, 0, sizeof(*opts));
	opts->from = from;
}

void traffic_begin(struct traffic *t, struct test_link *link,
		   const struct test_stream *stream,
		   const struct traffic_opts *opts)
{
	memset(t, 0, sizeof(*t));
	t->link = link;
	t->stream = stream;
	t->opts = *opts;
	if (!t->opts.batch)
		t->opts.batch = TRAFFIC_BATCH;
	t->opts.batch = min_u32(t->opts.batch, TRAFFIC_MAX_BATCH);
	if (!t->opts.window)
		t->opts.window = TRAFFIC_WINDOW;
	t->tx_port = opts->from;
	t->rx_port = opts->from == TEST_PORT_A ? TEST_PORT_B : TEST_PORT_A;
	if (opts->raw) {
		struct xskx_socket_info info;

		t->raw_any_order =
			!xskx_socket_info(link->sock[t->tx_port], &info) &&
			!info.zero_copy;
	}
}

/* Append to the failure message; returns false. */
static bool note(struct scenario_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool note(struct scenario_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->msg);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg + used, sizeof(r->msg) - used, fmt, ap);
	va_end(ap);
	return false;
}

/* The raw descriptor behind packet seq, for messages. */
static const char *raw_what(const struct traffic *t, uint32_t seq)
{
	if (!t->opts.raw || seq >= t->stream->count || !t->opts.raw[seq].what)
		return "";
	return t->opts.raw[seq].what;
}

/* Where the exchange stood, and the peer's counters, after a failure. */
static bool note_progress(const struct traffic *t, struct scenario_result *r)
{
	struct xskx_stats rx = { 0 }, tx = { 0 };
	struct xskx_frame_census c = { 0 };
	uint32_t want = t->rx_next;

	while (want < t->stream->count && !t->stream->arrives[want])
		want++;
	xskx_socket_stats(t->link->sock[t->rx_port], &rx);
	xskx_socket_stats(t->link->sock[t->tx_port], &tx);
	xskx_umem_census(t->link->umem[t->tx_port], &c);
	return note(
		r,
		" (sent %u of %u, received %u of %u, next expected packet %u %s;"
		" receiver: rx_dropped %llu rx_ring_full %llu rx_fill_ring_empty_descs %llu"
		" rx_invalid_descs %llu; sender: tx_invalid_descs %llu tx_packets %llu"
		" tx_completed %llu, its frames: pool %u fill %u nic %u rx %u app %u"
		" tx %u comp %u)",
		t->next_tx, t->stream->count, t->received, t->stream->arriving,
		want, raw_what(t, want), (unsigned long long)rx.rx_dropped,
		(unsigned long long)rx.rx_ring_full,
		(unsigned long long)rx.rx_fill_ring_empty_descs,
		(unsigned long long)rx.rx_invalid_descs,
		(unsigned long long)tx.tx_invalid_descs,
		(unsigned long long)tx.tx_packets,
		(unsigned long long)tx.tx_completed, c.pool, c.fill, c.nic,
		c.rx, c.app, c.tx, c.comp);
}

/* How many packets to send now: the batch, bounded by the stream and the window. */
static uint32_t send_quota(const struct traffic *t)
{
	uint32_t in_flight = t->sent_arriving - t->received;
	uint32_t room =
		in_flight >= t->opts.window ? 0 : t->opts.window - in_flight;

	return min_u32(min_u32(t->opts.batch, t->stream->count - t->next_tx),
		       room);
}

/* xskx_socket_poll on port: the events, or -1 having failed the scenario. */
static int poll_events(struct traffic *t, enum test_port port, short events,
		       struct scenario_result *r)
{
	int ev = xskx_socket_poll(t->link->sock[port], events,
				  t->link->peer->poll_timeout_ms);

	if (ev < 0) {
		scenario_fail(r, "port %s: xskx_socket_poll: %s",
			      port_name(port), xskx_strerror(ev));
		return -1;
	}
	return ev;
}

static bool get_rings(struct traffic *t, enum test_port port,
		      struct xskx_rings *rings, struct scenario_result *r)
{
	int err = xskx_socket_rings(t->link->sock[port], rings);

	if (err)
		return scenario_fail(r, "port %s: xskx_socket_rings: %s",
				     port_name(port), xskx_strerror(err));
	return true;
}

static bool kick_tx_if_asked(struct traffic *t, const struct xskx_rings *rings,
			     struct scenario_result *r)
{
	int err;

	if (!rings->tx || !test_needs_wakeup(rings->tx))
		return true;
	err = xskx_socket_kick_tx(t->link->sock[t->tx_port]);
	if (err)
		return scenario_fail(r, "port %s: xskx_socket_kick_tx: %s",
				     port_name(t->tx_port), xskx_strerror(err));
	return true;
}

/*
 * One bare wakeup: sendto() on the kernel socket's descriptor; on the
 * simulated NIC, which has none, xskx_socket_kick_tx(), one simulated
 * sendto(). "Try again" answers are what a full budget looks like.
 */
static bool one_sendto(struct traffic *t, struct scenario_result *r)
{
	struct xskx_socket *sock = t->link->sock[t->tx_port];
	int fd = xskx_socket_fd(sock), err = 0;

	if (fd < 0)
		err = xskx_socket_kick_tx(sock);
	else if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
		 errno != EAGAIN && errno != EBUSY && errno != ENOBUFS)
		err = -errno;
	if (err)
		return scenario_fail(r, "port %s: sendto: %s",
				     port_name(t->tx_port), xskx_strerror(err));
	return true;
}

static uint32_t tx_consumer(const struct xskx_rings *rings)
{
	return __atomic_load_n(rings->tx->consumer, __ATOMIC_ACQUIRE);
}

/*
 * One bare sendto(), then wait for the peer to take descriptors (the NIC
 * thread acts on a simulated sendto() later) and settle: with more queued
 * than the copy-mode budget, exactly the budget was consumed.
 */
static bool kick_once_checked(struct traffic *t, const struct xskx_rings *rings,
			      struct scenario_result *r)
{
	uint32_t before = tx_consumer(rings), queued, taken;

	queued =
		__atomic_load_n(rings->tx->producer, __ATOMIC_ACQUIRE) - before;
	if (!one_sendto(t, r))
		return false;
	for (uint32_t i = 0;
	     i < TRAFFIC_KICK_WAIT_TURNS && tx_consumer(rings) == before; i++)
		if (!link_turn(t->link, r, "the peer to take TX descriptors"))
			return false;
	if (!link_settle(t->link, r))
		return false;
	taken = tx_consumer(rings) - before;
	if (queued > TRAFFIC_COPY_TX_BUDGET && taken != TRAFFIC_COPY_TX_BUDGET)
		return scenario_fail(
			r,
			"one sendto() with %u TX descriptors queued consumed %u, expected the copy-mode budget of %u",
			queued, taken, TRAFFIC_COPY_TX_BUDGET);
	return true;
}

/* Frames a packet of len bytes spans when sent from umem: 1 when it fits one. */
static uint32_t tx_frags(struct xskx_umem *umem, uint32_t len)
{
	uint32_t room = xskx_umem_frame_size(umem) - xskx_umem_headroom(umem);

	return len ? (len + room - 1) / room : 1;
}

/*
 * Write packet seq into frames[0..frags) as a chain of pkts: each fragment
 * fills its frame from the TX address on, the last takes what is left.
 */
static void build_chain(struct traffic *t, struct xskx_umem *umem,
			const uint64_t *frames, uint32_t frags, uint32_t seq,
			struct xskx_pkt *pkts)
{
	uint32_t len = t->stream->len[seq], room, at = 0;
	void *area = xskx_umem_area(umem);

	room = xskx_umem_frame_size(umem) - xskx_umem_headroom(umem);
	if (frags > 1)
		pkt_write(t->scratch, seq, len);
	for (uint32_t f = 0; f < frags; f++) {
		uint64_t addr = xskx_umem_tx_addr(umem, frames[f]);
		uint32_t part = min_u32(room, len - at);

		if (frags == 1)
			pkt_write(xskx_umem_addr_data(area, addr), seq, len);
		else
			memcpy(xskx_umem_addr_data(area, addr), t->scratch + at,
			       part);
		pkts[f] = (struct xskx_pkt){
			.addr = addr,
			.len = part,
			.options = f + 1 < frags ? XDP_PKT_CONTD : 0,
		};
		at += part;
	}
}

/*
 * The packets of this burst: the send quota, as many as fit
 * TRAFFIC_MAX_BATCH descriptors and the frames allocated; *descs their
 * fragments. Frames allocated beyond them are freed.
 */
static uint32_t burst_packets(struct traffic *t, struct xskx_umem *umem,
			      uint64_t *frames, uint32_t *descs)
{
	uint32_t quota = send_quota(t), n = 0, need = 0, got;

	while (n < quota) {
		uint32_t f = tx_frags(umem, t->stream->len[t->next_tx + n]);

		if (need + f > TRAFFIC_MAX_BATCH)
			break;
		need += f;
		n++;
	}
	got = xskx_frame_alloc(umem, frames, need);
	for (*descs = 0, quota = n, n = 0; n < quota; n++) {
		uint32_t f = tx_frags(umem, t->stream->len[t->next_tx + n]);

		if (*descs + f > got)
			break;
		*descs += f;
	}
	xskx_frame_free(umem, frames + *descs, got - *descs);
	return n;
}

static bool send_burst(struct traffic *t, struct scenario_result *r)
{
	struct xskx_socket *sock = t->link->sock[t->tx_port];
	struct xskx_umem *umem = t->link->umem[t->tx_port];
	uint64_t frames[TRAFFIC_MAX_BATCH];
	struct xskx_pkt pkts[TRAFFIC_MAX_BATCH];
	uint32_t n, descs, at = 0, sent = 0, accepted_descs;
	int accepted;

	if (!send_quota(t)) {
		/*
		 * Waiting for the packets to arrive, reclaim as the selftests'
		 * complete_pkts() does: in copy mode that kicks TX again when
		 * a sendto() left descriptors queued (virtio_net's TX ring
		 * was full), which nothing else would send.
		 */
		xskx_tx_reclaim(sock);
		return true;
	}
	if (t->opts.poll_tx) {
		int ev = poll_events(t, t->tx_port, POLLOUT, r);

		if (ev < 0)
			return false;
		if (!(ev & POLLOUT))
			return true;
	}
	n = burst_packets(t, umem, frames, &descs);
	if (!n) {
		/* Every frame is out; completions bring them back. */
		xskx_tx_reclaim(sock);
		return true;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t seq = t->next_tx + i;
		uint32_t f = tx_frags(umem, t->stream->len[seq]);

		build_chain(t, umem, frames + at, f, seq, pkts + at);
		at += f;
	}
	accepted = xskx_tx_burst(sock, pkts, descs);
	if (accepted < 0) {
		xskx_frame_free(umem, frames, descs);
		return scenario_fail(r, "port %s: xskx_tx_burst: %s",
				     port_name(t->tx_port),
				     xskx_strerror(accepted));
	}
	if ((uint32_t)accepted > descs)
		return scenario_fail(
			r, "xskx_tx_burst accepted %d of %u descriptors",
			accepted, descs);
	accepted_descs = (uint32_t)accepted;
	xskx_frame_free(umem, frames + accepted_descs, descs - accepted_descs);
	if (t->opts.poll_tx && !accepted)
		return scenario_fail(
			r,
			"xskx_socket_poll reported POLLOUT, then xskx_tx_burst accepted none of %u packets",
			n);
	for (uint32_t i = 0; i < accepted_descs;) {
		uint32_t f = xskx_pkt_frags(pkts + i, accepted_descs - i, NULL);

		if (!f)
			return scenario_fail(
				r,
				"xskx_tx_burst accepted %u descriptors, cutting the packet at descriptor %u",
				accepted_descs, i);
		t->sent_arriving += t->stream->arrives[t->next_tx + sent];
		sent++;
		i += f;
	}
	t->next_tx += sent;
	return true;
}

/*
 * Whether a completion names the descriptor sent from addr. Copy mode on the
 * 6.18 kernel keeps a sent address in a pointer-sized slot whose bit 0 tags
 * it, and clears that bit when it writes COMPLETION: an odd address (legal
 * in unaligned mode) completes one byte early (KERNEL_RULES.md, "TX").
 */
static bool completes(uint64_t sent, uint64_t completed)
{
	return completed == sent || (sent & 1 && completed == (sent & ~1ull));
}

/*
 * The raw descriptor completion c names: the next valid one, or an invalid
 * one before it. Kernels disagree on invalid TX descriptors: older ones only
 * count them; 6.18 in copy mode also puts their addresses on COMPLETION.
 * Either way every valid one completes; here (zero-copy), in order.
 */
static bool match_completion(struct traffic *t, uint64_t addr, uint32_t *desc)
{
	for (uint32_t j = t->raw_next_completion; j < t->next_tx; j++) {
		if (completes(t->opts.raw[j].addr, addr)) {
			*desc = j;
			return true;
		}
		if (t->opts.raw[j].valid)
			break;
	}
	return false;
}

static bool raw_done(const struct traffic *t, uint32_t j)
{
	return t->raw_done[j / 64] & (1ull << (j % 64));
}

/*
 * Copy mode: the descriptor a completion of addr names, in any order: an
 * outstanding one sent from that address, a valid one first (the
 * scenarios reuse addresses: an invalid descriptor's completion, which
 * older kernels never make, cannot be told from a valid one's of the same
 * address, and only the count of each matters). It is marked done, so
 * that an address coming back more often than it was sent fails.
 */
static bool match_any_order(struct traffic *t, uint64_t addr, uint32_t *desc)
{
	for (int valid = 1; valid >= 0; valid--) {
		for (uint32_t j = t->raw_next_completion; j < t->next_tx; j++) {
			if (t->opts.raw[j].valid != valid || raw_done(t, j) ||
			    !completes(t->opts.raw[j].addr, addr))
				continue;
			t->raw_done[j / 64] |= 1ull << (j % 64);
			while (t->raw_next_completion < t->next_tx &&
			       raw_done(t, t->raw_next_completion))
				t->raw_next_completion++;
			*desc = j;
			return true;
		}
	}
	return false;
}

/*
 * Take the raw sender's completions: in zero-copy in order (the driver
 * completes what it took from TX, in the order it took it); in copy mode
 * in any order, every valid descriptor exactly once.
 */
static bool raw_reclaim(struct traffic *t, const struct xskx_rings *rings,
			struct scenario_result *r)
{
	uint32_t idx,
		n = xsk_ring_cons__peek(rings->comp, TRAFFIC_MAX_BATCH, &idx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(rings->comp, idx + i);
		uint32_t j = t->raw_next_completion, desc;

		if (t->raw_any_order) {
			if (!match_any_order(t, addr, &desc)) {
				xsk_ring_cons__release(rings->comp, n);
				return scenario_fail(
					r,
					"completion %u: address %#llx, but no descriptor sent from it is outstanding (copy mode: each comes back once, in any order)",
					t->raw_completed,
					(unsigned long long)addr);
			}
			t->raw_completed += t->opts.raw[desc].valid;
			continue;
		}
		if (!match_completion(t, addr, &desc)) {
			while (j < t->next_tx && !t->opts.raw[j].valid)
				j++;
			xsk_ring_cons__release(rings->comp, n);
			if (j >= t->next_tx)
				return scenario_fail(
					r,
					"completion of address %#llx, but no valid descriptor is outstanding",
					(unsigned long long)addr);
			return scenario_fail(
				r,
				"completion %u: expected the address of packet %u (%s), %#llx, got %#llx",
				t->raw_completed, j, raw_what(t, j),
				(unsigned long long)t->opts.raw[j].addr,
				(unsigned long long)addr);
		}
		t->raw_next_completion = desc + 1;
		t->raw_completed += t->opts.raw[desc].valid;
	}
	xsk_ring_cons__release(rings->comp, n);
	return true;
}

/*
 * The bytes of valid raw descriptor seq: a packet of its own, or its part of
 * the chain it belongs to (the packet of the chain's first descriptor).
 */
static void raw_write(struct traffic *t, void *area, uint32_t seq)
{
	const struct raw_desc *d = &t->opts.raw[seq];
	uint32_t total = 0;

	if (!t->tx_chain_at && !(d->options & XDP_PKT_CONTD)) {
		pkt_write(xskx_umem_addr_data(area, d->addr), seq, d->len);
		return;
	}
	if (!t->tx_chain_at) {
		for (uint32_t j = seq; j < t->stream->count; j++) {
			total += t->opts.raw[j].len;
			if (!(t->opts.raw[j].options & XDP_PKT_CONTD))
				break;
		}
		pkt_write(t->scratch, seq, total);
	}
	memcpy(xskx_umem_addr_data(area, d->addr), t->scratch + t->tx_chain_at,
	       d->len);
}

static bool send_raw(struct traffic *t, struct scenario_result *r)
{
	struct xskx_rings rings;
	uint32_t n, idx;

	if (!get_rings(t, t->tx_port, &rings, r) || !raw_reclaim(t, &rings, r))
		return false;
	if (t->raw_any_order && t->stream->count > TEST_PKT_COUNT)
		return scenario_fail(
			r,
			"%u raw descriptors: the copy-mode completion check marks at most %u",
			t->stream->count, TEST_PKT_COUNT);
	n = min_u32(send_quota(t), xskx_ring_prod_free(rings.tx));
	/* Nothing new, but a copy-mode peer sends only when woken. */
	if (!n && xskx_ring_prod_free(rings.tx) < rings.tx->size)
		return kick_tx_if_asked(t, &rings, r);
	if (!n)
		return true;
	if (xsk_ring_prod__reserve(rings.tx, n, &idx) != n)
		return scenario_fail(
			r,
			"the TX ring has %u free slots but refused to reserve them",
			n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t seq = t->next_tx + i;
		const struct raw_desc *d = &t->opts.raw[seq];
		struct xdp_desc *desc =
			xsk_ring_prod__tx_desc(rings.tx, idx + i);

		desc->addr = d->addr;
		desc->len = d->len;
		desc->options = d->options;
		if (d->valid) {
			raw_write(t, rings.area, seq);
			t->raw_sent_valid++;
		}
		t->tx_chain_at = d->valid && (d->options & XDP_PKT_CONTD) ?
					 t->tx_chain_at + d->len :
					 0;
		t->sent_arriving += t->stream->arrives[seq];
	}
	xsk_ring_prod__submit(rings.tx, n);
	t->next_tx += n;
	if (t->opts.check_consumer)
		return kick_once_checked(t, &rings, r);
	return kick_tx_if_asked(t, &rings, r);
}

bool traffic_send(struct traffic *t, struct scenario_result *r)
{
	return t->opts.raw ? send_raw(t, r) : send_burst(t, r);
}

/* Where one fragment of a received packet is in its UMEM. */
static bool check_place(struct traffic *t, const struct xskx_pkt *pkt,
			struct scenario_result *r)
{
	struct xskx_umem *umem = t->link->umem[t->rx_port];
	uint32_t frame_size = xskx_umem_frame_size(umem);
	uint32_t want_offset =
		XSKX_XDP_PACKET_HEADROOM + xskx_umem_headroom(umem);
	uint64_t addr = xsk_umem__add_offset_to_addr(pkt->addr);

	if (pkt->data != xskx_umem_addr_data(xskx_umem_area(umem), pkt->addr))
		return scenario_fail(
			r,
			"packet at %#llx: data pointer %p is not that address in the UMEM",
			(unsigned long long)pkt->addr, (void *)pkt->data);
	if (addr + pkt->len > xskx_umem_size(umem))
		return scenario_fail(
			r,
			"packet at %#llx, %u bytes, runs past the UMEM end %#llx",
			(unsigned long long)addr, pkt->len,
			(unsigned long long)xskx_umem_size(umem));
	if (addr % frame_size != want_offset)
		return scenario_fail(
			r,
			"packet data at offset %llu of its frame, expected %u (XDP_PACKET_HEADROOM + UMEM headroom)",
			(unsigned long long)(addr % frame_size), want_offset);
	if (pkt->options & ~(uint32_t)XDP_PKT_CONTD)
		return scenario_fail(
			r, "packet at %#llx has options %#x, expected none",
			(unsigned long long)addr, pkt->options);
	return true;
}

/* The count the metadata program put in front of the packet: its seq. */
static bool check_meta_count(const struct xskx_pkt *first, uint32_t seq,
			     struct scenario_result *r)
{
	const uint8_t *meta = xskx_pkt_meta(first, TEST_XDP_META_LEN);
	uint32_t count;

	/* Wherever the data starts: no alignment to rely on. */
	memcpy(&count, meta, sizeof(count));
	if (count != seq)
		return scenario_fail(
			r,
			"packet %u: the metadata in front of its data counts %u, expected %u",
			seq, count, seq);
	return true;
}

/*
 * One received packet, frags descriptors from pkts (a chain with
 * multi-buffer): where each fragment is, what the packet is, and whether it
 * is the one expected.
 */
static bool check_pkt(struct traffic *t, const struct xskx_pkt *pkts,
		      uint32_t frags, uint32_t len, struct scenario_result *r)
{
	const struct test_stream *s = t->stream;
	const uint8_t *data = pkts[0].data;
	uint32_t seq, want, bad, at = 0;

	for (uint32_t f = 0; f < frags; f++)
		if (!check_place(t, &pkts[f], r))
			return false;
	if (frags > 1) {
		if (len > sizeof(t->scratch))
			return scenario_fail(r, "received a packet of %u bytes",
					     len);
		for (uint32_t f = 0; f < frags; at += pkts[f++].len)
			memcpy(t->scratch + at, pkts[f].data, pkts[f].len);
		data = t->scratch;
	}
	if (!pkt_seq(data, len, &seq) || seq >= s->count)
		return scenario_fail(
			r,
			"received %u bytes that are not a packet of this test",
			len);

	want = t->rx_next;
	while (want < s->count && !s->arrives[want])
		want++;
	if (t->opts.allow_loss ? seq < want || !s->arrives[seq] : seq != want) {
		scenario_fail(
			r, "expected packet %u, got packet %u%s", want, seq,
			s->arrives[seq] ? "" : ", which should not arrive");
		return note(r, " %s", raw_what(t, seq));
	}
	if (len != s->len[seq] + (uint32_t)t->opts.rx_len_delta)
		return scenario_fail(
			r,
			"packet %u: expected %u bytes, got %u in %u fragment%s",
			seq, s->len[seq] + (uint32_t)t->opts.rx_len_delta, len,
			frags, frags == 1 ? "" : "s");
	if (!pkt_intact(data, min_u32(len, s->len[seq]), seq, &bad))
		return scenario_fail(
			r,
			"packet %u: payload byte %u differs from what was sent",
			seq, bad);
	if (t->opts.meta_count && !check_meta_count(&pkts[0], seq, r))
		return false;
	for (uint32_t off = s->len[seq]; off < len; off++)
		if (data[off] != t->opts.grown_byte)
			return scenario_fail(
				r,
				"packet %u: byte %u of the grown tail is %#x, expected %#x",
				seq, off, data[off], t->opts.grown_byte);
	t->rx_next = seq + 1;
	t->received++;
	return true;
}

bool traffic_receive(struct traffic *t, struct scenario_result *r)
{
	struct xskx_socket *sock = t->link->sock[t->rx_port];
	struct xskx_pkt pkts[TRAFFIC_MAX_BATCH];
	bool ok = true;
	int n;

	if (t->opts.poll_rx) {
		int ev = poll_events(t, t->rx_port, POLLIN, r);

		if (ev < 0)
			return false;
		if (!(ev & POLLIN))
			return true;
	}
	n = xskx_rx_burst(sock, pkts, t->opts.batch);
	if (n < 0)
		return scenario_fail(r, "port %s: xskx_rx_burst: %s",
				     port_name(t->rx_port), xskx_strerror(n));
	if (t->opts.poll_rx && !n)
		return scenario_fail(
			r,
			"xskx_socket_poll reported POLLIN, then xskx_rx_burst returned nothing");
	for (uint32_t i = 0, frags = 0; i < (uint32_t)n && ok; i += frags) {
		uint32_t len = 0;

		frags = xskx_pkt_frags(&pkts[i], (uint32_t)n - i, &len);
		if (!frags)
			ok = scenario_fail(
				r,
				"xskx_rx_burst returned %d descriptors, the last packet's chain cut at descriptor %u",
				n, i);
		else
			ok = check_pkt(t, &pkts[i], frags, len, r);
	}
	xskx_rx_release(sock, pkts, (uint32_t)n);
	return ok;
}

bool traffic_all_received(const struct traffic *t)
{
	return t->next_tx == t->stream->count &&
	       t->received == t->stream->arriving;
}

static bool all_completed(struct traffic *t, bool *done,
			  struct scenario_result *r)
{
	struct xskx_stats stats;

	if (t->opts.raw) {
		*done = t->raw_completed == t->raw_sent_valid;
		return true;
	}
	xskx_tx_reclaim(t->link->sock[t->tx_port]);
	if (!link_stats(t->link, t->tx_port, &stats, r))
		return false;
	*done = stats.tx_completed == stats.tx_packets;
	return true;
}

bool traffic_complete(struct traffic *t, struct scenario_result *r)
{
	struct xskx_rings rings;
	bool done = false;

	if (!get_rings(t, t->tx_port, &rings, r))
		return false;
	for (;;) {
		if (t->opts.raw && !raw_reclaim(t, &rings, r))
			return false;
		if (!all_completed(t, &done, r))
			return false;
		if (done)
			return true;
		if (!kick_tx_if_asked(t, &rings, r) ||
		    !link_turn(t->link, r,
			       "every transmitted frame to complete"))
			return note_progress(t, r);
	}
}

bool traffic_drain(struct traffic *t, struct scenario_result *r)
{
	bool exact = t->link->peer->caps & TEST_PEER_DETERMINISTIC;
	uint32_t idle_turns = exact ? TRAFFIC_IDLE_TURNS :
				      TRAFFIC_IDLE_TURNS_ASYNC;
	uint32_t idle = 0;

	while (t->received < t->stream->arriving) {
		uint32_t before = t->received;

		if (!traffic_receive(t, r))
			return false;
		if (t->opts.allow_loss) {
			idle = t->received == before ? idle + 1 : 0;
			if (idle >= idle_turns)
				return true;
		}
		if (!link_turn(t->link, r, "the remaining packets"))
			return note_progress(t, r);
	}
	return true;
}

bool traffic_expect_no_more(struct traffic *t, struct scenario_result *r)
{
	struct xskx_socket *sock = t->link->sock[t->rx_port];
	struct xskx_pkt pkts[TRAFFIC_MAX_BATCH];
	uint32_t seq = 0;
	int n;

	if (!link_settle(t->link, r))
		return false;
	/* Lossy traffic: a late packet is no extra one, as long as it is in order. */
	if (t->opts.allow_loss)
		return traffic_receive(t, r);
	n = xskx_rx_burst(sock, pkts, TRAFFIC_MAX_BATCH);
	if (n < 0)
		return scenario_fail(r, "port %s: xskx_rx_burst: %s",
				     port_name(t->rx_port), xskx_strerror(n));
	if (!n)
		return true;
	pkt_seq(pkts[0].data, pkts[0].len, &seq);
	xskx_rx_release(sock, pkts, (uint32_t)n);
	return scenario_fail(
		r,
		"received %d descriptors more than the %u packets expected (the first is packet %u)",
		n, t->stream->arriving, seq);
}

bool traffic_run(struct test_link *link, const struct test_stream *stream,
		 const struct traffic_opts *opts, struct scenario_result *r)
{
	struct traffic t;

	traffic_begin(&t, link, stream, opts);
	while (!traffic_all_received(&t)) {
		/*
		 * The receiver goes first, as in the selftests: its first burst
		 * hands FILL to the peer (kicking it if it asks) before
		 * anything is on the wire.
		 */
		if (!traffic_receive(&t, r) || !traffic_send(&t, r))
			return note_progress(&t, r);
		if (traffic_all_received(&t))
			break;
		if (!link_turn(link, r, "every packet to arrive"))
			return note_progress(&t, r);
	}
	return traffic_complete(&t, r) && traffic_expect_no_more(&t, r);
}

void traffic_on_new_link(struct test_peer *peer, const struct link_config *cfg,
			 const struct test_stream *stream,
			 const struct traffic_opts *opts,
			 struct scenario_result *r)
{
	struct test_link link;

	if (link_open(&link, peer, cfg, r)) {
		traffic_run(&link, stream, opts, r);
		link_close(&link, r);
	}
}

void traffic_one_way(struct test_peer *peer, const struct link_config *cfg,
		     uint32_t count, const struct traffic_opts *opts,
		     struct scenario_result *r)
{
	traffic_one_way_len(peer, cfg, count, TEST_PKT_LEN, opts, r);
}

void traffic_one_way_len(struct test_peer *peer, const struct link_config *cfg,
			 uint32_t count, uint32_t len,
			 const struct traffic_opts *opts,
			 struct scenario_result *r)
{
	struct traffic_opts defaults;
	struct test_stream stream;

	traffic_opts_init(&defaults, TEST_PORT_A);
	if (stream_init(&stream, count, len)) {
		scenario_fail(r, "out of memory");
		return;
	}
	traffic_on_new_link(peer, cfg, &stream, opts ? opts : &defaults, r);
	stream_free(&stream);
}

void traffic_raw_one_way(struct test_peer *peer, struct link_config *cfg,
			 const struct raw_desc *descs, uint32_t n,
			 uint32_t want_invalid, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct test_stream stream;
	struct test_link link;
	struct xskx_stats stats;
	uint32_t first = 0, len = 0;

	if (stream_init(&stream, n, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	/* A chain's packet is its first descriptor's; the others carry none. */
	for (uint32_t i = 0; i < n; i++) {
		len += descs[i].len;
		stream_set(&stream, i, descs[i].len, false);
		if (descs[i].options & XDP_PKT_CONTD && descs[i].valid)
			continue;
		stream_set(&stream, first, len, descs[i].valid);
		first = i + 1;
		len = 0;
	}
	cfg->hold_all_frames[TEST_PORT_A] = true;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.raw = descs;
	if (link_open(&link, peer, cfg, r)) {
		if (traffic_run(&link, &stream, &opts, r) &&
		    link_stats(&link, TEST_PORT_A, &stats, r) &&
		    stats.tx_invalid_descs != want_invalid)
			scenario_fail(
				r, "tx_invalid_descs: expected %u, got %llu",
				want_invalid,
				(unsigned long long)stats.tx_invalid_descs);
		link_close(&link, r);
	}
	stream_free(&stream);
}
