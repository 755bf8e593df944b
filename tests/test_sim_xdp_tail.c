// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_sim_xdp_adjust_tail(), the simulated NIC's bpf_xdp_adjust_tail(),
 * by the kernel's rules (docs/KERNEL_RULES.md, "Multi-buffer"): a chain
 * shrinks from its tail, whole fragments first, its first buffer only once
 * no fragment is left, never below an Ethernet header; it grows in its
 * last fragment, to the end of that fragment's frame; grown bytes are
 * zero; a refused call leaves the packet as it was. A hook that writes a
 * chain's length itself aborts the packet. Frames of fragments a shrink
 * freed go back to the NIC, so that none is lost.
 */
#include <errno.h>
#include <string.h>

#include "helpers.h"

#define FRAME_SIZE 2048u
/* Data room of a received fragment: the frame less XDP_PACKET_HEADROOM. */
#define RX_ROOM (FRAME_SIZE - 256u)
/* 1792 + 1792 + 416 bytes in zero-copy. */
#define CHAIN_LEN 4000u
#define LAST_FRAG (CHAIN_LEN - 2u * RX_ROOM)
#define FRAME_COUNT 256u
#define BURST 16u

/* What the hook does to each packet, and what the helper answered. */
struct resize {
	int offset;
	bool write_len; /* set len itself instead: the hook's own mistake */
	int second;	/* a second call after the first (0: none) */
	int ret, ret2;
	uint32_t tailroom;	       /* xdp->tailroom after the calls */
	enum xskx_xdp_verdict verdict; /* 0: XSKX_XDP_REDIRECT */
	uint32_t calls;
};

static enum xskx_xdp_verdict resize_hook(struct xskx_sim_xdp_buff *xdp,
					 void *ctx)
{
	struct resize *rs = ctx;

	rs->calls++;
	if (rs->write_len) {
		xdp->len -= 10;
		return XSKX_XDP_REDIRECT;
	}
	rs->ret = xskx_sim_xdp_adjust_tail(xdp, rs->offset);
	if (rs->second)
		rs->ret2 = xskx_sim_xdp_adjust_tail(xdp, rs->second);
	rs->tailroom = xdp->tailroom;
	return rs->verdict ? rs->verdict : XSKX_XDP_REDIRECT;
}

/* The rig of the tests (helpers.h), the hook's record beside it. */
struct nic {
	struct test_rig rig;
	struct resize rs;
};

static void nic_create(struct nic *nic, bool copy_mode)
{
	struct xskx_rings rings;

	memset(&nic->rs, 0, sizeof(nic->rs));
	test_rig_open_xdp_rx(&nic->rig, copy_mode, FRAME_COUNT, resize_hook,
			     &nic->rs);
	/*
	 * Frames that held something before, as a running program's do: the
	 * bytes a grow adds must be zeroed by it, not found zero in a fresh
	 * UMEM. (FILL holds them already; the NIC writes none before a poll.)
	 */
	ck_assert_int_eq(xskx_socket_rings(nic->rig.sock, &rings), 0);
	memset(rings.area, 0xa5, (size_t)xskx_umem_size(nic->rig.umem));
}

/* Byte i of every packet: i's low byte, after an Ethernet header. */
static uint8_t sent_byte(uint32_t i)
{
	static const uint8_t eth[14] = { 0x02, 0, 0, 0,	   0,	 0x0b, 0x02,
					 0,    0, 0, 0x0a, 0x88, 0xb5 };

	return i < sizeof(eth) ? eth[i] : (uint8_t)i;
}

static void inject(struct nic *nic, uint32_t len)
{
	static uint8_t frame[CHAIN_LEN];

	ck_assert_uint_le(len, sizeof(frame));
	for (uint32_t i = 0; i < len; i++)
		frame[i] = sent_byte(i);
	ck_assert_int_eq(xskx_sim_port_inject(nic->rig.port, frame, len), 0);
}

/*
 * One packet through the hook: its fragments' lengths in lens (0 after the
 * last), each byte as sent up to sent_len and zero after it.
 */
