// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX metadata on the simulated NIC (docs/KERNEL_RULES.md, "TX metadata"):
 * a checksum asked for in a packet's struct xsk_tx_metadata is right on
 * the wire and never written into the UMEM, a packet without metadata
 * leaves as it was, TX timestamps come back through xskx_tx_timestamps();
 * what the library refuses before the ring, and what the peer does with
 * descriptors that reach it anyway, as Linux 6.18 does: copy mode fails
 * the sendto on bad metadata and leaves the packet at the head of TX,
 * zero-copy ignores the request, a descriptor without the metadata room
 * is invalid. Cases with _i run twice: 0 zero-copy, 1 copy mode.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <xskx/batch.h>

#include "helpers.h"
#include "tx_meta_helpers.h"

#define FRAMES 64u
#define META_LEN 24u
#define PKTS 8u
#define PAYLOAD 18u

struct wire {
	uint8_t frames[PKTS][256];
	uint32_t lens[PKTS];
	uint32_t n;
};

static void capture(enum xskx_sim_sink_kind kind, const uint8_t *data,
		    uint32_t len, uint32_t queue, void *ctx)
{
	struct wire *w = ctx;

	(void)queue;
	if (kind != XSKX_SIM_SINK_TX || w->n == PKTS || len > 256)
		return;
	memcpy(w->frames[w->n], data, len);
	w->lens[w->n++] = len;
}

struct nic {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	struct wire wire;
};

/* A socket on queue 0 of a new port of the machine, on the nic's UMEM. */
static int sock_open(struct nic *nic, struct xskx_sim_port *port,
		     uint32_t requests, uint32_t tx_size,
		     struct xskx_socket **sock)
{
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = XSKX_SOCKET_NO_RX,
		  .tx_metadata = requests, .tx_size = tx_size);

	sock_opts.port = test_port(port);
	return xskx_socket_open(sock, nic->umem, &sock_opts);
}

static int nic_open_sized(struct nic *nic, bool copy_mode, uint32_t requests,
			  uint32_t tx_size)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "txmd",
		  .no_zero_copy = copy_mode);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_size = 2048,
		  .frame_count = FRAMES, .tx_metadata_len = META_LEN);

	memset(nic, 0, sizeof(*nic));
	ck_assert_int_eq(xskx_sim_create(&nic->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic->sim, &port_opts, &nic->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(nic->port, capture, &nic->wire),
			 0);
	ck_assert_int_eq(xskx_umem_create(&nic->umem, &umem_opts), 0);
	return sock_open(nic, nic->port, requests, tx_size, &nic->sock);
}

static int nic_open(struct nic *nic, bool copy_mode, uint32_t requests)
{
	return nic_open_sized(nic, copy_mode, requests, 0);
}

static void nic_close(struct nic *nic)
{
	if (nic->sock)
		ck_assert_int_eq(xskx_socket_close(nic->sock), 0);
	test_sim_teardown(nic->sim, nic->umem);
}

static struct xskx_pkt udp_pkt(struct xskx_umem *umem, uint8_t tag)
{
	return udp_frame_pkt(umem, PAYLOAD, tag);
}

/*
 * Even packets ask for a checksum and a timestamp, odd ones carry nothing
 * though their room holds a stale timestamp request, which must not be
 * read back.
 */
