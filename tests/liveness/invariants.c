// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The invariants, derived from what the simulated NIC counts (xskx-sim/sim.h,
 * lib/sim/sim_napi.c, sim_rx_driver.c, sim_tx.c):
 *
 * - Port in counts every arrival in rx_packets, or in rx_missed when no
 *   hardware buffer (copy mode: no driver buffer) took it.
 * - The NAPI poll (copy mode: the arrival itself) hands each packet to the
 *   XDP hook once, and counts the verdict: xdp_redirect (on the RX ring),
 *   xdp_pass, xdp_drop, xdp_tx, or xdp_redirect_err when the redirect
 *   failed. A failed redirect also counts in the socket's rx_ring_full (no
 *   RX slot) or rx_dropped (copy mode: no FILL frame). Under the STOP policy
 *   (zero-copy with need_wakeup) a full RX ring does not drop: the poll
 *   stops (napi_stops) and retries the packet later, still counting
 *   xdp_redirect_err and rx_ring_full once per stop; otherwise each
 *   rx_ring_full is a packet dropped (wasted_polls in zero-copy).
 * - So the packets the poll has finished with are xdp_redirect + xdp_pass
 *   + xdp_drop + xdp_tx + xdp_redirect_err - napi_stops, and the rest of
 *   rx_packets waits in the hardware ring (never in copy mode).
 * - Zero-copy TX completes every frame in the pass that takes it, so the
 *   frames a socket was given are completed, on TX, or on COMPLETION.
 */
#include <string.h>

#include "helpers.h"
#include "invariants.h"

static bool stop_policy_applies(const struct lv_world *w)
{
	return w->cfg.policy == XSKX_SIM_RX_FULL_STOP && w->zero_copy &&
	       w->cfg.need_wakeup;
}

static void snapshot(struct lv_world *w, struct lv_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	LV_CHECK(w, !xskx_sim_port_stats(w->in, &s->in), "port stats");
	LV_CHECK(w, !xskx_sim_port_stats(w->out, &s->out), "port stats");
	if (w->rx)
		LV_CHECK(w, !xskx_socket_stats(w->rx, &s->rx),
			 "xskx_socket_stats: %s", xskx_last_error());
	for (uint32_t i = 0; i < w->nsocks; i++) {
		struct xskx_stats st;

		LV_CHECK(w, !xskx_socket_stats(w->socks[i], &st),
			 "xskx_socket_stats: %s", xskx_last_error());
		s->tx_packets += st.tx_packets;
		s->tx_completed += st.tx_completed;
		s->tx_invalid += st.tx_invalid_descs;
		s->rx_invalid += st.rx_invalid_descs;
		s->bad_completions += st.tx_bad_completions;
	}
	LV_CHECK(w, !xskx_umem_census(w->umem, &s->census), "xskx_umem_census");
}

static void check_census(struct lv_world *w, const struct lv_snapshot *s)
{
	char why[384];

	LV_CHECK(w, s->census.nic_counted,
		 "the simulated NIC did not count the frames it holds");
	LV_CHECK(w, test_census_ok(w->umem, w->nheld, why, sizeof(why)),
		 "frame census: %s", why);
}

/* Every packet that arrived at port in is somewhere, or a counted drop. */
static void check_rx_accounting(struct lv_world *w, struct lv_snapshot *s)
{
	const struct xskx_sim_port_stats *in = &s->in;
	uint64_t stops = in->napi_stops, finished;

	LV_CHECK(w, w->injected == in->rx_missed + in->rx_packets,
		 "injected %llu != rx_missed %llu + rx_packets %llu",
		 (unsigned long long)w->injected,
		 (unsigned long long)in->rx_missed,
		 (unsigned long long)in->rx_packets);
	LV_CHECK(
		w, s->rx.rx_packets == w->received,
		"the library counts %llu packets received, the application got %llu",
		(unsigned long long)s->rx.rx_packets,
		(unsigned long long)w->received);
	LV_CHECK(w, in->xdp_redirect == w->received + s->census.rx,
		 "xdp_redirect %llu != received %llu + on the RX ring %u",
		 (unsigned long long)in->xdp_redirect,
		 (unsigned long long)w->received, s->census.rx);
	LV_CHECK(w,
		 in->xdp_redirect_err == s->rx.rx_ring_full + s->rx.rx_dropped,
		 "xdp_redirect_err %llu != rx_ring_full %llu + rx_dropped %llu",
		 (unsigned long long)in->xdp_redirect_err,
		 (unsigned long long)s->rx.rx_ring_full,
		 (unsigned long long)s->rx.rx_dropped);
	if (stop_policy_applies(w)) {
		LV_CHECK(
			w, stops == s->rx.rx_ring_full && !in->wasted_polls,
			"STOP policy: napi_stops %llu, rx_ring_full %llu, wasted_polls %llu (a full RX ring must stop the poll, never drop)",
			(unsigned long long)stops,
			(unsigned long long)s->rx.rx_ring_full,
			(unsigned long long)in->wasted_polls);
	} else {
		/* Copy mode drops on arrival, with no poll to waste. */
		uint64_t wasted = w->zero_copy ? s->rx.rx_ring_full : 0;

		LV_CHECK(
			w, !stops && in->wasted_polls == wasted,
			"drop policy: napi_stops %llu, wasted_polls %llu, rx_ring_full %llu (each full RX ring is one packet dropped)",
			(unsigned long long)stops,
			(unsigned long long)in->wasted_polls,
			(unsigned long long)s->rx.rx_ring_full);
	}

	finished = in->xdp_redirect + in->xdp_pass + in->xdp_drop + in->xdp_tx +
		   in->xdp_redirect_err - stops;
	LV_CHECK(w, finished <= in->rx_packets,
		 "the poll handled %llu packets of %llu received",
		 (unsigned long long)finished,
		 (unsigned long long)in->rx_packets);
	s->in_hw = in->rx_packets - finished;
	LV_CHECK(w, w->zero_copy || !s->in_hw,
		 "copy mode left %llu packets unhandled",
		 (unsigned long long)s->in_hw);
	LV_CHECK(
		w, s->in_hw <= s->census.nic,
		"%llu packets wait in the hardware ring, which holds only %u frames",
		(unsigned long long)s->in_hw, s->census.nic);
}

