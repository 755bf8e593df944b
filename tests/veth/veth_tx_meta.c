// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX metadata on veth (docs/KERNEL_RULES.md, "TX metadata"). A copy-mode
 * socket on one end sends UDP frames whose checksum field holds the
 * pseudo-header's sum; the other end receives them through xskx's XDP
 * program in generic or native mode. With XSKX_UMEM_TX_SW_CSUM every frame
 * that asked for a checksum arrives with a right one; without it veth's
 * "offload" hands the unfinished sum across (the peer's stack would trust
 * it, an AF_XDP socket sees it as sent); a frame without metadata arrives
 * as sent. TX timestamps come back for the frames that asked. What the
 * kernel does with bad metadata that reaches it, and the requests copy mode
 * refuses to promise, are cases of their own.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "tx_meta_helpers.h"
#include "veth_cases.h"
#include "veth_io.h"

#define FRAMES 64u
#define META_LEN 24u
#define PKTS 8u
#define PAYLOAD 18u
#define WAIT_MS 2000
#define POLL_MS 20

struct sender {
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
};

static int sender_open(struct sender *s, uint32_t umem_flags,
		       uint32_t requests)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES,
		  .tx_metadata_len = META_LEN, .flags = umem_flags);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_RX,
		  .tx_metadata = requests);
	int err;

	memset(s, 0, sizeof(*s));
	ck_assert_msg(!xskx_port_open(&s->port, PEER_VETH_A, NULL), "%s",
		      xskx_last_error());
	ck_assert_msg(!xskx_umem_create(&s->umem, &uo), "%s", xskx_last_error());
	so.port = s->port;
	err = xskx_socket_open(&s->sock, s->umem, &so);
	if (err)
		s->sock = NULL;
	return err;
}

static void sender_close(struct sender *s)
{
	if (s->sock)
		ck_assert_int_eq(xskx_socket_close(s->sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(s->umem), 0);
	ck_assert_int_eq(xskx_port_close(s->port), 0);
}

static struct xskx_pkt udp_pkt(struct xskx_umem *umem, uint8_t tag)
{
	return udp_frame_pkt(umem, PAYLOAD, tag);
}

/* Every frame back in the sender's pool, bounded. */
static void drain(struct sender *s)
{
	for (int step = 0;
	     step < 1000 && xskx_umem_pool_count(s->umem) < FRAMES; step++) {
		xskx_tx_reclaim(s->sock);
		if (xskx_umem_pool_count(s->umem) < FRAMES)
			xskx_socket_poll(s->sock, POLLOUT, POLL_MS);
	}
	ck_assert_uint_eq(xskx_umem_pool_count(s->umem), FRAMES);
}

/* Receive up to want frames (copies of their first 256 bytes), bounded. */
static uint32_t receive(struct veth_end *rx, uint8_t frames[][256],
			uint32_t *lens, uint32_t want)
{
	uint32_t got = 0;

	for (int idle = 0; got < want && idle < WAIT_MS;) {
		struct xskx_pkt pkts[PKTS];
		int n = xskx_rx_burst(rx->sock, pkts, PKTS);

		ck_assert_int_ge(n, 0);
		for (int i = 0; i < n && got < want; i++, got++) {
			lens[got] = pkts[i].len < 256 ? pkts[i].len : 256;
			memcpy(frames[got], pkts[i].data, lens[got]);
		}
		ck_assert_int_eq(xskx_rx_release(rx->sock, pkts, (uint32_t)n), 0);
		if (!n) {
			xskx_socket_poll(rx->sock, POLLIN, POLL_MS);
			idle += POLL_MS;
		}
	}
	return got;
}

/*
 * PKTS frames, the even ones asking for a checksum and a timestamp; what
 * arrives at the other end, in the order sent. Returns the timestamps got.
 */
static int send_and_receive(enum xskx_xdp_mode mode, uint32_t umem_flags,
			    uint8_t frames[][256], uint32_t *lens,
			    struct xskx_tx_timestamp *ts, uint64_t *t0,
			    uint64_t *t1)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts ro = { .ifname = PEER_VETH_B, .mode = mode,
				    .flags = XSKX_SOCKET_NO_TX };
	struct xskx_socket_info info;
	struct xskx_port_info pinfo;
	struct xskx_pkt pkts[PKTS];
	struct veth_end rx;
	struct sender tx;
	int n;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(!veth_end_open(&rx, &ro), "%s", xskx_last_error());
	ck_assert_msg(!sender_open(&tx, umem_flags,
				   XSKX_TX_META_CHECKSUM | XSKX_TX_META_TIMESTAMP),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(tx.sock, &info), 0);
	ck_assert(!info.zero_copy);
	ck_assert_uint_eq(info.tx_metadata_supported,
			  XSKX_TX_META_CHECKSUM | XSKX_TX_META_TIMESTAMP);
	/* veth has no zero-copy driver, and reports no xsk-features. */
	ck_assert_int_eq(xskx_port_info(tx.port, &pinfo), 0);
	ck_assert_uint_eq(pinfo.tx_metadata, 0);
	for (uint32_t i = 0; i < PKTS; i++) {
		pkts[i] = udp_pkt(tx.umem, (uint8_t)i);
		if (i % 2 == 0) {
			struct xsk_tx_metadata *m = xskx_tx_meta(tx.umem, &pkts[i]);

			m->flags = XDP_TXMD_FLAGS_CHECKSUM | XDP_TXMD_FLAGS_TIMESTAMP;
			m->request.csum_start = UDP_FRAME_CSUM_START;
			m->request.csum_offset = UDP_FRAME_CSUM_OFFSET;
		}
	}
	*t0 = test_tai_ns();
	ck_assert_int_eq(xskx_tx_burst(tx.sock, pkts, PKTS), PKTS);
	drain(&tx);
	*t1 = test_tai_ns();
	ck_assert_uint_eq(receive(&rx, frames, lens, PKTS), PKTS);
	n = xskx_tx_timestamps(tx.sock, ts, PKTS);
	sender_close(&tx);
	veth_end_close(&rx);
	veth_pair_delete(PEER_VETH_A);
	return n;
}

