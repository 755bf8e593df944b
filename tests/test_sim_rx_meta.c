// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RX metadata on the simulated NIC (XSKX_PORT_RX_METADATA, xskx/rx_meta.h):
 * the struct arrives in front of every packet in zero-copy and copy mode,
 * in front of a chain's first fragment, with the port's RSS hash of the
 * flow (the same queue RSS picks) and its clock; a port without the flag
 * finds none, even in frames that carried one before; the rules: not with
 * xdp_obj, not with a hook of the caller's, which cannot be installed
 * while such a port is open. Cases with _i run twice: 0 zero-copy, 1 copy.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "frames.h"
#include "helpers.h"

#define FRAME_SIZE 2048u
#define BURST 16u

struct nic {
	struct xskx_sim *sim;
	struct xskx_sim_port *sim_port;
	struct xskx_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
};

/* The port and socket of nic anew, with port_flags, on the same UMEM. */
static void nic_reopen(struct nic *nic, uint32_t port_flags)
{
	XSKX_OPTS(xskx_port_opts, port_opts, .flags = port_flags);
	XSKX_OPTS(xskx_socket_opts, sock_opts,
		  .flags = XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_TX);
	struct xskx_pkt none[1];

	ck_assert_int_eq(xskx_socket_close(nic->sock), 0);
	ck_assert_int_eq(xskx_port_close(nic->port), 0);
	ck_assert_int_eq(xskx_port_open_sim(&nic->port, nic->sim_port,
					    &port_opts),
			 0);
	sock_opts.port = nic->port;
	ck_assert_msg(!xskx_socket_open(&nic->sock, nic->umem, &sock_opts),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_rx_burst(nic->sock, none, 1), 0);
}

static void nic_create(struct nic *nic, bool copy_mode, uint32_t port_flags)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, sp_opts, .name = "rxm", .mtu = 9000,
		  .max_frags = 8, .no_zero_copy = copy_mode);
	XSKX_OPTS(xskx_port_opts, port_opts, .flags = port_flags);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_size = FRAME_SIZE,
		  .frame_count = 256);
	XSKX_OPTS(xskx_socket_opts, sock_opts,
		  .flags = XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_TX);
	struct xskx_pkt none[1];

	memset(nic, 0, sizeof(*nic));
	ck_assert_int_eq(xskx_sim_create(&nic->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic->sim, &sp_opts,
					      &nic->sim_port),
			 0);
	ck_assert_msg(!xskx_port_open_sim(&nic->port, nic->sim_port,
					  &port_opts),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_umem_create(&nic->umem, &umem_opts), 0);
	sock_opts.port = nic->port;
	ck_assert_msg(!xskx_socket_open(&nic->sock, nic->umem, &sock_opts),
		      "%s", xskx_last_error());
	ck_assert_int_eq(xskx_rx_burst(nic->sock, none, 1), 0);
}

