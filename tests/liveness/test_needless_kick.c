// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * No needless syscall (issue 4): with need_wakeup on, a warmed-up rxdrop or
 * l2fwd loop on the simulated NIC (deterministic mode) kicks only when a
 * need_wakeup flag asks. Each turn of the loop: a burst of packets arrives,
 * the NIC runs (its interrupt), the application receives (and forwards),
 * then receives once more and finds nothing — the idle burst that must not
 * kick while FILL's flag is clear.
 *
 * RX never needs a kick here: FILL never runs dry and RX never fills up,
 * so FILL's flag stays down and rx_kicks must not move at all.
 *
 * TX is another matter, and the test asserts what is true rather than
 * zero. L2FWD: the simulated NIC, driven by kicks and xskx_sim_poll(),
 * sends and completes a burst in one pass and then, finding TX empty,
 * raises TX's need_wakeup flag and sleeps (lib/sim/sim_tx.c, tx_linger).
 * So every forwarding burst finds the flag up and kicks once. Zero-copy
 * drivers in the kernel do the same: i40e sets the TX flag at the end of
 * every TX clean-up (i40e_clean_xdp_tx_irq), mlx5 whenever nothing it sent
 * is still in flight (mlx5e_xsk_update_tx_wakeup) — so an l2fwd whose NIC
 * completes a burst before the next one arrives issues one sendto per
 * burst on real hardware too. What the library must not do is kick
 * without the flag: the test counts the bursts that found it up and
 * requires exactly that many TX kicks, and a kicks_skipped for every other
 * burst.
 *
 * L2FWD_TX_BUSY: the NIC is still sending when each burst comes, so TX's
 * flag stays down and there must be no TX kick at all. Its hardware TX
 * ring holds half of a turn's packets: TX runs two passes a turn, one in
 * the NIC poll before the burst and one after, and starts one pass behind
 * (the first turn has no second pass), so that each pass takes a full
 * hardware ring and TX never finds itself idle.
 */
#include <string.h>

#include "helpers.h"
#include "packet.h"

#define NK_FRAMES 4096u
#define NK_ARRIVALS 16u /* packets per turn */
#define NK_BATCH 32u	/* most packets per burst */
#define NK_WARMUP_TURNS 500u
#define NK_TURNS 10000u
#define NK_BUSY_HW_TX_RING (NK_ARRIVALS / 2)

enum nk_case {
	NK_RXDROP,
	NK_L2FWD,
	NK_L2FWD_TX_BUSY,
};

struct nk_rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *in, *out;
	struct xskx_umem *umem;
	struct xskx_socket *rx, *tx; /* tx: NULL for rxdrop */
	enum nk_case what;
	uint32_t turns;
	uint64_t next_seq;
	uint64_t sink_packets;
	/* During the measured turns. */
	uint64_t tx_bursts, tx_flagged;
};

static void count_sink(enum xskx_sim_sink_kind kind, const uint8_t *data,
		       uint32_t len, uint32_t queue, void *ctx)
{
	struct nk_rig *rig = ctx;

	(void)data;
	(void)len;
	(void)queue;
	if (kind == XSKX_SIM_SINK_TX)
		rig->sink_packets++;
}

static void rig_create(struct nk_rig *rig, enum nk_case what)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, in_opts, .name = "in");
	XSKX_OPTS(xskx_sim_port_opts, out_opts, .name = "out");
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = NK_FRAMES,
		  .frame_size = 2048);
	XSKX_OPTS(xskx_socket_opts, rx_opts, .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, tx_opts, .flags = XSKX_SOCKET_NO_RX);

	memset(rig, 0, sizeof(*rig));
	rig->what = what;
	if (what == NK_L2FWD_TX_BUSY)
		out_opts.hw_tx_ring_size = NK_BUSY_HW_TX_RING;
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, &in_opts, &rig->in), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, &out_opts, &rig->out),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->out, count_sink, rig), 0);
	ck_assert_msg(!xskx_umem_create(&rig->umem, &umem_opts), "%s",
		      xskx_last_error());
	rx_opts.port = test_port(rig->in);
	ck_assert_msg(!xskx_socket_open(&rig->rx, rig->umem, &rx_opts), "%s",
		      xskx_last_error());
	if (what != NK_RXDROP) {
		tx_opts.port = test_port(rig->out);
		ck_assert_msg(!xskx_socket_open(&rig->tx, rig->umem, &tx_opts),
			      "%s", xskx_last_error());
	}
	/* Every socket is open: the first burst posts the share on FILL. */
	ck_assert_int_eq(xskx_rx_burst(rig->rx, NULL, 0), 0);
}

static void rig_destroy(struct nk_rig *rig)
{
	char why[384];

	ck_assert_int_eq(xskx_socket_close(rig->rx), 0);
	if (rig->tx)
		ck_assert_int_eq(xskx_socket_close(rig->tx), 0);
	ck_assert_msg(test_census_all_in_pool(rig->umem, why, sizeof(why)),
		      "after closing: %s", why);
	ck_assert_int_eq(xskx_umem_destroy(rig->umem), 0);
	ck_assert_int_eq(test_sim_destroy(rig->sim), 0);
}

static void arrive(struct nk_rig *rig)
{
	uint8_t buf[LV_MAX_LEN];

	for (uint32_t i = 0; i < NK_ARRIVALS; i++) {
		uint32_t len = lv_packet_build(buf, rig->next_seq++,
					       XSKX_XDP_REDIRECT);

		ck_assert_int_eq(xskx_sim_port_inject(rig->in, buf, len), 0);
	}
}

