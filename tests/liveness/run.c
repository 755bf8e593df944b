// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The application's moves and the two phases of a run.
 *
 * Random phase: every step is one call — a burst, a release, a reclaim, a
 * poll of the socket, xskx_sim_poll() (the NIC's own work, as its
 * interrupts would run it), packets arriving, TX stalled or not, the links
 * down or up, the application starting or stopping to hold on to every
 * frame it gets — picked with the seed's weights. The invariants are
 * checked after each.
 *
 * Drain phase: the faults go away and the application does what any
 * application does forever: xskx_sim_poll(), xskx_rx_burst() and give the
 * frames back (or forward them), xskx_tx_burst() of whatever it has to
 * send (nothing, too: that reclaims and kicks when TX asks). Within a
 * bounded number of such steps every packet waiting in the NIC or on a
 * ring must reach the application or a counted drop, and every TX
 * descriptor must complete. A lost wakeup — the NIC asleep with work to
 * do and no flag asking for a kick — shows up here as a drain that never
 * ends.
 *
 * Probe: then one more packet must go through (see probe()), which a NIC
 * left asleep with no buffer posted would miss.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "helpers.h"
#include "invariants.h"
#include "packet.h"
#include "run.h"

static enum xskx_xdp_verdict draw_verdict(struct lv_world *w)
{
	const struct lv_config *c = &w->cfg;
	uint32_t r = lv_range(&w->rng, 1, 100);

	if (r <= c->pct_drop)
		return r & 1 ? XSKX_XDP_DROP : XSKX_XDP_ABORTED;
	r -= c->pct_drop;
	if (r <= c->pct_pass)
		return XSKX_XDP_PASS;
	r -= c->pct_pass;
	if (r <= c->pct_tx)
		return XSKX_XDP_TX;
	return XSKX_XDP_REDIRECT;
}

static void inject(struct lv_world *w)
{
	uint32_t most = 2 * w->cfg.batch;
	uint8_t buf[LV_MAX_LEN];
	uint32_t n;

	/* Nothing arrives on a down link (inject says -ENETDOWN). */
	if (w->link_down)
		return;
	/* Beyond twice the hardware ring, every packet would be missed. */
	if (most > 2 * w->cfg.hw_ring)
		most = 2 * w->cfg.hw_ring;
	n = lv_range(&w->rng, 1, most);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t len =
			lv_packet_build(buf, w->next_seq++, draw_verdict(w));
		int err = xskx_sim_port_inject(w->in, buf, len);

		/* A miss (no hardware buffer) is part of the game. */
		LV_CHECK(w, !err || err == -ENOBUFS, "xskx_sim_port_inject: %s",
			 xskx_strerror(err));
		w->injected++;
	}
}

static void nic_poll(struct lv_world *w)
{
	int moved = xskx_sim_poll(w->sim);

	LV_CHECK(w, moved >= 0, "xskx_sim_poll: %s", xskx_strerror(moved));
}

/* A received packet is a whole one, the next in order, and meant for us. */
static void check_received(struct lv_world *w, const struct xskx_pkt *p)
{
	const uint8_t *area = xskx_umem_area(w->umem);
	uint64_t seq;

	LV_CHECK(w,
		 p->data >= area &&
			 p->data + p->len <= area + xskx_umem_size(w->umem),
		 "a received packet's data lies outside the UMEM");
	LV_CHECK(w, p->len >= LV_MIN_LEN && !p->options,
		 "received a %u-byte packet with options 0x%x", p->len,
		 p->options);
	seq = lv_packet_seq(p->data);
	LV_CHECK(w, p->len == lv_packet_len(seq),
		 "packet %llu arrived with %u bytes, not %u",
		 (unsigned long long)seq, p->len, lv_packet_len(seq));
	LV_CHECK(w, lv_packet_verdict(p->data) == XSKX_XDP_REDIRECT,
		 "packet %llu reached the socket with verdict %d",
		 (unsigned long long)seq, (int)lv_packet_verdict(p->data));
	LV_CHECK(w, !w->rx_seen || seq > w->last_rx_seq,
		 "packet %llu arrived after packet %llu",
		 (unsigned long long)seq, (unsigned long long)w->last_rx_seq);
	w->rx_seen = true;
	w->last_rx_seq = seq;
}