static void nic_destroy(struct nic *nic)
{
	ck_assert_int_eq(xskx_socket_close(nic->sock), 0);
	ck_assert_int_eq(xskx_port_close(nic->port), 0);
	test_sim_teardown(nic->sim, nic->umem);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A UDP frame of len bytes (at least a header's) from src to dst. */
static void inject_udp(struct nic *nic, const char *src, const char *dst,
		       uint32_t len)
{
	static uint8_t frame[9000];

	memset(frame, 0xa5, sizeof(frame));
	frame_udp_packet(frame, src, dst, 4242);
	ck_assert_int_eq(xskx_sim_poll(nic->sim), 0);
	ck_assert_int_eq(xskx_sim_port_inject(nic->sim_port, frame, len), 0);
	ck_assert_int_ge(xskx_sim_poll(nic->sim), 0);
}

static int receive(struct nic *nic, struct xskx_pkt *pkts)
{
	int n = xskx_rx_burst(nic->sock, pkts, BURST);

	ck_assert_int_ge(n, 0);
	return n;
}

START_TEST(struct_in_front_of_each_packet)
{
	struct xskx_pkt pkts[BURST];
	const struct xskx_rx_meta *m[3];
	struct xskx_port_info info;
	uint64_t t0 = now_ns();
	struct nic nic;
	int n;

	nic_create(&nic, _i, XSKX_PORT_RX_METADATA);
	inject_udp(&nic, "192.0.2.1", "192.0.2.2", 64);
	inject_udp(&nic, "192.0.2.1", "192.0.2.2", 64);
	inject_udp(&nic, "2001:db8::1", "2001:db8::2", 80);
	n = receive(&nic, pkts);
	ck_assert_int_eq(n, 3);
	for (int i = 0; i < 3; i++) {
		m[i] = xskx_pkt_rx_meta(nic.sock, &pkts[i]);
		ck_assert_ptr_nonnull(m[i]);
		ck_assert_uint_eq(m[i]->valid,
				  XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH);
		ck_assert_uint_eq(m[i]->magic, XSKX_RX_META_MAGIC);
		ck_assert_uint_eq(m[i]->vlan_proto, 0);
		ck_assert_uint_eq(m[i]->vlan_tci, 0);
		ck_assert_uint_ge(m[i]->timestamp, t0);
		ck_assert_uint_le(m[i]->timestamp, now_ns());
		/* It ends where the data begins. */
		ck_assert_ptr_eq((const uint8_t *)(m[i] + 1), pkts[i].data);
	}
	ck_assert_uint_eq(m[0]->hash, m[1]->hash);
	ck_assert_uint_ne(m[0]->hash, m[2]->hash);
	ck_assert_uint_eq(m[0]->hash_type,
			  XSKX_RSS_L3_IPV4 | XSKX_RSS_L4 | XSKX_RSS_L4_UDP);
	ck_assert_uint_eq(m[2]->hash_type,
			  XSKX_RSS_L3_IPV6 | XSKX_RSS_L4 | XSKX_RSS_L4_UDP);
	ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, (uint32_t)n), 0);
	ck_assert_int_eq(xskx_port_info(nic.port, &info), 0);
	ck_assert_uint_eq(info.rx_metadata,
			  XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH);
	ck_assert_uint_eq(info.rx_meta_bound, info.rx_metadata);
	nic_destroy(&nic);
}
END_TEST

/* 5000 bytes as three fragments: the struct in front of the first only. */
START_TEST(struct_in_front_of_a_chains_first_fragment)
{
	struct xskx_pkt pkts[BURST];
	const struct xskx_rx_meta *m;
	uint32_t len;
	struct nic nic;
	int n;

	nic_create(&nic, _i, XSKX_PORT_RX_METADATA);
	inject_udp(&nic, "198.51.100.1", "203.0.113.1", 5000);
	n = receive(&nic, pkts);
	ck_assert_int_eq(n, 3);
	ck_assert_uint_eq(xskx_pkt_frags(pkts, 3, &len), 3);
	ck_assert_uint_eq(len, 5000);
	m = xskx_pkt_rx_meta(nic.sock, &pkts[0]);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->valid, XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH);
	/* A fragment's data room is whole: the struct sits in the headroom. */
	ck_assert_uint_eq(pkts[0].len, FRAME_SIZE - 256);
	ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, (uint32_t)n), 0);
	nic_destroy(&nic);
}
END_TEST

/*
 * Every frame of the UMEM through a port with the flag, each left with a
 * struct in its headroom; then, the port closed and another opened without
 * the flag on the same UMEM, the same frames arrive again: no struct.
 */
START_TEST(no_struct_without_the_flag)
{
	struct xskx_pkt pkts[BURST];
	uint32_t total = 0;
	struct nic nic;
	int n;

	nic_create(&nic, _i, XSKX_PORT_RX_METADATA);
	for (uint32_t round = 0; round < 256 / BURST; round++) {
		for (uint32_t i = 0; i < BURST; i++)
			inject_udp(&nic, "192.0.2.1", "192.0.2.2", 64);
		n = receive(&nic, pkts);
		for (int i = 0; i < n; i++)
			ck_assert_ptr_nonnull(
				xskx_pkt_rx_meta(nic.sock, &pkts[i]));
		total += (uint32_t)n;
		ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, (uint32_t)n),
				 0);
	}
	ck_assert_uint_eq(total, 256);
	nic_reopen(&nic, 0);
	for (int i = 0; i < 4; i++)
		inject_udp(&nic, "192.0.2.1", "192.0.2.2", 64);
	n = receive(&nic, pkts);
	ck_assert_int_eq(n, 4);
	for (int i = 0; i < n; i++) {
		uint32_t magic;

		/* The old struct is still there, and must not be read. */
		memcpy(&magic, pkts[i].data - 4, 4);
		ck_assert_uint_eq(magic, XSKX_RX_META_MAGIC);
		ck_assert_ptr_null(xskx_pkt_rx_meta(nic.sock, &pkts[i]));
	}
	ck_assert_ptr_null(xskx_pkt_rx_meta(NULL, &pkts[0]));
	ck_assert_ptr_null(xskx_pkt_rx_meta(nic.sock, NULL));
	ck_assert_int_eq(xskx_rx_release(nic.sock, pkts, (uint32_t)n), 0);
	nic_destroy(&nic);
}
END_TEST

