// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Multi-buffer chains through the library's API on the simulated NIC: a
 * burst walked packet by packet (xskx_pkt_frags), RX bursts that hold whole
 * packets only, the kernel's fragment limit reported (xskx_socket_info) and
 * enforced by xskx_tx_burst, and the simulated NIC refusing a raw chain
 * longer than that limit whole, as the kernel does (docs/KERNEL_RULES.md,
 * "Multi-buffer"). The oracles are literal: counts of fragments and bytes
 * worked out from the frame size, not from the code under test.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "helpers.h"

#define FRAME_SIZE 2048u
/* Data room of a received fragment: the frame less XDP_PACKET_HEADROOM. */
#define RX_ROOM (FRAME_SIZE - 256u)
/* 5000 bytes arrive as 1792 + 1792 + 1416. */
#define JUMBO_LEN 5000u
#define JUMBO_FRAGS 3u
/*
 * Zero-copy needs an MTU 9000 packet to fit the chain: 8 fragments of
 * 2048-byte frames (1408 usable bytes each, xp_assign_dev) do.
 */
#define PORT_MAX_FRAGS 8u

struct nic {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint64_t wire_packets; /* what the port transmitted */
	uint32_t wire_len;     /* the length of the last one */
};

static void count_wire(enum xskx_sim_sink_kind kind, const uint8_t *data,
		       uint32_t len, uint32_t queue, void *ctx)
{
	struct nic *nic = ctx;

	(void)kind;
	(void)data;
	(void)queue;
	nic->wire_packets++;
	nic->wire_len = len;
}

/* A port with MTU 9000 (copy_mode: a driver without zero-copy) and a socket. */
static void nic_create(struct nic *nic, bool copy_mode, uint32_t sock_flags)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "mb", .mtu = 9000,
		  .max_frags = PORT_MAX_FRAGS, .no_zero_copy = copy_mode);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_size = FRAME_SIZE,
		  .frame_count = 256);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = sock_flags);

	memset(nic, 0, sizeof(*nic));
	ck_assert_int_eq(xskx_sim_create(&nic->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic->sim, &port_opts, &nic->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(nic->port, count_wire, nic), 0);
	ck_assert_int_eq(xskx_umem_create(&nic->umem, &umem_opts), 0);
	sock_opts.port = test_port(nic->port);
	ck_assert_msg(!xskx_socket_open(&nic->sock, nic->umem, &sock_opts),
		      "%s", xskx_last_error());
}

static void nic_destroy(struct nic *nic)
{
	ck_assert_int_eq(xskx_socket_close(nic->sock), 0);
	test_sim_teardown(nic->sim, nic->umem);
}

static void poll_nic(struct nic *nic)
{
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
}

static uint64_t stat_of(struct nic *nic, size_t offset)
{
	struct xskx_stats st;

	ck_assert_int_eq(xskx_socket_stats(nic->sock, &st), 0);
	return *(const uint64_t *)((const char *)&st + offset);
}

#define STAT(nic, field) stat_of(nic, offsetof(struct xskx_stats, field))

/* n fragments of 64 bytes in frames of the application's, chained. */
static void held_chain(struct nic *nic, struct xskx_pkt *pkts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t frame;

		ck_assert_uint_eq(xskx_frame_alloc(nic->umem, &frame, 1), 1);
		pkts[i] = (struct xskx_pkt){
			.addr = frame,
			.len = 64,
			.options = i + 1 < n ? XDP_PKT_CONTD : 0,
		};
	}
}

START_TEST(pkt_frags_walks_a_burst)
{
	const struct xskx_pkt pkts[] = {
		{ .len = 100 },
		{ .len = 10, .options = XDP_PKT_CONTD },
		{ .len = 20, .options = XDP_PKT_CONTD },
		{ .len = 30 },
		{ .len = 7, .options = XDP_PKT_CONTD },
	};
	uint32_t len = 0;

	ck_assert_uint_eq(xskx_pkt_frags(&pkts[0], 5, &len), 1);
	ck_assert_uint_eq(len, 100);
	ck_assert_uint_eq(xskx_pkt_frags(&pkts[1], 4, &len), 3);
	ck_assert_uint_eq(len, 60);
	/* Open at the end of what was given: no packet, its bytes so far. */
	ck_assert_uint_eq(xskx_pkt_frags(&pkts[4], 1, &len), 0);
	ck_assert_uint_eq(len, 7);
	ck_assert_uint_eq(xskx_pkt_frags(&pkts[1], 2, NULL), 0);
	ck_assert_uint_eq(xskx_pkt_frags(pkts, 0, &len), 0);
	ck_assert_uint_eq(len, 0);
}
END_TEST