/* Send all of pkts, counting the bursts that found TX's flag up. */
static void forward(struct nk_rig *rig, const struct xskx_pkt *pkts, uint32_t n,
		    bool measured)
{
	struct xskx_rings rings;

	ck_assert_int_eq(xskx_socket_rings(rig->tx, &rings), 0);
	for (uint32_t turn = 0; n && turn < 16; turn++) {
		bool flagged = test_needs_wakeup(rings.tx);
		int sent = xskx_tx_burst(rig->tx, pkts, n);

		ck_assert_msg(sent >= 0, "xskx_tx_burst: %s",
			      xskx_strerror(sent));
		if (measured) {
			rig->tx_bursts++;
			rig->tx_flagged += flagged;
		}
		pkts += sent;
		n -= (uint32_t)sent;
	}
	ck_assert_msg(!n, "TX did not take %u packets", n);
}

static void turn(struct nk_rig *rig, bool measured)
{
	struct xskx_pkt pkts[NK_BATCH];
	int n;

	arrive(rig);
	ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
	n = xskx_rx_burst(rig->rx, pkts, NK_BATCH);
	ck_assert_msg(n == (int)NK_ARRIVALS,
		      "received %d of the %u packets that arrived", n,
		      NK_ARRIVALS);
	if (rig->tx)
		forward(rig, pkts, (uint32_t)n, measured);
	else
		xskx_rx_release(rig->rx, pkts, (uint32_t)n);
	if (rig->what == NK_L2FWD_TX_BUSY && rig->turns++)
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
	ck_assert_int_eq(xskx_rx_burst(rig->rx, pkts, NK_BATCH), 0);
}

static void stats_of(struct xskx_socket *s, struct xskx_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (s)
		ck_assert_int_eq(xskx_socket_stats(s, st), 0);
}

static void run_steady(enum nk_case what)
{
	struct xskx_stats rx0, rx1, tx0, tx1;
	struct xskx_sim_port_stats in;
	struct nk_rig rig;

	rig_create(&rig, what);
	for (uint32_t i = 0; i < NK_WARMUP_TURNS; i++)
		turn(&rig, false);
	stats_of(rig.rx, &rx0);
	stats_of(rig.tx, &tx0);
	for (uint32_t i = 0; i < NK_TURNS; i++)
		turn(&rig, true);
	stats_of(rig.rx, &rx1);
	stats_of(rig.tx, &tx1);

	ck_assert_int_eq(xskx_sim_port_stats(rig.in, &in), 0);
	ck_assert_msg(!in.rx_missed && !rx1.rx_ring_full,
		      "not a steady state: rx_missed %llu, rx_ring_full %llu",
		      (unsigned long long)in.rx_missed,
		      (unsigned long long)rx1.rx_ring_full);
	ck_assert_msg(
		rx1.rx_kicks == rx0.rx_kicks,
		"%llu RX kicks in %u steady turns (FILL's flag should stay down)",
		(unsigned long long)(rx1.rx_kicks - rx0.rx_kicks), NK_TURNS);
	/* Two bursts a turn, neither of which needed a kick. */
	ck_assert_uint_eq(rx1.kicks_skipped - rx0.kicks_skipped, 2 * NK_TURNS);
	if (what == NK_RXDROP) {
		rig_destroy(&rig);
		return;
	}
	ck_assert_msg(
		tx1.tx_kicks - tx0.tx_kicks == rig.tx_flagged,
		"%llu TX kicks for %llu bursts that found TX's flag up (of %llu)",
		(unsigned long long)(tx1.tx_kicks - tx0.tx_kicks),
		(unsigned long long)rig.tx_flagged,
		(unsigned long long)rig.tx_bursts);
	ck_assert_uint_eq(tx1.kicks_skipped - tx0.kicks_skipped,
			  rig.tx_bursts - rig.tx_flagged);
	/* See the top: idle after each pass, or never idle. */
	ck_assert_msg(rig.tx_flagged == (what == NK_L2FWD ? rig.tx_bursts : 0),
		      "%llu of %llu bursts found TX's flag up: expected %s",
		      (unsigned long long)rig.tx_flagged,
		      (unsigned long long)rig.tx_bursts,
		      what == NK_L2FWD ? "all (TX idle after each pass)" :
					 "none (TX still sending)");
	/* Everything forwarded left port out, but the pass TX is behind. */
	ck_assert_uint_eq(
		rig.sink_packets,
		(NK_WARMUP_TURNS + NK_TURNS) * NK_ARRIVALS -
			(what == NK_L2FWD_TX_BUSY ? NK_BUSY_HW_TX_RING : 0));
	rig_destroy(&rig);
}

START_TEST(rxdrop_steady)
{
	run_steady(NK_RXDROP);
}
END_TEST

START_TEST(l2fwd_steady)
{
	run_steady(NK_L2FWD);
}
END_TEST

START_TEST(l2fwd_tx_busy_steady)
{
	run_steady(NK_L2FWD_TX_BUSY);
}
END_TEST

static Suite *needless_kick_suite(void)
{
	Suite *s = suite_create("needless_kick");
	TCase *rxdrop = tcase_create("RXDROP");
	TCase *l2fwd = tcase_create("L2FWD");
	TCase *busy = tcase_create("L2FWD_TX_BUSY");

	tcase_add_test(rxdrop, rxdrop_steady);
	suite_add_tcase(s, rxdrop);
	tcase_add_test(l2fwd, l2fwd_steady);
	suite_add_tcase(s, l2fwd);
	tcase_add_test(busy, l2fwd_tx_busy_steady);
	suite_add_tcase(s, busy);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(needless_kick_suite(), argc, argv);
}