static void rx_burst(struct lv_world *w, uint32_t max)
{
	uint32_t room = w->cfg.frame_count - w->nheld;
	struct xskx_pkt *pkts = w->held + w->nheld;
	int n;

	if (max > room)
		max = room;
	n = xskx_rx_burst(w->rx, pkts, max);
	LV_CHECK(w, n >= 0 && (uint32_t)n <= max,
		 "xskx_rx_burst(max %u) returned %d (%s)", max, n,
		 n < 0 ? xskx_strerror(n) : "too many");
	for (int i = 0; i < n; i++)
		check_received(w, &pkts[i]);
	w->nheld += (uint32_t)n;
	w->received += (uint64_t)n;
}

/* Drop held[start, start + n) from the list, keeping the order. */
static void forget(struct lv_world *w, uint32_t start, uint32_t n)
{
	memmove(w->held + start, w->held + start + n,
		(w->nheld - start - n) * sizeof(*w->held));
	w->nheld -= n;
}

/* Give n held frames back without sending them. */
static void let_go(struct lv_world *w, uint32_t start, uint32_t n)
{
	if (w->rx) {
		xskx_rx_release(w->rx, w->held + start, n);
	} else {
		uint64_t addrs[256];

		for (uint32_t done = 0; done < n;) {
			uint32_t k = n - done < 256 ? n - done : 256;

			for (uint32_t i = 0; i < k; i++)
				addrs[i] = w->held[start + done + i].addr;
			xskx_frame_free(w->umem, addrs, k);
			done += k;
		}
	}
	forget(w, start, n);
	w->let_go += n;
}

static void release_some(struct lv_world *w)
{
	uint32_t n, start;

	if (w->starving || !w->nheld)
		return;
	n = lv_range(&w->rng, 1, w->nheld);
	start = lv_range(&w->rng, 0, w->nheld - n);
	let_go(w, start, n);
}

/* TXONLY: write up to n new packets into fresh frames. */
static void build(struct lv_world *w, uint32_t n)
{
	uint32_t room = w->cfg.frame_count - w->nheld;
	uint64_t frames[256];
	uint32_t got;

	if (n > room)
		n = room;
	if (n > 256)
		n = 256;
	got = xskx_frame_alloc(w->umem, frames, n);
	for (uint32_t i = 0; i < got; i++) {
		struct xskx_pkt *p = &w->held[w->nheld++];
		uint8_t buf[LV_MAX_LEN];

		p->addr = xskx_umem_tx_addr(w->umem, frames[i]);
		p->len = lv_packet_build(buf, w->next_seq++, XSKX_XDP_REDIRECT);
		p->options = 0;
		p->data = (uint8_t *)xskx_umem_area(w->umem) + p->addr;
		memcpy(p->data, buf, p->len);
		w->built++;
	}
}

/* Send the oldest n held packets (fewer when TX is full). */
static void tx_burst(struct lv_world *w, uint32_t n)
{
	int sent;

	if (n > w->nheld)
		n = w->nheld;
	sent = xskx_tx_burst(w->tx, w->held, n);
	LV_CHECK(w, sent >= 0 && (uint32_t)sent <= n,
		 "xskx_tx_burst(%u) returned %d (%s)", n, sent,
		 sent < 0 ? xskx_strerror(sent) : "too many");
	forget(w, 0, (uint32_t)sent);
	w->accepted += (uint64_t)sent;
}

static void tx_step(struct lv_world *w)
{
	if (w->starving)
		return;
	if (w->cfg.shape == LV_TXONLY)
		build(w, lv_range(&w->rng, 0, w->cfg.batch));
	tx_burst(w, lv_range(&w->rng, 0, w->cfg.batch));
}

static void socket_poll(struct lv_world *w)
{
	struct xskx_socket *s = w->socks[lv_range(&w->rng, 0, w->nsocks - 1)];
	int ready = xskx_socket_poll(s, POLLIN | POLLOUT, 0);

	LV_CHECK(w, ready >= 0, "xskx_socket_poll: %s", xskx_strerror(ready));
}

