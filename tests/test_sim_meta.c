// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP metadata on the simulated NIC, read with xskx_pkt_meta(): what the
 * port's hook puts in front of a packet (xskx_sim_xdp_buff.meta_len) is
 * there when the packet reaches the socket, in zero-copy and in copy mode,
 * in front of a chain's first fragment without taking room from its data;
 * lengths bpf_xdp_adjust_meta() refuses (not a multiple of 4, above 32)
 * abort the packet (docs/KERNEL_RULES.md, "XDP metadata"). Each case runs
 * twice: _i 0 zero-copy, 1 copy mode.
 */
#include <string.h>

#include "helpers.h"

#define FRAME_SIZE 2048u
/* Data room of a received fragment: the frame less XDP_PACKET_HEADROOM. */
#define RX_ROOM (FRAME_SIZE - 256u)
#define FRAME_COUNT 256u
#define BURST 16u

/* The metadata lengths the hook asks for, packet by packet. */
struct stamp {
	const uint32_t *meta_lens;
	uint32_t seen;
};

/* Fill the metadata of the n-th packet with the byte n + 1. */
static enum xskx_xdp_verdict stamp_meta(struct xskx_sim_xdp_buff *xdp,
					void *ctx)
{
	struct stamp *st = ctx;
	uint32_t want = st->meta_lens[st->seen];

	if (want <= XSKX_XDP_META_MAX)
		memset(xdp->data - want, (int)(st->seen + 1), want);
	xdp->meta_len = want;
	st->seen++;
	return XSKX_XDP_REDIRECT;
}

static void inject(struct test_rig *rig, uint32_t len)
{
	static uint8_t frame[5000] = { 0x02, 0, 0, 0, 0,    0x0b, 0x02,
				       0,    0, 0, 0, 0x0a, 0x88, 0xb5 };

	ck_assert_uint_le(len, sizeof(frame));
	ck_assert_int_eq(xskx_sim_port_inject(rig->port, frame, len), 0);
}

static int receive(struct test_rig *rig, struct xskx_pkt *pkts)
{
	int n;

	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
	n = xskx_rx_burst(rig->sock, pkts, BURST);
	ck_assert_int_ge(n, 0);
	return n;
}

static void assert_meta(const struct xskx_pkt *pkt, uint32_t len, uint8_t byte)
{
	const uint8_t *meta = xskx_pkt_meta(pkt, len);

	ck_assert_ptr_eq(meta, pkt->data - len);
	for (uint32_t i = 0; i < len; i++)
		ck_assert_msg(meta[i] == byte,
			      "metadata byte %u of %u is %#x, expected %#x", i,
			      len, meta[i], byte);
}

/*
 * 4, 32 and 8 bytes arrive as the hook wrote them; 6 (not a multiple of
 * 4) and 36 (above 32) abort their packets, counted as drops.
 */
START_TEST(metadata_arrives_in_front_of_the_data)
{
	static const uint32_t meta_lens[] = { 4, 32, 6, 36, 8, 0 };
	struct stamp st = { .meta_lens = meta_lens };
	struct xskx_sim_port_stats ps;
	struct xskx_pkt pkts[BURST];
	struct test_rig rig;
	int n;

	test_rig_open_xdp_rx(&rig, _i, FRAME_COUNT, stamp_meta, &st);
	for (int i = 0; i < 6; i++)
		inject(&rig, 64);
	n = receive(&rig, pkts);
	ck_assert_uint_eq(st.seen, 6);
	ck_assert_int_eq(n, 4);
	assert_meta(&pkts[0], 4, 1);
	assert_meta(&pkts[1], 32, 2);
	assert_meta(&pkts[2], 8, 5);
	for (int i = 0; i < n; i++)
		ck_assert_uint_eq(pkts[i].len, 64);
	ck_assert_int_eq(xskx_rx_release(rig.sock, pkts, (uint32_t)n), 0);
	ck_assert_int_eq(xskx_sim_port_stats(rig.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_redirect, 4);
	ck_assert_uint_eq(ps.xdp_drop, 2);
	test_rig_destroy(&rig);
}
END_TEST

/* 5000 bytes as 1792 + 1792 + 1416, the metadata in front of the first. */
START_TEST(metadata_goes_in_front_of_a_chains_first_fragment)
{
	static const uint32_t meta_lens[] = { 12 };
	struct stamp st = { .meta_lens = meta_lens };
	struct xskx_pkt pkts[BURST];
	uint32_t len = 0;
	struct test_rig rig;
	int n;

	test_rig_open_xdp_rx(&rig, _i, FRAME_COUNT, stamp_meta, &st);
	inject(&rig, 5000);
	n = receive(&rig, pkts);
	ck_assert_int_eq(n, 3);
	ck_assert_uint_eq(xskx_pkt_frags(pkts, 3, &len), 3);
	ck_assert_uint_eq(len, 5000);
	ck_assert_uint_eq(pkts[0].len, RX_ROOM);
	assert_meta(&pkts[0], 12, 1);
	ck_assert_int_eq(xskx_rx_release(rig.sock, pkts, (uint32_t)n), 0);
	test_rig_destroy(&rig);
}
END_TEST

/* No data (a TX view) or more than the kernel allows: NULL. */
START_TEST(pkt_meta_refuses_what_cannot_be_metadata)
{
	uint8_t frame[XSKX_XDP_META_MAX + 64];
	struct xskx_pkt rx = { .len = 64, .data = frame + XSKX_XDP_META_MAX };
	struct xskx_pkt tx = { .addr = 4096, .len = 64 };

	ck_assert_ptr_eq(xskx_pkt_meta(&rx, XSKX_XDP_META_MAX), frame);
	ck_assert_ptr_eq(xskx_pkt_meta(&rx, 0), rx.data);
	ck_assert_ptr_null(xskx_pkt_meta(&rx, XSKX_XDP_META_MAX + 1));
	ck_assert_ptr_null(xskx_pkt_meta(&tx, 4));
}
END_TEST

static Suite *meta_suite(void)
{
	Suite *s = suite_create("sim_meta");
	TCase *tc = tcase_create("meta");

	tcase_add_loop_test(tc, metadata_arrives_in_front_of_the_data, 0, 2);
	tcase_add_loop_test(
		tc, metadata_goes_in_front_of_a_chains_first_fragment, 0, 2);
	tcase_add_test(tc, pkt_meta_refuses_what_cannot_be_metadata);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(meta_suite(), argc, argv);
}
