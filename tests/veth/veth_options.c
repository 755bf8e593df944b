// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Socket options on the kernel backend: what the socket reports about its
 * binding and busy polling (two sockets on one UMEM across the pair is the
 * XDP_SHARED_UMEM scenario).
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "stream.h"
#include "veth_cases.h"
#include "veth_io.h"

#define PKTS 512

static void pair_up(void)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
}

/*
 * Reported back: copy mode on veth, need_wakeup by default, the XDP mode
 * asked for, the RX metadata veth gives XDP programs.
 */
static void binding_reported(enum xskx_xdp_mode mode)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B, .mode = mode };
	struct xskx_socket_info info;
	struct xskx_port_info port_info;
	struct veth_end end;

	pair_up();
	ck_assert_msg(veth_end_open(&end, &o) == 0, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(end.sock, &info), 0);
	ck_assert(!info.zero_copy);
	ck_assert(info.need_wakeup);
	ck_assert_str_eq(info.backend, "kernel");
	ck_assert_int_ge(xskx_socket_fd(end.sock), 0);
	ck_assert_int_eq(xskx_port_info(end.port, &port_info), 0);
	ck_assert(port_info.xdp_attached);
	ck_assert_int_eq(port_info.xdp_mode, mode);
	ck_assert_str_eq(port_info.backend, "kernel");
	ck_assert_str_eq(port_info.name, PEER_VETH_B);
	ck_assert_uint_eq(port_info.ifindex, if_nametoindex(PEER_VETH_B));
	ck_assert_uint_eq(port_info.rx_queues, 1);
	ck_assert_uint_eq(port_info.sockets, 1);
	/* veth implements all three kfuncs (6.8+, the VLAN tag's). */
	ck_assert_uint_eq(port_info.rx_metadata, XSKX_RX_META_TIMESTAMP |
							 XSKX_RX_META_HASH |
							 XSKX_RX_META_VLAN_TAG);
	veth_end_close(&end);

	o.flags = XSKX_SOCKET_NO_WAKEUP;
	ck_assert_msg(veth_end_open(&end, &o) == 0, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_info(end.sock, &info), 0);
	ck_assert(!info.need_wakeup);
	veth_end_close(&end);
	veth_pair_delete(PEER_VETH_A);
}

/*
 * The device's own queue counts, each under its name: a veth with 4 RX
 * and 2 TX queues (the other test devices have equal counts, where a swap
 * would not show).
 */
START_TEST(queue_counts_reported)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = 4,
				       .tx_queues = 2 };
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = XSKX_XDP_NATIVE };
	struct xskx_port_info port_info;
	struct veth_end end;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(veth_end_open(&end, &o) == 0, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_port_info(end.port, &port_info), 0);
	ck_assert_uint_eq(port_info.rx_queues, 4);
	ck_assert_uint_eq(port_info.tx_queues, 2);
	veth_end_close(&end);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/* A socket option of the socket's fd, as the kernel reports it. */
static int sock_opt(const struct veth_end *end, int name)
{
	int fd = xskx_socket_fd(end->sock), value = -1;
	socklen_t len = sizeof(value);

	ck_assert_int_ge(fd, 0);
	ck_assert_msg(!getsockopt(fd, SOL_SOCKET, name, &value, &len),
		      "getsockopt %d: %s", name, strerror(errno));
	return value;
}

/*
 * With busy polling on (it needs CAP_NET_ADMIN) the kernel has the options
 * on the socket — read back with getsockopt: preferred, and the library's
 * default of 20 us or the time asked for (the kernel does not report
 * SO_BUSY_POLL_BUDGET back) — and traffic still flows.
 */