START_TEST(checksum_and_timestamp)
{
	struct xskx_tx_timestamp ts[PKTS];
	struct xskx_port_info pinfo;
	struct xskx_socket_info info;
	struct xskx_pkt pkts[PKTS];
	struct nic nic;
	uint64_t t0, t1;

	ck_assert_msg(!nic_open(&nic, _i, XSKX_TX_META_CHECKSUM |
						  XSKX_TX_META_TIMESTAMP),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(nic.sock, &info), 0);
	ck_assert_uint_eq(info.tx_metadata_supported,
			  XSKX_TX_META_CHECKSUM | XSKX_TX_META_TIMESTAMP);
	ck_assert_uint_eq(info.tx_metadata,
			  XSKX_TX_META_CHECKSUM | XSKX_TX_META_TIMESTAMP);
	ck_assert_int_eq(xskx_port_info(test_port(nic.port), &pinfo), 0);
	ck_assert_uint_eq(pinfo.tx_metadata,
			  XSKX_TX_META_CHECKSUM | XSKX_TX_META_TIMESTAMP);
	for (uint32_t i = 0; i < PKTS; i++) {
		pkts[i] = udp_pkt(nic.umem, (uint8_t)i);
		if (i % 2 == 0) {
			struct xsk_tx_metadata *m = xskx_tx_meta(nic.umem, &pkts[i]);

			ck_assert_ptr_nonnull(m);
			ck_assert_uint_eq(pkts[i].options, XDP_TX_METADATA);
			m->flags = XDP_TXMD_FLAGS_CHECKSUM | XDP_TXMD_FLAGS_TIMESTAMP;
			m->request.csum_start = UDP_FRAME_CSUM_START;
			m->request.csum_offset = UDP_FRAME_CSUM_OFFSET;
		} else {
			struct xsk_tx_metadata *stale =
				(void *)(pkts[i].data - META_LEN);

			stale->flags = XDP_TXMD_FLAGS_TIMESTAMP;
		}
	}
	t0 = test_tai_ns();
	ck_assert_int_eq(xskx_tx_burst(nic.sock, pkts, PKTS), PKTS);
	for (int round = 0; round < 100 && xskx_umem_pool_count(nic.umem) < FRAMES;
	     round++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		xskx_tx_reclaim(nic.sock);
	}
	t1 = test_tai_ns();
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), FRAMES);
	ck_assert_uint_eq(nic.wire.n, PKTS);
	for (uint32_t i = 0; i < PKTS; i++) {
		const uint8_t *f = nic.wire.frames[i];

		ck_assert_uint_eq(nic.wire.lens[i], pkts[i].len);
		if (i % 2 == 0)
			ck_assert_msg(udp_frame_csum_ok(f, nic.wire.lens[i]),
				      "packet %u: checksum 0x%04x not finished",
				      i, udp_frame_csum_field(f));
		else
			ck_assert_uint_eq(udp_frame_csum_field(f),
					  udp_frame_csum_seed(f));
		/* The device computes on its way out: the UMEM keeps the seed. */
		ck_assert_uint_eq(udp_frame_csum_field(pkts[i].data),
				  udp_frame_csum_seed(pkts[i].data));
	}
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), PKTS / 2);
	for (uint32_t k = 0; k < PKTS / 2; k++) {
		ck_assert_uint_eq(ts[k].addr, pkts[2 * k].addr);
		ck_assert_uint_ge(ts[k].tx_timestamp, t0);
		ck_assert_uint_le(ts[k].tx_timestamp, t1);
	}
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), 0);
	nic_close(&nic);
}
END_TEST

/* xskx_tx_burst() refuses what the kernel would choke on, naming why. */
START_TEST(burst_refuses_bad_metadata)
{
	struct xsk_tx_metadata *m;
	struct xskx_pkt p;
	struct nic nic;

	ck_assert_int_eq(nic_open(&nic, true, XSKX_TX_META_CHECKSUM), 0);
	p = udp_pkt(nic.umem, 1);
	m = xskx_tx_meta(nic.umem, &p);
	m->flags = XDP_TXMD_FLAGS_CHECKSUM;
	m->request.csum_start = UDP_FRAME_CSUM_START;
	m->request.csum_offset = (uint16_t)(p.len - UDP_FRAME_CSUM_START - 1);
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &p, 1), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "csum_start + csum_offset + 2"));
	/* The last two bytes are the furthest a checksum may go. */
	m->request.csum_offset--;
	m->flags = XDP_TXMD_FLAGS_TIMESTAMP;
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &p, 1), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "does not allow"));
	m->flags = 1u << 7;
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &p, 1), -EINVAL);
	m->flags = XDP_TXMD_FLAGS_CHECKSUM;
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &p, 1), 1);
	/* Data at the frame's start leaves no room for the metadata. */
	p = udp_pkt(nic.umem, 2);
	p.addr -= xskx_umem_tx_addr(nic.umem, 0);
	p.options = 0;
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &p, 1), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "tx_metadata_len"));
	ck_assert_ptr_null(xskx_tx_meta(nic.umem, &p));
	ck_assert_int_eq(xskx_frame_free(nic.umem, &p.addr, 1), 0);
	nic_close(&nic);
}
END_TEST