/* 18 in copy mode (one skb), the port's own in zero-copy, 1 without SG. */
START_TEST(info_reports_the_fragment_limit)
{
	struct xskx_socket_info info;
	struct nic nic;

	nic_create(&nic, false, XSKX_SOCKET_MULTI_BUFFER);
	ck_assert_int_eq(xskx_socket_info(nic.sock, &info), 0);
	ck_assert(info.zero_copy);
	ck_assert_uint_eq(info.max_frags, PORT_MAX_FRAGS);
	nic_destroy(&nic);

	nic_create(&nic, true, XSKX_SOCKET_MULTI_BUFFER);
	ck_assert_int_eq(xskx_socket_info(nic.sock, &info), 0);
	ck_assert(!info.zero_copy);
	ck_assert_uint_eq(info.max_frags, 18);
	nic_destroy(&nic);

	nic_create(&nic, false, 0);
	ck_assert_int_eq(xskx_socket_info(nic.sock, &info), 0);
	ck_assert_uint_eq(info.max_frags, 1);
	nic_destroy(&nic);
}
END_TEST

/*
 * A chain of exactly the limit goes out as one packet; one fragment more is
 * refused whole, with the limit in the message, and stays the caller's.
 */
START_TEST(tx_enforces_the_fragment_limit)
{
	struct xskx_pkt pkts[PORT_MAX_FRAGS + 1];
	char why[384];
	struct nic nic;

	nic_create(&nic, false, XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_RX);
	test_log_capture();
	held_chain(&nic, pkts, PORT_MAX_FRAGS);
	ck_assert_int_eq(xskx_tx_burst(nic.sock, pkts, PORT_MAX_FRAGS),
			 PORT_MAX_FRAGS);
	poll_nic(&nic);
	ck_assert_uint_eq(xskx_tx_reclaim(nic.sock), PORT_MAX_FRAGS);
	ck_assert_uint_eq(nic.wire_packets, 1);
	ck_assert_uint_eq(nic.wire_len, 64 * PORT_MAX_FRAGS);

	held_chain(&nic, pkts, PORT_MAX_FRAGS + 1);
	ck_assert_int_eq(xskx_tx_burst(nic.sock, pkts, PORT_MAX_FRAGS + 1),
			 -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "8 fragments"), "%s",
		      xskx_last_error());
	ck_assert_uint_eq(STAT(&nic, tx_rejected), 1);
	ck_assert_msg(test_census_ok(nic.umem, PORT_MAX_FRAGS + 1, why,
				     sizeof(why)),
		      "%s", why);
	for (uint32_t i = 0; i <= PORT_MAX_FRAGS; i++)
		ck_assert_int_eq(xskx_frame_free(nic.umem, &pkts[i].addr, 1), 0);
	xskx_set_log(NULL, NULL);
	nic_destroy(&nic);
}
END_TEST

/*
 * A chain past the limit after a good packet: xskx_tx_burst_status()
 * accepts the packet and refuses the chain in the same call, naming it by
 * its index.
 */
START_TEST(tx_burst_status_refuses_a_long_chain_at_its_index)
{
	struct xskx_pkt pkts[PORT_MAX_FRAGS + 2];
	uint32_t accepted = 0;
	char why[384];
	struct nic nic;

	nic_create(&nic, false, XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_RX);
	test_log_capture();
	held_chain(&nic, pkts, 1);
	held_chain(&nic, &pkts[1], PORT_MAX_FRAGS + 1);
	ck_assert_int_eq(xskx_tx_burst_status(nic.sock, pkts, PORT_MAX_FRAGS + 2,
					      &accepted),
			 -EINVAL);
	ck_assert_uint_eq(accepted, 1);
	ck_assert_msg(strstr(xskx_last_error(), "pkts[1]") &&
			      strstr(xskx_last_error(), "8 fragments"),
		      "%s", xskx_last_error());
	ck_assert_uint_eq(STAT(&nic, tx_rejected), 1);
	ck_assert_msg(test_census_ok(nic.umem, PORT_MAX_FRAGS + 1, why,
				     sizeof(why)),
		      "%s", why);
	for (uint32_t i = 1; i <= PORT_MAX_FRAGS + 1; i++)
		ck_assert_int_eq(xskx_frame_free(nic.umem, &pkts[i].addr, 1), 0);
	poll_nic(&nic);
	ck_assert_uint_eq(xskx_tx_reclaim(nic.sock), 1);
	xskx_set_log(NULL, NULL);
	nic_destroy(&nic);
}
END_TEST

/*
 * Raw TX ring, zero-copy: a chain of the port's limit of descriptors all
 * with XDP_PKT_CONTD, ended by one more, is invalid whole (limit + 1
 * descriptors counted, none sent, none completed), as the kernel measured
 * on veth treats it (docs/KERNEL_RULES.md); the packet after it goes out.
 */