static void expect_packet(struct nic *nic, uint32_t len, uint32_t sent_len,
			  const uint32_t *lens)
{
	struct xskx_pkt pkts[BURST];
	uint32_t at = 0, total = 0;
	int n;

	inject(nic, len);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic->rig.sim), 0);
	n = xskx_rx_burst(nic->rig.sock, pkts, BURST);
	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq(xskx_pkt_frags(pkts, (uint32_t)n, &total),
			  (uint32_t)n);
	for (int f = 0; f < n; f++)
		ck_assert_msg(lens[f], "fragment %d of %d: expected none", f,
			      n);
	for (int f = 0; f < n; f++) {
		uint32_t i = 0;

		ck_assert_msg(pkts[f].len == lens[f],
			      "fragment %d: %u bytes, expected %u", f,
			      pkts[f].len, lens[f]);
		while (i < pkts[f].len &&
		       pkts[f].data[i] == (at < sent_len ? sent_byte(at) : 0))
			i++, at++;
		ck_assert_msg(i == pkts[f].len, "byte %u is %#x", at,
			      pkts[f].data[i]);
	}
	ck_assert_uint_eq(lens[n], 0);
	ck_assert_int_eq(xskx_rx_release(nic->rig.sock, pkts, (uint32_t)n), 0);
}

static void set_resize(struct nic *nic, int offset, int second)
{
	nic->rs.offset = offset;
	nic->rs.second = second;
	nic->rs.ret = nic->rs.ret2 = 1;
}

START_TEST(chain_shrinks_from_its_tail)
{
	static const uint32_t cut[] = { RX_ROOM, RX_ROOM, LAST_FRAG - 100, 0 },
			      last_gone[] = { RX_ROOM, RX_ROOM, 0 },
			      into_second[] = { RX_ROOM, RX_ROOM - 584, 0 },
			      to_eth[] = { 14, 0 },
			      whole[] = { RX_ROOM, RX_ROOM, LAST_FRAG, 0 };
	struct nic nic;

	nic_create(&nic, false);
	set_resize(&nic, -100, 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN - 100, cut);
	ck_assert_int_eq(nic.rs.ret, 0);
	set_resize(&nic, -(int)LAST_FRAG, 0);
	expect_packet(&nic, CHAIN_LEN, 2 * RX_ROOM, last_gone);
	ck_assert_int_eq(nic.rs.ret, 0);
	set_resize(&nic, -1000, 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN - 1000, into_second);
	ck_assert_int_eq(nic.rs.ret, 0);
	/* Every fragment gone, then the first buffer cut to 14 bytes. */
	set_resize(&nic, -(int)(CHAIN_LEN - 14), 0);
	expect_packet(&nic, CHAIN_LEN, 14, to_eth);
	ck_assert_int_eq(nic.rs.ret, 0);
	/* One byte more is refused, the packet left whole. */
	set_resize(&nic, -(int)(CHAIN_LEN - 13), 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN, whole);
	ck_assert_int_eq(nic.rs.ret, -EINVAL);
	test_rig_destroy(&nic.rig);
}
END_TEST

START_TEST(chain_grows_in_its_last_fragment)
{
	static const uint32_t full[] = { RX_ROOM, RX_ROOM, RX_ROOM, 0 },
			      whole[] = { RX_ROOM, RX_ROOM, LAST_FRAG, 0 },
			      linear[] = { 1100, 0 };
	struct nic nic;

	nic_create(&nic, false);
	set_resize(&nic, (int)(RX_ROOM - LAST_FRAG), 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN, full);
	ck_assert_int_eq(nic.rs.ret, 0);
	set_resize(&nic, (int)(RX_ROOM - LAST_FRAG) + 1, 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN, whole);
	ck_assert_int_eq(nic.rs.ret, -EINVAL);
	/* Shrunk to 1000 bytes in its first buffer, it grows there. */
	set_resize(&nic, -3000, 100);
	expect_packet(&nic, CHAIN_LEN, 1000, linear);
	ck_assert_int_eq(nic.rs.ret, 0);
	ck_assert_int_eq(nic.rs.ret2, 0);
	test_rig_destroy(&nic.rig);
}
END_TEST

/* A single buffer ends anywhere from 14 bytes to its frame's end. */
START_TEST(single_buffer_ends_between_eth_and_frame_end)
{
	static const uint32_t to_end[] = { RX_ROOM, 0 }, same[] = { 100, 0 },
			      eth[] = { 14, 0 };
	struct nic nic;

	nic_create(&nic, false);
	set_resize(&nic, (int)RX_ROOM - 100, 0);
	expect_packet(&nic, 100, 100, to_end);
	ck_assert_int_eq(nic.rs.ret, 0);
	ck_assert_uint_eq(nic.rs.tailroom, 0);
	set_resize(&nic, (int)RX_ROOM - 99, 0);
	expect_packet(&nic, 100, 100, same);
	ck_assert_int_eq(nic.rs.ret, -EINVAL);
	set_resize(&nic, -86, 0);
	expect_packet(&nic, 100, 14, eth);
	ck_assert_int_eq(nic.rs.ret, 0);
	ck_assert_uint_eq(nic.rs.tailroom, RX_ROOM - 14);
	set_resize(&nic, -87, 0);
	expect_packet(&nic, 100, 100, same);
	ck_assert_int_eq(nic.rs.ret, -EINVAL);
	test_rig_destroy(&nic.rig);
}
END_TEST