/*
 * On a port with the flag, what is in front of a packet's data counts as
 * its struct only with the magic as its last word: a view of bytes
 * without it (what a device keeping no metadata leaves) finds none, and a
 * TX view (no data) none either.
 */
START_TEST(struct_only_with_its_magic)
{
	uint8_t bytes[sizeof(struct xskx_rx_meta) + 64] = { 0 };
	struct xskx_pkt view = { .data = bytes + sizeof(struct xskx_rx_meta),
				 .len = 64 };
	struct xskx_pkt tx_view = { .addr = 0, .len = 64 };
	const uint32_t magic = XSKX_RX_META_MAGIC;
	struct nic nic;

	nic_create(&nic, false, XSKX_PORT_RX_METADATA);
	ck_assert_ptr_null(xskx_pkt_rx_meta(nic.sock, &view));
	ck_assert_ptr_null(xskx_pkt_rx_meta(nic.sock, &tx_view));
	memcpy(view.data - sizeof(magic), &magic, sizeof(magic));
	ck_assert_ptr_eq(xskx_pkt_rx_meta(nic.sock, &view), bytes);
	nic_destroy(&nic);
}
END_TEST

static enum xskx_xdp_verdict redirect(uint8_t *data, uint32_t len,
				      uint32_t queue, void *ctx)
{
	(void)data, (void)len, (void)queue, (void)ctx;
	return XSKX_XDP_REDIRECT;
}

START_TEST(rules)
{
	static const uint8_t obj[8];
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, sp_opts, .name = "rxm");
	XSKX_OPTS(xskx_port_opts, with_obj, .flags = XSKX_PORT_RX_METADATA,
		  .xdp_obj = obj, .xdp_obj_size = sizeof(obj));
	XSKX_OPTS(xskx_port_opts, flag, .flags = XSKX_PORT_RX_METADATA);
	struct xskx_sim_port *sp;
	struct xskx_port *port;
	struct xskx_sim *sim;

	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &sp_opts, &sp), 0);
	test_log_capture();
	ck_assert_int_eq(xskx_port_open_sim(&port, sp, &with_obj), -EINVAL);
	ck_assert_ptr_nonnull(strstr(test_log_last(), "xdp_obj"));
	/* A hook of the caller's would sit where the struct goes. */
	ck_assert_int_eq(xskx_sim_port_set_xdp(sp, redirect, NULL), 0);
	ck_assert_int_eq(xskx_port_open_sim(&port, sp, &flag), -EINVAL);
	ck_assert_ptr_nonnull(strstr(test_log_last(), "hook"));
	ck_assert_int_eq(xskx_sim_port_set_xdp(sp, NULL, NULL), 0);
	ck_assert_int_eq(xskx_port_open_sim(&port, sp, &flag), 0);
	ck_assert_int_eq(xskx_sim_port_set_xdp(sp, redirect, NULL), -EBUSY);
	ck_assert_ptr_nonnull(strstr(test_log_last(), "XSKX_PORT_RX_METADATA"));
	/* Restoring xskx's own program is no hook of the caller's. */
	ck_assert_int_eq(xskx_sim_port_set_xdp_buff(sp, NULL, NULL), 0);
	/* Closed, the port no longer holds the simulated port's program. */
	ck_assert_int_eq(xskx_port_close(port), 0);
	ck_assert_int_eq(xskx_sim_port_set_xdp(sp, redirect, NULL), 0);
	test_log_reset();
	ck_assert_int_eq(test_sim_destroy(sim), 0);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("sim_rx_meta");
	TCase *tc = tcase_create("rx_meta");

	tcase_add_loop_test(tc, struct_in_front_of_each_packet, 0, 2);
	tcase_add_loop_test(tc, struct_in_front_of_a_chains_first_fragment, 0,
			    2);
	tcase_add_loop_test(tc, no_struct_without_the_flag, 0, 2);
	tcase_add_test(tc, struct_only_with_its_magic);
	tcase_add_test(tc, rules);
	suite_add_tcase(s, tc);
	return test_main(s, argc, argv);
}