START_TEST(a_raw_chain_past_the_limit_is_invalid_whole)
{
	struct xskx_pkt pkts[PORT_MAX_FRAGS + 2];
	struct xskx_rings rings;
	uint32_t idx = 0, n = PORT_MAX_FRAGS + 1;
	struct nic nic;

	nic_create(&nic, false, XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_RX);
	held_chain(&nic, pkts, n);
	held_chain(&nic, &pkts[n], 1);
	ck_assert_int_eq(xskx_socket_rings(nic.sock, &rings), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, n, &idx), n);
	for (uint32_t i = 0; i < n; i++)
		*xsk_ring_prod__tx_desc(rings.tx, idx + i) = (struct xdp_desc){
			.addr = pkts[i].addr, .len = pkts[i].len,
			.options = pkts[i].options };
	xsk_ring_prod__submit(rings.tx, n);
	ck_assert_int_eq(xskx_tx_burst(nic.sock, &pkts[n], 1), 1);
	ck_assert_int_eq(xskx_socket_kick_tx(nic.sock), 0);
	poll_nic(&nic);
	ck_assert_uint_eq(nic.wire_packets, 1);
	ck_assert_uint_eq(nic.wire_len, 64);
	ck_assert_uint_eq(STAT(&nic, tx_invalid_descs), n);
	ck_assert_uint_eq(xskx_tx_reclaim(nic.sock), 1);
	/* The frames of the raw descriptors are still the test's. */
	for (uint32_t i = 0; i < n; i++)
		ck_assert_int_eq(xskx_frame_free(nic.umem, &pkts[i].addr, 1), 0);
	nic_destroy(&nic);
}
END_TEST

/* One JUMBO_LEN frame on the wire, byte i of it (uint8_t)(i * 7 + tag). */
static void inject_jumbo(struct nic *nic, uint8_t tag)
{
	static uint8_t frame[JUMBO_LEN];

	for (uint32_t i = 0; i < JUMBO_LEN; i++)
		frame[i] = (uint8_t)(i * 7u + tag);
	memcpy(frame, "\x02\0\0\0\0\x0b\x02\0\0\0\0\x0a\x88\xb5", 14);
	ck_assert_int_eq(xskx_sim_port_inject(nic->port, frame, JUMBO_LEN), 0);
}

/* The chain at pkts holds inject_jumbo(tag)'s bytes, in order. */
static void check_jumbo(const struct xskx_pkt *pkts, uint8_t tag)
{
	uint32_t len = 0, at = 0;

	ck_assert_uint_eq(xskx_pkt_frags(pkts, JUMBO_FRAGS, &len), JUMBO_FRAGS);
	ck_assert_uint_eq(len, JUMBO_LEN);
	ck_assert_uint_eq(pkts[0].len, RX_ROOM);
	for (uint32_t f = 0; f < JUMBO_FRAGS; f++)
		for (uint32_t i = 0; i < pkts[f].len; i++, at++)
			if (at >= 14)
				ck_assert_uint_eq(pkts[f].data[i],
						  (uint8_t)(at * 7u + tag));
}

/*
 * Two 5000-byte packets of three fragments each: a burst of max 4 returns
 * the first whole (3), the next the second; a max of 2 cannot hold a packet.
 */
START_TEST(rx_bursts_hold_whole_packets)
{
	struct xskx_pkt pkts[4];
	struct nic nic;

	nic_create(&nic, false, XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_TX);
	ck_assert_int_eq(xskx_rx_burst(nic.sock, NULL, 0), 0);
	inject_jumbo(&nic, 1);
	inject_jumbo(&nic, 2);
	poll_nic(&nic);
	test_log_capture();
	ck_assert_int_eq(xskx_rx_burst(nic.sock, pkts, 2), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "max = 2"), "%s",
		      xskx_last_error());
	xskx_set_log(NULL, NULL);
	ck_assert_int_eq(xskx_rx_burst(nic.sock, pkts, 4), JUMBO_FRAGS);
	check_jumbo(pkts, 1);
	ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, JUMBO_FRAGS), 0);
	ck_assert_int_eq(xskx_rx_burst(nic.sock, pkts, 4), JUMBO_FRAGS);
	check_jumbo(pkts, 2);
	ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, JUMBO_FRAGS), 0);
	ck_assert_uint_eq(STAT(&nic, rx_packets), 2 * JUMBO_FRAGS);
	ck_assert_uint_eq(STAT(&nic, rx_bytes), 2 * JUMBO_LEN);
	nic_destroy(&nic);
}
END_TEST

static Suite *multi_buffer_suite(void)
{
	Suite *s = suite_create("multi_buffer");
	TCase *tc = tcase_create("multi_buffer");

	tcase_add_test(tc, pkt_frags_walks_a_burst);
	tcase_add_test(tc, info_reports_the_fragment_limit);
	tcase_add_test(tc, tx_enforces_the_fragment_limit);
	tcase_add_test(tc, tx_burst_status_refuses_a_long_chain_at_its_index);
	tcase_add_test(tc, a_raw_chain_past_the_limit_is_invalid_whole);
	tcase_add_test(tc, rx_bursts_hold_whole_packets);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(multi_buffer_suite(), argc, argv);
}