/* Put one descriptor on TX past the library's checks, and kick. */
static int raw_send(struct nic *nic, uint64_t addr, uint32_t len,
		    uint32_t options)
{
	struct xskx_rings rings;
	uint32_t idx;
	struct xdp_desc *d;

	ck_assert_int_eq(xskx_socket_rings(nic->sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, 1, &idx), 1);
	d = xsk_ring_prod__tx_desc(rings.tx, idx);
	d->addr = addr;
	d->len = len;
	d->options = options;
	xsk_ring_prod__submit(rings.tx, 1);
	return xskx_socket_kick_tx(nic->sock);
}

/*
 * A checksum past the packet reaching the peer: copy mode fails every
 * sendto with EINVAL and leaves the packet at the head of TX, counting
 * nothing but putting its address on COMPLETION each time, until its
 * metadata is fixed where it lies; zero-copy sends it without the
 * checksum.
 */
START_TEST(peer_on_checksum_past_packet)
{
	bool copy = _i;
	struct xsk_tx_metadata *m;
	struct xskx_stats stats;
	struct xskx_pkt p;
	struct nic nic;
	int err;

	ck_assert_int_eq(nic_open(&nic, copy, XSKX_TX_META_CHECKSUM), 0);
	p = udp_pkt(nic.umem, 3);
	m = xskx_tx_meta(nic.umem, &p);
	m->flags = XDP_TXMD_FLAGS_CHECKSUM;
	m->request.csum_start = UDP_FRAME_CSUM_START;
	m->request.csum_offset = (uint16_t)p.len;
	err = raw_send(&nic, p.addr, p.len, p.options);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_socket_stats(nic.sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 0);
	if (copy) {
		ck_assert_int_eq(err, -EINVAL);
		ck_assert_uint_eq(test_tx_consumed(nic.sock), 0);
		ck_assert_int_eq(xskx_socket_kick_tx(nic.sock), -EINVAL);
		ck_assert_uint_eq(nic.wire.n, 0);
		/* Not completed, and still on TX. */
		ck_assert_uint_eq(test_comp_take(nic.sock, p.addr), 0);
		/* The way out: mend the metadata in place, kick again. */
		m->request.csum_offset = UDP_FRAME_CSUM_OFFSET;
		ck_assert_int_eq(xskx_socket_kick_tx(nic.sock), 0);
		ck_assert_uint_eq(test_tx_consumed(nic.sock), 1);
		ck_assert_uint_eq(nic.wire.n, 1);
		ck_assert(udp_frame_csum_ok(nic.wire.frames[0], nic.wire.lens[0]));
	} else {
		ck_assert_int_eq(err, 0);
		ck_assert_uint_eq(test_tx_consumed(nic.sock), 1);
		ck_assert_uint_eq(nic.wire.n, 1);
		ck_assert_uint_eq(udp_frame_csum_field(nic.wire.frames[0]),
				  udp_frame_csum_seed(nic.wire.frames[0]));
	}
	ck_assert_uint_eq(test_comp_free(nic.sock), 1);
	nic_close(&nic);
}
END_TEST

/*
 * On a UMEM with tx_metadata_len, a descriptor without the room in front
 * of its data is invalid, counted and (copy mode) completed.
 */