/* Every frame given to TX is sent and completed, or still on its way. */
static void check_tx_accounting(struct lv_world *w, const struct lv_snapshot *s)
{
	const struct xskx_sim_port_stats *in = &s->in, *out = &s->out;
	uint64_t sent = in->tx_packets - in->xdp_tx + out->tx_packets;

	LV_CHECK(
		w, s->tx_packets == w->accepted,
		"the library counts %llu packets sent, xskx_tx_burst accepted %llu",
		(unsigned long long)s->tx_packets,
		(unsigned long long)w->accepted);
	LV_CHECK(
		w,
		s->tx_packets ==
			s->tx_completed + s->census.tx + s->census.comp,
		"tx_packets %llu != completed %llu + on TX %u + on COMPLETION %u",
		(unsigned long long)s->tx_packets,
		(unsigned long long)s->tx_completed, s->census.tx,
		s->census.comp);
	LV_CHECK(
		w, sent == s->tx_completed + s->census.comp,
		"the ports sent %llu packets from sockets, but %llu were completed (%llu reclaimed + %u on COMPLETION)",
		(unsigned long long)sent,
		(unsigned long long)(s->tx_completed + s->census.comp),
		(unsigned long long)s->tx_completed, s->census.comp);
	LV_CHECK(
		w, !s->tx_invalid && !s->rx_invalid && !s->bad_completions,
		"tx_invalid_descs %llu, rx_invalid_descs %llu, tx_bad_completions %llu: the library put a bad address on a ring",
		(unsigned long long)s->tx_invalid,
		(unsigned long long)s->rx_invalid,
		(unsigned long long)s->bad_completions);
}

static void check_sink(struct lv_world *w, const char *port,
		       const struct lv_sink *sink,
		       const struct xskx_sim_port_stats *st)
{
	LV_CHECK(
		w, sink->tx == st->tx_packets && sink->stack == st->xdp_pass,
		"port %s: its sink saw %llu sent and %llu passed packets, the port counts %llu and %llu",
		port, (unsigned long long)sink->tx,
		(unsigned long long)sink->stack,
		(unsigned long long)st->tx_packets,
		(unsigned long long)st->xdp_pass);
	LV_CHECK(
		w, !sink->disorder && !sink->malformed,
		"port %s sent %llu packets out of order and %llu with a wrong length",
		port, (unsigned long long)sink->disorder,
		(unsigned long long)sink->malformed);
	LV_CHECK(w, !st->wire_drops, "port %s: %llu wire drops without a wire",
		 port, (unsigned long long)st->wire_drops);
}

void lv_check_step(struct lv_world *w, struct lv_snapshot *s)
{
	LV_CHECK(w, !test_log_count(), "the library logged: %s",
		 test_log_last());
	snapshot(w, s);
	check_census(w, s);
	check_rx_accounting(w, s);
	check_tx_accounting(w, s);
	check_sink(w, "in", &w->sink_in, &s->in);
	check_sink(w, "out", &w->sink_out, &s->out);
}

bool lv_drained(const struct lv_world *w, const struct lv_snapshot *s)
{
	return !w->nheld && !s->in_hw && !s->census.rx && !s->census.tx &&
	       !s->census.comp && s->tx_packets == s->tx_completed;
}

void lv_check_totals(struct lv_world *w, const struct lv_snapshot *s)
{
	const struct xskx_sim_port_stats *in = &s->in;
	uint64_t dropped = in->rx_missed + in->xdp_redirect_err -
			   in->napi_stops + in->xdp_drop;

	LV_CHECK(
		w,
		w->injected ==
			w->received + in->xdp_pass + in->xdp_tx + dropped,
		"injected %llu != received %llu + passed %llu + XDP_TX %llu + dropped %llu",
		(unsigned long long)w->injected,
		(unsigned long long)w->received,
		(unsigned long long)in->xdp_pass,
		(unsigned long long)in->xdp_tx, (unsigned long long)dropped);
	/* Forwarders send or let go of every packet they receive. */
	if (w->rx && w->tx)
		LV_CHECK(w, w->received == w->accepted + w->let_go,
			 "received %llu != forwarded %llu + let go %llu",
			 (unsigned long long)w->received,
			 (unsigned long long)w->accepted,
			 (unsigned long long)w->let_go);
	if (w->cfg.shape == LV_TXONLY)
		LV_CHECK(w, w->built == w->accepted + w->let_go,
			 "built %llu != sent %llu + let go %llu",
			 (unsigned long long)w->built,
			 (unsigned long long)w->accepted,
			 (unsigned long long)w->let_go);
	LV_CHECK(w, s->tx_completed == w->accepted,
		 "%llu packets sent, %llu completed",
		 (unsigned long long)w->accepted,
		 (unsigned long long)s->tx_completed);
}