/* The faults of both ports: TX stalled on the sending one, links down. */
static void set_faults(struct lv_world *w, bool stalled, bool link_down)
{
	struct xskx_sim_port *ports[2] = { w->in, w->out };

	for (int i = 0; i < 2; i++) {
		struct xskx_sim_faults faults = {
			.tx_stalled = stalled && ports[i] == lv_tx_port(w),
			.link_down = link_down,
		};

		LV_CHECK(w, !xskx_sim_port_set_faults(ports[i], &faults),
			 "xskx_sim_port_set_faults: %s", xskx_last_error());
	}
	w->stalled = stalled;
	w->link_down = link_down;
}

static enum lv_action pick(struct lv_world *w)
{
	uint32_t total = 0, r;

	for (int a = 0; a < LV_ACTIONS; a++)
		total += w->cfg.weight[a];
	r = lv_range(&w->rng, 1, total);
	for (int a = 0; a < LV_ACTIONS; a++) {
		if (r <= w->cfg.weight[a])
			return (enum lv_action)a;
		r -= w->cfg.weight[a];
	}
	return LV_NIC_POLL;
}

static void act(struct lv_world *w, enum lv_action a)
{
	switch (a) {
	case LV_INJECT:
		inject(w);
		break;
	case LV_NIC_POLL:
		nic_poll(w);
		break;
	case LV_RX_BURST:
		rx_burst(w, lv_range(&w->rng, 0, w->cfg.batch));
		break;
	case LV_RELEASE:
		release_some(w);
		break;
	case LV_TX_BURST:
		tx_step(w);
		break;
	case LV_RECLAIM:
		xskx_tx_reclaim(w->tx);
		break;
	case LV_SOCKET_POLL:
		socket_poll(w);
		break;
	case LV_TOGGLE_STALL:
		set_faults(w, !w->stalled, w->link_down);
		break;
	case LV_TOGGLE_LINK:
		set_faults(w, w->stalled, !w->link_down);
		break;
	default:
		w->starving = !w->starving;
		break;
	}
}

static void random_phase(struct lv_world *w)
{
	struct lv_snapshot s;

	w->phase = "random";
	for (w->step = 0; w->step < w->cfg.steps; w->step++) {
		enum lv_action a = pick(w);

		w->doing = lv_action_name(a);
		act(w, a);
		lv_check_step(w, &s);
	}
}

/*
 * Steps the drain may take. Each stage a packet passes (hardware ring, RX
 * ring, application, TX ring, COMPLETION) holds at most its ring's entries
 * or the UMEM's frames, and a drain step moves packets out of every stage
 * that holds some, save the steps that only kick; draining takes about
 * their sum. Four times that is a bound only a stuck NIC or library
 * reaches: the slowest seeds use about a fifth of it.
 */
static uint64_t drain_bound(const struct lv_config *c)
{
	return 64 + 4 * ((uint64_t)c->hw_ring + c->rx_size + c->tx_size +
			 c->fill_size + c->comp_size + c->frame_count);
}

/* Why the drain is stuck, with the wakeup flags the application sees. */
static void fail_stuck(struct lv_world *w, const struct lv_snapshot *s)
{
	struct xskx_rings rings;
	int fill_flag = -1, tx_flag = -1;

	if (w->rx && !xskx_socket_rings(w->rx, &rings))
		fill_flag = test_needs_wakeup(rings.fill);
	if (w->tx && !xskx_socket_rings(w->tx, &rings))
		tx_flag = test_needs_wakeup(rings.tx);
	lv_fail(w, __FILE__,
		"not drained after %llu steps (lost wakeup?): %llu packets in the hardware ring; frames: pool %u fill %u nic %u rx %u app %u tx %u comp %u; sent %llu, completed %llu; need_wakeup flags FILL %d TX %d (-1: no such ring)",
		(unsigned long long)w->drain_steps,
		(unsigned long long)s->in_hw, s->census.pool, s->census.fill,
		s->census.nic, s->census.rx, s->census.app, s->census.tx,
		s->census.comp, (unsigned long long)s->tx_packets,
		(unsigned long long)s->tx_completed, fill_flag, tx_flag);
}

/*
 * One turn of the application's loop. Under busy polling the NIC never
 * runs on its own: only the bursts' kicks move anything.
 */