static void busy_poll(enum xskx_xdp_mode mode)
{
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_TX,
					 .busy_poll = true };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = mode,
					 .flags = XSKX_SOCKET_NO_RX,
					 .busy_poll = true,
					 .busy_poll_usec = 50,
					 .busy_poll_budget = 16 };
	struct veth_end rx, tx;

	pair_up();
	ck_assert_msg(veth_end_open(&rx, &rx_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_msg(veth_end_open(&tx, &tx_opts) == 0, "%s",
		      xskx_last_error());
	ck_assert_int_eq(sock_opt(&rx, SO_PREFER_BUSY_POLL), 1);
	ck_assert_int_eq(sock_opt(&rx, SO_BUSY_POLL), 20);
	ck_assert_int_eq(sock_opt(&tx, SO_PREFER_BUSY_POLL), 1);
	ck_assert_int_eq(sock_opt(&tx, SO_BUSY_POLL), 50);
	ck_assert_uint_eq(veth_send(&tx, PKTS, 64, 0), PKTS);
	ck_assert_int_eq(veth_receive(&rx, PKTS, 0, 1000), PKTS);
	ck_assert_uint_eq(veth_wait_completions(&tx, PKTS), PKTS);
	veth_end_close(&tx);
	veth_end_close(&rx);
	veth_pair_delete(PEER_VETH_A);
}

/*
 * Unaligned frames of 4001 bytes, so that every other frame starts at an
 * odd address: sent from their starts, every frame comes home once. Linux
 * 6.18's copy mode completes such a start with bit 0 cleared, as the last
 * byte of the frame before it; read as it comes, that frame would go back
 * to the pool twice and this one never (KERNEL_RULES.md, "TX").
 */
#define ODD_FRAME 4001u
#define ODD_FRAMES 64u

static void odd_frame_completions(enum xskx_xdp_mode mode)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_size = ODD_FRAME,
		  .frame_count = ODD_FRAMES, .flags = XSKX_UMEM_UNALIGNED);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_RX,
		  .tx_size = ODD_FRAMES);
	uint64_t frames[ODD_FRAMES];
	struct xskx_pkt pkts[ODD_FRAMES];
	struct veth_end tx = { 0 };
	uint8_t seen[ODD_FRAMES] = { 0 };
	char why[384];

	pair_up();
	tx.port = so.port = veth_port_open(PEER_VETH_A, mode);
	ck_assert_msg(tx.port, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_umem_create(&tx.umem, &uo), 0);
	ck_assert_msg(!xskx_socket_open(&tx.sock, tx.umem, &so), "%s",
		      xskx_last_error());
	ck_assert_uint_eq(xskx_frame_alloc(tx.umem, frames, ODD_FRAMES),
			  ODD_FRAMES);
	for (uint32_t i = 0; i < ODD_FRAMES; i++) {
		pkts[i] = (struct xskx_pkt){
			.addr = xskx_umem_tx_addr(tx.umem, frames[i]), .len = 64
		};
		pkt_write(xskx_umem_area(tx.umem) + pkts[i].addr, i, 64);
	}
	ck_assert_int_eq(xskx_tx_burst(tx.sock, pkts, ODD_FRAMES), ODD_FRAMES);
	ck_assert_uint_eq(veth_wait_completions(&tx, ODD_FRAMES), ODD_FRAMES);
	ck_assert_msg(test_census_all_in_pool(tx.umem, why, sizeof(why)), "%s",
		      why);
	/* Every frame once: none twice, none missing. */
	ck_assert_uint_eq(xskx_frame_alloc(tx.umem, frames, ODD_FRAMES),
			  ODD_FRAMES);
	for (uint32_t i = 0; i < ODD_FRAMES; i++) {
		uint64_t f = frames[i] / ODD_FRAME;

		ck_assert_msg(frames[i] % ODD_FRAME == 0 && f < ODD_FRAMES &&
				      !seen[f]++,
			      "frame at %#llx handed out twice or not a start",
			      (unsigned long long)frames[i]);
	}
	ck_assert_int_eq(xskx_frame_free(tx.umem, frames, ODD_FRAMES), 0);
	veth_end_close(&tx);
	ck_assert_int_eq(xskx_port_close(so.port), 0);
	veth_pair_delete(PEER_VETH_A);
}

START_TEST(odd_frame_completions_generic)
{
	odd_frame_completions(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(odd_frame_completions_native)
{
	odd_frame_completions(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(binding_generic)
{
	binding_reported(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(binding_native)
{
	binding_reported(XSKX_XDP_NATIVE);
}
END_TEST

START_TEST(busy_poll_generic)
{
	busy_poll(XSKX_XDP_GENERIC);
}
END_TEST

START_TEST(busy_poll_native)
{
	busy_poll(XSKX_XDP_NATIVE);
}
END_TEST

void add_option_cases(Suite *suite)
{
	veth_add_case(suite, "BINDING_REPORTED_generic", binding_generic);
	veth_add_case(suite, "BINDING_REPORTED_native", binding_native);
	veth_add_case(suite, "QUEUE_COUNTS_REPORTED_native",
		      queue_counts_reported);
	veth_add_case(suite, "BUSY_POLL_generic", busy_poll_generic);
	veth_add_case(suite, "BUSY_POLL_native", busy_poll_native);
	veth_add_case(suite, "ODD_FRAME_COMPLETIONS_generic",
		      odd_frame_completions_generic);
	veth_add_case(suite, "ODD_FRAME_COMPLETIONS_native",
		      odd_frame_completions_native);
}