/*
 * Copy mode: the driver's buffer holds the packet in one piece, which
 * shrinks as a single buffer does, then is copied into frames.
 */
START_TEST(copy_mode_packet_is_one_buffer)
{
	static const uint32_t eth[] = { 14, 0 },
			      whole[] = { RX_ROOM, RX_ROOM, LAST_FRAG, 0 };
	struct nic nic;

	nic_create(&nic, true);
	set_resize(&nic, -(int)(CHAIN_LEN - 14), 0);
	expect_packet(&nic, CHAIN_LEN, 14, eth);
	ck_assert_int_eq(nic.rs.ret, 0);
	set_resize(&nic, 16, 0);
	expect_packet(&nic, CHAIN_LEN - 16, CHAIN_LEN - 16, whole);
	ck_assert_int_eq(nic.rs.ret, 0);
	test_rig_destroy(&nic.rig);
}
END_TEST

/* A hook may not set a chain's length itself: the packet is aborted. */
START_TEST(chain_len_written_by_the_hook_aborts)
{
	static const uint32_t whole[] = { RX_ROOM, RX_ROOM, LAST_FRAG, 0 };
	struct xskx_sim_port_stats ps;
	struct xskx_pkt pkts[BURST];
	struct nic nic;

	nic_create(&nic, false);
	nic.rs.write_len = true;
	inject(&nic, CHAIN_LEN);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.rig.sim), 0);
	ck_assert_int_eq(xskx_rx_burst(nic.rig.sock, pkts, BURST), 0);
	ck_assert_int_eq(xskx_sim_port_stats(nic.rig.port, &ps), 0);
	ck_assert_uint_eq(ps.xdp_drop, 1);
	nic.rs.write_len = false;
	set_resize(&nic, 0, 0);
	expect_packet(&nic, CHAIN_LEN, CHAIN_LEN, whole);
	test_rig_destroy(&nic.rig);
}
END_TEST

/* The stack gets the packet as the hook left it. */
static void count_stack(enum xskx_sim_sink_kind kind, const uint8_t *data,
			uint32_t len, uint32_t queue, void *ctx)
{
	uint32_t *bytes = ctx;

	(void)data;
	(void)queue;
	if (kind == XSKX_SIM_SINK_STACK)
		*bytes += len;
}

START_TEST(passed_chain_goes_to_the_stack_resized)
{
	uint32_t bytes = 0;
	struct nic nic;

	nic_create(&nic, false);
	ck_assert_int_eq(
		xskx_sim_port_set_sink(nic.rig.port, count_stack, &bytes), 0);
	set_resize(&nic, -(int)LAST_FRAG - 100, 0);
	nic.rs.verdict = XSKX_XDP_PASS;
	inject(&nic, CHAIN_LEN);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(xskx_sim_poll(nic.rig.sim), 0);
	ck_assert_int_eq(nic.rs.ret, 0);
	ck_assert_uint_eq(bytes, CHAIN_LEN - LAST_FRAG - 100);
	test_rig_destroy(&nic.rig);
}
END_TEST

/*
 * The frames of the fragments a shrink frees go back to the NIC: as many
 * packets as the UMEM has frames, each taking three and delivering one,
 * all arrive (losing two frames a packet, the NIC would run dry halfway).
 */
START_TEST(freed_fragments_frames_come_back)
{
	static const uint32_t first[] = { 1000, 0 };
	struct nic nic;

	nic_create(&nic, false);
	for (uint32_t i = 0; i < FRAME_COUNT; i++) {
		set_resize(&nic, -3000, 0);
		expect_packet(&nic, CHAIN_LEN, 1000, first);
		ck_assert_int_eq(nic.rs.ret, 0);
	}
	test_rig_destroy(&nic.rig);
}
END_TEST

static Suite *xdp_tail_suite(void)
{
	Suite *s = suite_create("sim_xdp_tail");
	TCase *tc = tcase_create("adjust_tail");

	tcase_add_test(tc, chain_shrinks_from_its_tail);
	tcase_add_test(tc, chain_grows_in_its_last_fragment);
	tcase_add_test(tc, single_buffer_ends_between_eth_and_frame_end);
	tcase_add_test(tc, copy_mode_packet_is_one_buffer);
	tcase_add_test(tc, chain_len_written_by_the_hook_aborts);
	tcase_add_test(tc, passed_chain_goes_to_the_stack_resized);
	tcase_add_test(tc, freed_fragments_frames_come_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(xdp_tail_suite(), argc, argv);
}