static void drain_step(struct lv_world *w, struct lv_snapshot *s)
{
	if (!w->cfg.busy_poll) {
		w->doing = "xskx_sim_poll";
		nic_poll(w);
		lv_check_step(w, s);
	}
	if (w->rx) {
		w->doing = "xskx_rx_burst";
		rx_burst(w, w->cfg.batch);
		if (!w->tx)
			let_go(w, 0, w->nheld);
		lv_check_step(w, s);
	}
	if (w->tx) {
		w->doing = "xskx_tx_burst";
		tx_burst(w, w->cfg.batch);
		lv_check_step(w, s);
	}
}

/* Drain steps until nothing is left; returns how many it took. */
static uint64_t settle(struct lv_world *w, struct lv_snapshot *s,
		       uint64_t bound)
{
	uint64_t steps;

	lv_check_step(w, s);
	for (steps = 0; !lv_drained(w, s); steps++) {
		w->drain_steps = steps;
		if (steps >= bound)
			fail_stuck(w, s);
		w->step++;
		drain_step(w, s);
	}
	return steps;
}

static void drain(struct lv_world *w, struct lv_result *result)
{
	struct lv_snapshot s;

	w->phase = "drain";
	w->doing = "ending the faults";
	w->starving = false;
	set_faults(w, false, false);
	result->drain_bound = drain_bound(&w->cfg);
	result->drain_steps = settle(w, &s, result->drain_bound);
	w->doing = "drained";
	lv_check_totals(w, &s);
}

/*
 * Once drained, the machine must still work: after one more drain step —
 * the empty receive burst that kicks a NIC whose FILL ran dry, as the
 * burst that received the last packets does not — and one round of the
 * NIC's own work (a NIC without need_wakeup takes the frames that burst
 * put on FILL when it next polls), a packet that arrives reaches the
 * application (with no buffer posted it would count in rx_missed), and
 * one sent is completed. A NIC left asleep with no buffer posted and no
 * flag asking for a kick would pass the drain but not this.
 */
static void probe(struct lv_world *w)
{
	uint64_t received = w->received, accepted = w->accepted, missed;
	uint64_t bound = drain_bound(&w->cfg);
	uint32_t idle = lv_range(&w->rng, 1, 3);
	struct lv_snapshot s;
	uint8_t buf[LV_MAX_LEN];

	w->phase = "probe";
	for (uint32_t i = 0; i < idle; i++) {
		w->step++;
		drain_step(w, &s);
	}
	if (!w->cfg.busy_poll) {
		w->doing = "xskx_sim_poll";
		nic_poll(w);
		lv_check_step(w, &s);
	}
	missed = s.in.rx_missed;
	if (w->rx) {
		uint32_t len =
			lv_packet_build(buf, w->next_seq++, XSKX_XDP_REDIRECT);
		int err;

		w->doing = "injecting the probe packet";
		err = xskx_sim_port_inject(w->in, buf, len);
		LV_CHECK(w, !err, "xskx_sim_port_inject: %s",
			 xskx_strerror(err));
		w->injected++;
	} else {
		w->doing = "building the probe packet";
		build(w, 1);
		LV_CHECK(w, w->nheld == 1, "no frame for the probe packet");
	}
	settle(w, &s, bound);
	w->doing = "drained the probe";
	LV_CHECK(
		w, !w->rx || w->received == received + 1,
		"a packet arriving %u drain steps after the drain did not reach the application (%s)",
		idle,
		s.in.rx_missed > missed ? "missed: no hardware buffer posted" :
					  "dropped");
	LV_CHECK(w, !w->tx || w->accepted == accepted + 1,
		 "the probe packet was not sent (%llu sent before, %llu now)",
		 (unsigned long long)accepted, (unsigned long long)w->accepted);
	lv_check_totals(w, &s);
}

void lv_run_seed(uint64_t seed, struct lv_result *result)
{
	struct lv_config cfg;
	struct lv_world w;

	lv_config_draw(&cfg, seed);
	lv_world_create(&w, &cfg);
	random_phase(&w);
	drain(&w, result);
	probe(&w);
	result->steps = w.cfg.steps;
	result->packets = w.injected + w.built;
	lv_world_destroy(&w);
}