START_TEST(peer_on_missing_room)
{
	bool copy = _i;
	struct xskx_stats stats;
	struct xskx_pkt p;
	struct nic nic;

	ck_assert_int_eq(nic_open(&nic, copy, 0), 0);
	p = udp_pkt(nic.umem, 4);
	ck_assert_int_eq(raw_send(&nic, p.addr - META_LEN, p.len, 0), 0);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	ck_assert_int_eq(xskx_socket_stats(nic.sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 1);
	ck_assert_uint_eq(test_tx_consumed(nic.sock), 1);
	ck_assert_uint_eq(nic.wire.n, 0);
	/* Zero-copy never completes an invalid descriptor: its frame is lost. */
	ck_assert_uint_eq(test_comp_free(nic.sock), copy ? 1 : 0);
	if (!copy)
		ck_assert_int_eq(xskx_frame_free(nic.umem, &p.addr, 1), 0);
	nic_close(&nic);
}
END_TEST

/*
 * The batch API on a UMEM with TX metadata room: its packets start past
 * the room, so the peer finds them valid, and carry no metadata: a stale
 * timestamp request their rooms held is not read back.
 */
START_TEST(batch_leaves_the_room)
{
	struct xskx_tx_timestamp ts[4];
	struct xskx_tx_batch b;
	struct xskx_stats stats;
	uint64_t frames[4];
	struct nic nic;
	int n;

	ck_assert_int_eq(nic_open(&nic, _i, XSKX_TX_META_TIMESTAMP), 0);
	/* The pool hands these out next, their rooms asking for a timestamp. */
	ck_assert_uint_eq(xskx_frame_alloc(nic.umem, frames, 4), 4);
	for (uint32_t i = 0; i < 4; i++) {
		struct xsk_tx_metadata *stale =
			(void *)((uint8_t *)xskx_umem_area(nic.umem) +
				 xskx_umem_tx_addr(nic.umem, frames[i]) - META_LEN);

		stale->flags = XDP_TXMD_FLAGS_TIMESTAMP;
	}
	ck_assert_int_eq(xskx_frame_free(nic.umem, frames, 4), 0);
	n = xskx_tx_reserve(nic.sock, &b, 4, 60);
	ck_assert_int_eq(n, 4);
	for (uint32_t i = 0; i < 4; i++)
		udp_frame_build(xskx_tx_batch_data(&b, i), PAYLOAD, (uint8_t)i);
	ck_assert_uint_eq((uint64_t)(xskx_tx_batch_data(&b, 0) -
				     (uint8_t *)xskx_umem_area(nic.umem)) %
				  2048,
			  META_LEN);
	ck_assert_int_eq(xskx_tx_submit(nic.sock, &b, 4), 4);
	for (int round = 0; round < 100 && xskx_umem_pool_count(nic.umem) < FRAMES;
	     round++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		xskx_tx_reclaim(nic.sock);
	}
	ck_assert_int_eq(xskx_socket_stats(nic.sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 0);
	ck_assert_uint_eq(nic.wire.n, 4);
	ck_assert_uint_eq(udp_frame_csum_field(nic.wire.frames[0]),
			  udp_frame_csum_seed(nic.wire.frames[0]));
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, 4), 0);
	nic_close(&nic);
}
END_TEST

/*
 * A received frame forwarded as it is may hold a stale timestamp request
 * in its metadata room, from the frame's earlier life on TX: the batch
 * API's forwarding calls (xskx_rx_forward(), xskx_rx_verdict()) clear it,
 * so that no timestamp comes back for a packet that did not ask.
 */
