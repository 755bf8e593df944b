// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel features of issue 10 that a socket uses on its own: the
 * copy-mode TX budget (XDP_MAX_TX_SKB_BUDGET, kernel 6.17+). One raw
 * sendto() must send the whole TX ring where the kernel has the option, 32
 * descriptors where it has not, and 32 on a port with
 * XSKX_PORT_KERNEL_TX_BUDGET.
 */
#include <stdlib.h>
#include <sys/socket.h>
#include <xdp/xsk.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

#define TX_RING 256u
#define PKT_LEN 64u
/* TX_BATCH_SIZE (net/xdp/xsk.c): the kernel's default budget. */
#define DEFAULT_BUDGET 32u

/*
 * Fill TX with TX_RING descriptors of frames the application holds, then
 * make one sendto(): returns how many descriptors the kernel took. Gives
 * every frame back before it returns.
 */
static uint32_t sent_by_one_sendto(uint32_t port_flags)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = TX_RING);
	XSKX_OPTS(xskx_port_opts, po, .flags = port_flags);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_RX,
		  .tx_size = TX_RING);
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	uint64_t frames[TX_RING];
	struct xskx_socket *sock;
	struct xskx_umem *umem;
	struct xskx_rings rings;
	uint32_t idx, before, taken, done = 0;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(!xskx_port_open(&so.port, PEER_VETH_A, &po), "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), 0);
	ck_assert_msg(xskx_socket_open(&sock, umem, &so) == 0, "%s",
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	ck_assert_uint_eq(xskx_frame_alloc(umem, frames, TX_RING), TX_RING);
	ck_assert_uint_eq(xsk_ring_prod__reserve(rings.tx, TX_RING, &idx),
			  TX_RING);
	for (uint32_t i = 0; i < TX_RING; i++) {
		struct xdp_desc *d = xsk_ring_prod__tx_desc(rings.tx, idx + i);

		d->addr = xskx_umem_tx_addr(umem, frames[i]);
		d->len = PKT_LEN;
		d->options = 0;
	}
	xsk_ring_prod__submit(rings.tx, TX_RING);
	/* EAGAIN is the kernel's "budget spent, more left". */
	before = __atomic_load_n(rings.tx->consumer, __ATOMIC_ACQUIRE);
	sendto(xskx_socket_fd(sock), NULL, 0, MSG_DONTWAIT, NULL, 0);
	taken = __atomic_load_n(rings.tx->consumer, __ATOMIC_ACQUIRE) - before;

	/* The rest goes too, and every frame comes back to be freed. */
	for (int round = 0; done < TX_RING && round < 10000; round++) {
		uint64_t addrs[TX_RING];
		uint32_t n;

		sendto(xskx_socket_fd(sock), NULL, 0, MSG_DONTWAIT, NULL, 0);
		n = xsk_ring_cons__peek(rings.comp, TX_RING, &idx);
		for (uint32_t i = 0; i < n; i++)
			addrs[i] =
				*xsk_ring_cons__comp_addr(rings.comp, idx + i);
		xsk_ring_cons__release(rings.comp, n);
		ck_assert_int_eq(xskx_frame_free(umem, addrs, n), 0);
		done += n;
	}
	ck_assert_uint_eq(done, TX_RING);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(so.port), 0);
	veth_pair_delete(PEER_VETH_A);
	return taken;
}

START_TEST(tx_budget)
{
	ck_assert_uint_eq(sent_by_one_sendto(0), test_kernel_at_least(6, 17) ?
							 TX_RING :
							 DEFAULT_BUDGET);
	ck_assert_uint_eq(sent_by_one_sendto(XSKX_PORT_KERNEL_TX_BUDGET),
			  DEFAULT_BUDGET);
}
END_TEST

void add_kernel_feature_cases(Suite *suite)
{
	veth_add_case(suite, "TX_BUDGET", tx_budget);
}