static void checksum_case(enum xskx_xdp_mode mode)
{
	uint8_t frames[PKTS][256];
	struct xskx_tx_timestamp ts[PKTS];
	uint32_t lens[PKTS];
	uint64_t t0, t1;
	int n;

	n = send_and_receive(mode, XSKX_UMEM_TX_SW_CSUM, frames, lens, ts, &t0,
			     &t1);
	for (uint32_t i = 0; i < PKTS; i++) {
		if (i % 2 == 0)
			ck_assert_msg(udp_frame_csum_ok(frames[i], lens[i]),
				      "frame %u: checksum 0x%04x", i,
				      udp_frame_csum_field(frames[i]));
		else
			ck_assert_uint_eq(udp_frame_csum_field(frames[i]),
					  udp_frame_csum_seed(frames[i]));
	}
	/* Copy mode: a software time, CLOCK_TAI, as the skb is freed. */
	ck_assert_int_eq(n, PKTS / 2);
	for (int k = 0; k < n; k++) {
		ck_assert_uint_ge(ts[k].tx_timestamp, t0);
		ck_assert_uint_le(ts[k].tx_timestamp, t1);
	}

	/* Without the software checksum veth passes the partial sum on. */
	send_and_receive(mode, 0, frames, lens, ts, &t0, &t1);
	for (uint32_t i = 0; i < PKTS; i++)
		ck_assert_uint_eq(udp_frame_csum_field(frames[i]),
				  udp_frame_csum_seed(frames[i]));
}