START_TEST(forwarding_leaves_the_room)
{
	XSKX_OPTS(xskx_socket_opts, so, .tx_metadata = XSKX_TX_META_TIMESTAMP);
	struct xskx_rx_verdict_result r = { 0 };
	struct xskx_tx_timestamp ts[PKTS];
	uint8_t v[PKTS];
	struct xskx_rx_batch b;
	struct nic nic;

	ck_assert_int_eq(nic_open(&nic, false, XSKX_TX_META_TIMESTAMP), 0);
	ck_assert_int_eq(xskx_socket_close(nic.sock), 0);
	so.port = test_port(nic.port);
	ck_assert_int_eq(xskx_socket_open(&nic.sock, nic.umem, &so), 0);
	ck_assert_int_eq(xskx_rx_burst(nic.sock, NULL, 0), 0);
	for (uint32_t i = 0; i < PKTS; i++)
		test_inject_seq(nic.port, i, 60);
	ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
	memset(v, XSKX_PKT_PASS, sizeof(v));
	/* Half by xskx_rx_forward(), half by xskx_rx_verdict(). */
	for (int half = 0; half < 2; half++) {
		ck_assert_int_eq(xskx_rx_peek(nic.sock, &b, PKTS / 2), PKTS / 2);
		for (uint32_t i = 0; i < PKTS / 2; i++) {
			struct xsk_tx_metadata *stale =
				(void *)((uint8_t *)xskx_umem_area(nic.umem) +
					 b.desc[i].addr - META_LEN);

			stale->flags = XDP_TXMD_FLAGS_TIMESTAMP;
		}
		ck_assert_int_eq(half ? xskx_rx_verdict(nic.sock, &b, v,
							nic.sock, 0, &r) :
					xskx_rx_forward(nic.sock, &b, nic.sock),
				 PKTS / 2);
	}
	for (int round = 0; round < 100 && nic.wire.n < PKTS; round++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		xskx_tx_reclaim(nic.sock);
	}
	ck_assert_uint_eq(nic.wire.n, PKTS);
	for (int round = 0; round < 10; round++) {
		ck_assert_int_ge(xskx_sim_poll(nic.sim), 0);
		xskx_tx_reclaim(nic.sock);
	}
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), 0);
	nic_close(&nic);
}
END_TEST

/*
 * Send n packets asking for a TX timestamp and let them all complete;
 * returns how many timestamps the socket kept.
 */
static uint32_t send_stamped(struct nic *nic, struct xskx_socket *sock,
			     uint32_t n)
{
	struct xskx_pkt pkts[PKTS];
	struct xskx_stats before, after;

	ck_assert_uint_le(n, PKTS);
	ck_assert_int_eq(xskx_socket_stats(sock, &before), 0);
	for (uint32_t i = 0; i < n; i++) {
		struct xsk_tx_metadata *m;

		pkts[i] = udp_pkt(nic->umem, (uint8_t)i);
		m = xskx_tx_meta(nic->umem, &pkts[i]);
		ck_assert_ptr_nonnull(m);
		m->flags = XDP_TXMD_FLAGS_TIMESTAMP;
	}
	ck_assert_int_eq(xskx_tx_burst(sock, pkts, n), (int)n);
	for (int round = 0; round < 100 && xskx_umem_pool_count(nic->umem) < FRAMES;
	     round++) {
		ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
		xskx_tx_reclaim(sock);
	}
	ck_assert_uint_eq(xskx_umem_pool_count(nic->umem), FRAMES);
	ck_assert_int_eq(xskx_socket_stats(sock, &after), 0);
	return n - (uint32_t)(after.tx_timestamps_dropped -
			      before.tx_timestamps_dropped);
}

/*
 * Two sockets of one UMEM read TX timestamps; the one that closes first
 * leaves them on for the other.
 */
START_TEST(timestamps_outlive_another_socket)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "txmd1",
		  .no_zero_copy = _i);
	struct xskx_tx_timestamp ts[PKTS];
	struct xskx_sim_port *port2;
	struct xskx_socket *other;
	struct nic nic;

	ck_assert_int_eq(nic_open(&nic, _i, XSKX_TX_META_TIMESTAMP), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic.sim, &port_opts, &port2), 0);
	ck_assert_msg(!sock_open(&nic, port2, XSKX_TX_META_TIMESTAMP, 0, &other),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(other), 0);
	ck_assert_uint_eq(send_stamped(&nic, nic.sock, 2), 2);
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), 2);
	nic_close(&nic);
}
END_TEST

/*
 * A socket keeps as many TX timestamps as its TX ring has entries, the
 * last of them too; only one more is dropped, and counted.
 */
START_TEST(timestamp_ring_holds_a_ring_full)
{
	const uint32_t ring = 4;
	struct xskx_tx_timestamp ts[PKTS];
	struct nic nic;

	ck_assert_int_eq(nic_open_sized(&nic, _i, XSKX_TX_META_TIMESTAMP, ring),
			 0);
	ck_assert_uint_eq(send_stamped(&nic, nic.sock, ring), ring);
	ck_assert_uint_eq(send_stamped(&nic, nic.sock, 1), 0);
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), (int)ring);
	ck_assert_uint_eq(send_stamped(&nic, nic.sock, 1), 1);
	ck_assert_int_eq(xskx_tx_timestamps(nic.sock, ts, PKTS), 1);
	nic_close(&nic);
}
END_TEST

/* A request the simulated device cannot honour is refused at open. */
START_TEST(open_refusals)
{
	XSKX_OPTS(xskx_umem_opts, plain, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_RX,
		  .tx_metadata = XSKX_TX_META_CHECKSUM);
	struct xskx_socket *sock;
	struct xskx_umem *umem;
	struct nic nic;

	ck_assert_int_eq(nic_open(&nic, false, XSKX_TX_META_LAUNCH_TIME),
			 -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_TX_META_LAUNCH_TIME"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "'txmd'"));
	ck_assert_uint_eq(xskx_umem_pool_count(nic.umem), FRAMES);
	/* Requests need the UMEM's room. */
	so.port = test_port(nic.port);
	ck_assert_int_eq(xskx_umem_create(&umem, &plain), 0);
	ck_assert_int_eq(xskx_socket_open(&sock, umem, &so), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "tx_metadata_len"));
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	/* The refused sockets left nothing behind: a good one opens. */
	ck_assert_msg(!xskx_socket_open(&nic.sock, nic.umem, &so), "%s",
		      xskx_last_error());
	nic_close(&nic);
}
END_TEST

/* The UMEM option: the kernel's limits and the struct's size, named. */
START_TEST(umem_limits)
{
	static const uint32_t out_of_range[] = { 8, 16, 20, 256, 4096 };
	static const uint32_t not_multiple_of_8[] = { 25, 28, 244 };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES);
	struct xskx_umem *umem;
	char len[32];

	for (size_t k = 0; k < sizeof(out_of_range) / sizeof(out_of_range[0]); k++) {
		uo.tx_metadata_len = out_of_range[k];
		ck_assert_int_eq(xskx_umem_create(&umem, &uo), -EINVAL);
		snprintf(len, sizeof(len), "tx_metadata_len %u:", out_of_range[k]);
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), len));
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_TX_METADATA_LEN_MAX = 248"));
	}
	for (size_t k = 0; k < sizeof(not_multiple_of_8) / sizeof(not_multiple_of_8[0]); k++) {
		uo.tx_metadata_len = not_multiple_of_8[k];
		ck_assert_int_eq(xskx_umem_create(&umem, &uo), -EINVAL);
		snprintf(len, sizeof(len), "tx_metadata_len %u is", not_multiple_of_8[k]);
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), len));
		ck_assert_ptr_nonnull(strstr(xskx_last_error(), "multiple of 8"));
	}
	uo.tx_metadata_len = 0;
	uo.flags = XSKX_UMEM_TX_SW_CSUM;
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_UMEM_TX_SW_CSUM"));
	uo.tx_metadata_len = XSKX_TX_METADATA_LEN_MAX;
	uo.headroom = 16;
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), 0);
	ck_assert_uint_eq(xskx_umem_tx_metadata_len(umem), 248);
	ck_assert_uint_eq(xskx_umem_tx_addr(umem, 4096), 4096 + 16 + 248);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("tx_meta");
	TCase *tc = tcase_create("tx_meta");

	tcase_add_loop_test(tc, checksum_and_timestamp, 0, 2);
	tcase_add_test(tc, burst_refuses_bad_metadata);
	tcase_add_loop_test(tc, peer_on_checksum_past_packet, 0, 2);
	tcase_add_loop_test(tc, peer_on_missing_room, 0, 2);
	tcase_add_loop_test(tc, batch_leaves_the_room, 0, 2);
	tcase_add_loop_test(tc, timestamps_outlive_another_socket, 0, 2);
	tcase_add_loop_test(tc, timestamp_ring_holds_a_ring_full, 0, 2);
	tcase_add_test(tc, open_refusals);
	tcase_add_test(tc, umem_limits);
	tcase_add_test(tc, forwarding_leaves_the_room);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