START_TEST(checksum_generic)
{
	checksum_case(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(checksum_native)
{
	checksum_case(XSKX_XDP_NATIVE);
}
END_TEST

/* One descriptor on TX past the library's checks, then a raw sendto. */
static int raw_send(struct sender *s, const struct xskx_pkt *p, uint64_t addr)
{
	struct xskx_rings rings;
	struct xdp_desc *d;
	uint32_t idx;

	ck_assert_int_eq(xskx_socket_rings(s->sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, 1, &idx), 1);
	d = xsk_ring_prod__tx_desc(rings.tx, idx);
	*d = (struct xdp_desc){ .addr = addr, .len = p->len,
				.options = p->options };
	xsk_ring_prod__submit(rings.tx, 1);
	return sendto(xskx_socket_fd(s->sock), NULL, 0, MSG_DONTWAIT, NULL, 0) ?
		       -errno :
		       0;
}

/*
 * Linux 6.18's copy mode on metadata it refuses (a checksum ending past
 * the data): every sendto fails with EINVAL, the descriptor stays at the
 * head of TX, nothing is counted and nothing completes (6.18.44; the first
 * 6.18 releases put its address on COMPLETION once per refused sendto);
 * mended in place, it goes, and completes once. A descriptor
 * without the metadata room in front of its data is invalid: consumed,
 * counted, completed.
 */
START_TEST(kernel_on_bad_metadata)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct xsk_tx_metadata *m;
	struct xskx_stats stats;
	struct xskx_pkt p;
	struct sender s;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(sender_open(&s, 0, XSKX_TX_META_CHECKSUM), 0);
	p = udp_pkt(s.umem, 1);
	m = xskx_tx_meta(s.umem, &p);
	m->flags = XDP_TXMD_FLAGS_CHECKSUM;
	m->request.csum_start = UDP_FRAME_CSUM_START;
	m->request.csum_offset = (uint16_t)p.len;
	ck_assert_int_eq(raw_send(&s, &p, p.addr), -EINVAL);
	ck_assert_int_eq(sendto(xskx_socket_fd(s.sock), NULL, 0, MSG_DONTWAIT,
				NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(test_tx_consumed(s.sock), 0);
	ck_assert_int_eq(xskx_socket_stats(s.sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 0);
	ck_assert_uint_eq(test_comp_take(s.sock, p.addr), 0);
	m->request.csum_offset = UDP_FRAME_CSUM_OFFSET;
	ck_assert_int_eq(sendto(xskx_socket_fd(s.sock), NULL, 0, MSG_DONTWAIT,
				NULL, 0), 0);
	ck_assert_uint_eq(test_tx_consumed(s.sock), 1);

	p = udp_pkt(s.umem, 2);
	p.options = 0;
	ck_assert_int_eq(raw_send(&s, &p, p.addr - META_LEN), 0);
	ck_assert_uint_eq(test_tx_consumed(s.sock), 2);
	ck_assert_int_eq(xskx_socket_stats(s.sock, &stats), 0);
	ck_assert_uint_eq(stats.tx_invalid_descs, 1);
	for (int step = 0, got = 0; got < 2 && step < 100; step++) {
		got += (int)test_comp_free(s.sock);
		if (got < 2)
			poll(NULL, 0, 10);
	}
	ck_assert_uint_eq(xskx_umem_pool_count(s.umem), FRAMES);
	sender_close(&s);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/* Copy mode does not promise a launch time: refused at open, named. */
START_TEST(launch_time_refused)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct sender s;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(sender_open(&s, 0, XSKX_TX_META_LAUNCH_TIME),
			 -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "XSKX_TX_META_LAUNCH_TIME"));
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "'" PEER_VETH_A "'"));
	ck_assert_uint_eq(xskx_umem_pool_count(s.umem), FRAMES);
	sender_close(&s);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

void add_tx_meta_cases(Suite *suite)
{
	veth_add_case(suite, "TX_META_CHECKSUM_generic", checksum_generic);
	veth_add_case(suite, "TX_META_CHECKSUM_native", checksum_native);
	veth_add_case(suite, "TX_META_KERNEL_RULES", kernel_on_bad_metadata);
	veth_add_case(suite, "TX_META_LAUNCH_TIME_REFUSED", launch_time_refused);
}
