// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The frame-sharing policy (docs/FRAME_SHARING.md) as a property, on the
 * deterministic simulated NIC.
 *
 * A forwarder with 1-4 receiving sockets on one UMEM — each on its own
 * simulated port, or each on a queue of one port — receives on socket i and
 * transmits the very same frames out of socket i+1 (mod n), releasing what
 * TX does not take, as xskx-l2fwd --tx-full drop does. Traffic comes in
 * phases: one way (one ingress busy, the rest idle), bursty (a flood, then
 * silence), alternating (the busy ingress changes every phase), and one
 * ingress idle for a long time before it wakes. Configurations — UMEM size
 * from the smallest the library accepts upward, FILL, RX and hardware ring
 * sizes, NAPI budgets — are drawn from a seed.
 *
 * At every step:
 *   - the census balances: total == frames, unaccounted == 0, no double or
 *     foreign free, the application holds exactly what the test holds;
 *   - every queue's FILL-side holding — frames put on FILL and not yet read
 *     from RX, from the ring indices themselves — is at most its share, and
 *     the holdings add up to the census's fill + nic + rx.
 * After every phase:
 *   - after a few quiet steps every queue is topped up to within one refill
 *     batch of its share (none is starved while another holds more);
 *   - a probe injected on every ingress comes out of its egress port within
 *     a bounded number of steps: forwarding goes on.
 *
 * The shares, the smallest UMEM and the refill batch are the test's own
 * model of the documented policy (fair_share() and friends below), never
 * the library's code. A failure prints the seed; `test_frame_sharing
 * --seed N` reruns that one configuration (with the case's pattern when a
 * case name is given too).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "packet.h"
#include "prng.h"

#define FS_MAX_SOCKS 4u
#define FS_BATCH 64u
#define FS_PHASES 6u
#define FS_MAX_PHASE_STEPS 80u
#define FS_SETTLE_STEPS 3u
#define FS_SETTLE_MAX_STEPS 5000u
#define FS_PROBE_MAX_STEPS 400u
#define FS_CALIBRATE_MAX_FLOWS 512u
#define FS_PROBE_BIT (1ull << 63)
#define FS_SRC_PORT_OFFSET (14 + 20)
/* Frames of the UMEMs the seeds draw, beyond the smallest one accepted. */
#define FS_MAX_FRAMES 4096u

enum fs_pattern {
	FS_ONE_WAY = 0,
	FS_BURSTY,
	FS_ALTERNATING,
	FS_IDLE_THEN_WAKE,
	FS_RANDOM, /* each phase one of the above */
	FS_PATTERNS,
};

static const char *const pattern_names[FS_PATTERNS] = {
	[FS_ONE_WAY] = "one-way",
	[FS_BURSTY] = "bursty",
	[FS_ALTERNATING] = "alternating",
	[FS_IDLE_THEN_WAKE] = "idle-then-wake",
	[FS_RANDOM] = "random",
};

enum fs_topology {
	FS_PORTS = 0, /* socket i on port i, queue 0 */
	FS_QUEUES,    /* socket i on queue i of port 0 */
};

struct fs_config {
	uint64_t seed;
	enum fs_pattern pattern;
	enum fs_topology topology;
	uint32_t nsocks;
	uint32_t frames;
	uint32_t fill_size;
	uint32_t rx_size;
	uint32_t tx_size;
	uint32_t hw_ring_size;
	uint32_t napi_budget;
	/* Per socket: the options' fill_max (0: a fair share) and tx_reserve. */
	uint32_t fill_max[FS_MAX_SOCKS];
	uint32_t tx_reserve[FS_MAX_SOCKS]; /* XSKX_TX_RESERVE_NONE: none */
	bool no_wakeup;
	/* The options' fill_frames: 0 is the library's default initial fill. */
	uint32_t fill_frames;
};

struct fs_world;

struct fs_sink {
	struct fs_world *w;
	uint32_t port;
};

struct fs_world {
	struct fs_config cfg;
	struct lv_rng rng;
	struct xskx_sim *sim;
	struct xskx_sim_port *ports[FS_MAX_SOCKS];
	uint32_t nports;
	struct fs_sink sinks[FS_MAX_SOCKS];
	struct xskx_umem *umem;
	struct xskx_socket *socks[FS_MAX_SOCKS];
	struct xskx_rings rings[FS_MAX_SOCKS];
	/*
	 * The most queue i may hold: its share, or — when it got more before
	 * later queues shrank its share — what it held then, going down as it
	 * receives: a queue above its share never takes another frame.
	 */
	uint32_t cap[FS_MAX_SOCKS];
	uint16_t flow[FS_MAX_SOCKS]; /* UDP source port that RSS puts on queue i */
	int calibrate_queue;	     /* XDP hook during calibration */
	uint64_t seq;
	uint64_t injected[FS_MAX_SOCKS];
	uint64_t delivered[FS_MAX_SOCKS]; /* at endpoint i's sink */
	uint64_t forwarded[FS_MAX_SOCKS]; /* accepted by TX, by ingress */
	uint64_t released;
	uint64_t probe_at[FS_MAX_SOCKS]; /* last probe seen at endpoint i */
	uint64_t wrong_egress;
	uint32_t step;
	uint32_t phase;
	char where[160];
};

/* ---- the test's own model of the policy -------------------------------- */

static uint32_t model_reserve(const struct fs_config *c, uint32_t i)
{
	uint32_t r = c->tx_reserve[i];

	/* The documented default for a socket with RX and TX: half the frames. */
	if (r == XSKX_TX_RESERVE_NONE)
		return 0;
	return r ? r : c->frames / 2;
}

static uint32_t largest_reserve(const struct fs_world *w)
{
	uint32_t r = 0;

	for (uint32_t i = 0; i < w->cfg.nsocks; i++)
		if (w->socks[i] && model_reserve(&w->cfg, i) > r)
			r = model_reserve(&w->cfg, i);
	return r;
}

/*
 * The share of queue i with the sockets open now: its own fill_max, or an
 * equal part of what the largest tx_reserve and the chosen fill_max leave.
 */
static uint32_t fair_share(const struct fs_world *w, uint32_t i)
{
	uint32_t chosen = 0, sharers = 0;
	uint32_t budget = w->cfg.frames - largest_reserve(w);

	if (w->cfg.fill_max[i])
		return w->cfg.fill_max[i];
	for (uint32_t j = 0; j < w->cfg.nsocks; j++) {
		if (!w->socks[j])
			continue;
		if (w->cfg.fill_max[j])
			chosen += w->cfg.fill_max[j];
		else
			sharers++;
	}
	return budget > chosen ? (budget - chosen) / sharers : 0;
}

/* The smallest UMEM the documented rule accepts for the configuration. */
static uint32_t smallest_umem(const struct fs_config *c)
{
	uint32_t need = 0, reserve = 0;

	for (uint32_t i = 0; i < c->nsocks; i++) {
		need += c->fill_max[i] ? c->fill_max[i] : 1;
		if (model_reserve(c, i) > reserve)
			reserve = model_reserve(c, i);
	}
	return need + reserve;
}

/* A refill batch: 64 by default, at most half of FILL and half the share. */
static uint32_t model_batch(const struct fs_world *w, uint32_t share)
{
	uint32_t b = FS_BATCH;
	uint32_t half_fill = w->cfg.fill_size / 2 ? w->cfg.fill_size / 2 : 1;
	uint32_t half_share = share / 2 ? share / 2 : 1;

	if (b > half_fill)
		b = half_fill;
	return b < half_share ? b : half_share;
}

/* Frames put on FILL and not yet read from RX: on FILL, in the NIC, on RX. */
static uint32_t holding(const struct fs_world *w, uint32_t i)
{
	return *w->rings[i].fill->producer - *w->rings[i].rx->consumer;
}

static uint32_t fill_free(const struct fs_world *w, uint32_t i)
{
	const struct xsk_ring_prod *f = w->rings[i].fill;

	return f->size - (*f->producer - *f->consumer);
}

/* ---- the machine -------------------------------------------------------- */

static void describe(struct fs_world *w)
{
	const struct fs_config *c = &w->cfg;

	snprintf(w->where, sizeof(w->where),
		 "seed %" PRIu64 " (%s, %u socket%s on %s, %u frames, fill %u rx %u hw %u) phase %u step %u",
		 c->seed, pattern_names[c->pattern], c->nsocks,
		 c->nsocks == 1 ? "" : "s",
		 c->topology == FS_PORTS ? "ports" : "queues of one port",
		 c->frames, c->fill_size, c->rx_size, c->hw_ring_size, w->phase,
		 w->step);
}

static uint32_t port_of(const struct fs_world *w, uint32_t i)
{
	return w->cfg.topology == FS_PORTS ? i : 0;
}

static uint32_t queue_of(const struct fs_world *w, uint32_t i)
{
	return w->cfg.topology == FS_PORTS ? 0 : i;
}

static uint32_t dest_of(const struct fs_world *w, uint32_t i)
{
	return (i + 1) % w->cfg.nsocks;
}

static uint32_t endpoint_of(const struct fs_world *w, uint32_t port,
			    uint32_t queue)
{
	return w->cfg.topology == FS_PORTS ? port : queue;
}

static void sink(enum xskx_sim_sink_kind kind, const uint8_t *data,
		 uint32_t len, uint32_t queue, void *ctx)
{
	struct fs_sink *s = ctx;
	struct fs_world *w = s->w;
	uint32_t e = endpoint_of(w, s->port, queue);
	uint64_t seq;

	if (kind != XSKX_SIM_SINK_TX || len < LV_MIN_LEN || e >= FS_MAX_SOCKS)
		return;
	seq = lv_packet_seq(data);
	w->delivered[e]++;
	if (!(seq & FS_PROBE_BIT))
		return;
	/* A probe names its ingress in bits 32..39. */
	if (dest_of(w, (uint32_t)(seq >> 32) & 0xff) != e)
		w->wrong_egress++;
	w->probe_at[e] = seq;
}

static enum xskx_xdp_verdict calibrate_hook(uint8_t *data, uint32_t len,
					    uint32_t queue, void *ctx)
{
	struct fs_world *w = ctx;

	(void)data;
	(void)len;
	w->calibrate_queue = (int)queue;
	return XSKX_XDP_DROP;
}

/* Build packet seq for ingress i, on i's queue. */
static uint32_t build(struct fs_world *w, uint8_t *buf, uint64_t seq,
		      uint32_t i)
{
	uint32_t len = lv_packet_build(buf, seq, XSKX_XDP_REDIRECT);

	buf[FS_SRC_PORT_OFFSET] = (uint8_t)(w->flow[i] >> 8);
	buf[FS_SRC_PORT_OFFSET + 1] = (uint8_t)w->flow[i];
	return len;
}

/* Inject one packet on ingress i; returns whether a hardware buffer took it. */
static bool inject(struct fs_world *w, uint32_t i, uint64_t seq)
{
	uint8_t buf[LV_MAX_LEN];
	uint32_t len = build(w, buf, seq, i);
	int err = xskx_sim_port_inject(w->ports[port_of(w, i)], buf, len);

	ck_assert_msg(!err || err == -ENOBUFS, "%s: inject: %s", w->where,
		      xskx_last_error());
	w->injected[i]++;
	return !err;
}

static void open_socket(struct fs_world *w, uint32_t i)
{
	XSKX_OPTS(xskx_socket_opts, o, .port = test_port(w->ports[port_of(w, i)]),
		  .queue_id = queue_of(w, i), .rx_size = w->cfg.rx_size,
		  .tx_size = w->cfg.tx_size, .fill_max = w->cfg.fill_max[i],
		  .tx_reserve = w->cfg.tx_reserve[i],
		  .fill_frames = w->cfg.fill_frames,
		  .flags = w->cfg.no_wakeup ? XSKX_SOCKET_NO_WAKEUP : 0);
	int err = xskx_socket_open(&w->socks[i], w->umem, &o);

	ck_assert_msg(!err, "%s: open socket %u: %s", w->where, i,
		      xskx_last_error());
	ck_assert_int_eq(xskx_socket_rings(w->socks[i], &w->rings[i]), 0);
}

/* Which UDP source port RSS puts on each queue of the one port. */
static void calibrate_flows(struct fs_world *w)
{
	bool found[FS_MAX_SOCKS] = { false };
	uint16_t flows[FS_MAX_SOCKS] = { 0 };
	uint32_t left = w->cfg.nsocks;

	if (w->cfg.topology == FS_PORTS) {
		for (uint32_t i = 0; i < FS_MAX_SOCKS; i++)
			w->flow[i] = 1024;
		return;
	}
	ck_assert_int_eq(xskx_sim_port_set_xdp(w->ports[0], calibrate_hook, w),
			 0);
	for (uint32_t f = 0; left && f < FS_CALIBRATE_MAX_FLOWS; f++) {
		/* flow[0] is the candidate while calibrating. */
		w->flow[0] = (uint16_t)(1024 + f);
		for (uint32_t t = 0; t < 50; t++) {
			w->calibrate_queue = -1;
			if (!inject(w, 0, 0))
				ck_assert_int_ge(xskx_sim_poll(w->sim), 0);
			for (uint32_t k = 0; k < 4 && w->calibrate_queue < 0; k++)
				ck_assert_int_ge(xskx_sim_poll(w->sim), 0);
			if (w->calibrate_queue >= 0)
				break;
		}
		ck_assert_msg(w->calibrate_queue >= 0,
			      "%s: flow %u never reached the XDP hook", w->where,
			      1024 + f);
		if (!found[w->calibrate_queue]) {
			found[w->calibrate_queue] = true;
			flows[w->calibrate_queue] = (uint16_t)(1024 + f);
			left--;
		}
	}
	ck_assert_msg(!left, "%s: RSS spread no flow to %u queues", w->where,
		      left);
	memcpy(w->flow, flows, sizeof(flows));
	ck_assert_int_eq(xskx_sim_port_set_xdp(w->ports[0], NULL, NULL), 0);
	memset(w->injected, 0, sizeof(w->injected));
}

static void world_create(struct fs_world *w, const struct fs_config *c,
			 bool open_all)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = c->frames,
		  .frame_size = 4096, .fill_size = c->fill_size,
		  .comp_size = c->fill_size > 64 ? c->fill_size : 64);

	memset(w, 0, sizeof(*w));
	w->cfg = *c;
	lv_rng_seed(&w->rng, c->seed ^ 0x5eed5eedull);
	describe(w);
	ck_assert_int_eq(xskx_sim_create(&w->sim, &sim_opts), 0);
	w->nports = c->topology == FS_PORTS ? c->nsocks : 1;
	for (uint32_t p = 0; p < w->nports; p++) {
		XSKX_OPTS(xskx_sim_port_opts, po,
			  .queues = c->topology == FS_PORTS ? 1 : c->nsocks,
			  .hw_ring_size = c->hw_ring_size,
			  .napi_budget = c->napi_budget);

		ck_assert_msg(!xskx_sim_port_create(w->sim, &po, &w->ports[p]),
			      "%s: port: %s", w->where, xskx_last_error());
		w->sinks[p] = (struct fs_sink){ w, p };
		ck_assert_int_eq(xskx_sim_port_set_sink(w->ports[p], sink,
							&w->sinks[p]), 0);
	}
	ck_assert_msg(!xskx_umem_create(&w->umem, &umem_opts), "%s: umem: %s",
		      w->where, xskx_last_error());
	if (!open_all)
		return;
	for (uint32_t i = 0; i < c->nsocks; i++)
		open_socket(w, i);
	/* Every socket is open: a first burst each posts the shares. */
	for (uint32_t i = 0; i < c->nsocks; i++)
		ck_assert_int_eq(xskx_rx_burst(w->socks[i], NULL, 0), 0);
	for (uint32_t i = 0; i < c->nsocks; i++)
		w->cap[i] = holding(w, i);
	calibrate_flows(w);
}

/* ---- the forwarder ------------------------------------------------------ */

static void forward_one(struct fs_world *w, uint32_t i)
{
	struct xskx_pkt pkts[FS_BATCH];
	struct xskx_socket *out = w->socks[dest_of(w, i)];
	int n, sent = 0;

	if (!w->socks[i]) {
		/* Still reclaim the egress's completions, as fwd.c does. */
		if (out)
			ck_assert_int_ge(xskx_tx_burst(out, NULL, 0), 0);
		return;
	}
	n = xskx_rx_burst(w->socks[i], pkts, FS_BATCH);
	ck_assert_msg(n >= 0, "%s: rx_burst %u: %s", w->where, i,
		      xskx_strerror(n));
	if (out) {
		sent = xskx_tx_burst(out, pkts, (uint32_t)n);
		ck_assert_msg(sent >= 0, "%s: tx_burst %u: %s", w->where,
			      dest_of(w, i), xskx_strerror(sent));
	}
	w->forwarded[i] += (uint64_t)sent;
	if (n > sent) {
		ck_assert_msg(!xskx_rx_release(w->socks[i], pkts + sent,
					       (uint32_t)(n - sent)),
			      "%s: release: %s", w->where, xskx_last_error());
		w->released += (uint64_t)(n - sent);
	}
}

/* The census balances and no queue holds more than its share. */
static void check_step(struct fs_world *w)
{
	struct xskx_frame_census c;
	uint64_t held = 0;
	char why[384];

	describe(w);
	ck_assert_msg(test_census_ok(w->umem, 0, why, sizeof(why)), "%s: %s",
		      w->where, why);
	ck_assert_int_eq(xskx_umem_census(w->umem, &c), 0);
	ck_assert_msg(c.nic_counted && c.unaccounted == 0 &&
			      c.total == w->cfg.frames && !c.double_frees &&
			      !c.foreign_frees,
		      "%s: census unaccounted %" PRId64 " total %u double %" PRIu64
		      " foreign %" PRIu64,
		      w->where, c.unaccounted, c.total, c.double_frees,
		      c.foreign_frees);
	for (uint32_t i = 0; i < w->cfg.nsocks; i++) {
		uint32_t h, share;

		if (!w->socks[i])
			continue;
		h = holding(w, i);
		share = fair_share(w, i);
		held += h;
		ck_assert_msg(h <= share || h <= w->cap[i],
			      "%s: queue %u holds %u frames on FILL/NIC/RX, its share is %u (of %u frames, %u queues) and it held %u",
			      w->where, i, h, share, w->cfg.frames,
			      w->cfg.nsocks, w->cap[i]);
		w->cap[i] = h > share ? h : share;
	}
	ck_assert_msg(held == (uint64_t)c.fill + c.nic + c.rx,
		      "%s: the queues' holdings add up to %" PRIu64
		      ", the census has fill %u + nic %u + rx %u",
		      w->where, held, c.fill, c.nic, c.rx);
	ck_assert_uint_eq(w->wrong_egress, 0);
}

static void step(struct fs_world *w)
{
	int polled = xskx_sim_poll(w->sim);

	ck_assert_msg(polled >= 0, "%s: xskx_sim_poll: %s", w->where,
		      xskx_strerror(polled));
	for (uint32_t i = 0; i < w->cfg.nsocks; i++)
		forward_one(w, i);
	w->step++;
	check_step(w);
}

/*
 * Quiet steps, then: every queue within one refill batch of its share (or
 * its FILL ring too full for a batch). The frames are there: the shares add
 * up to no more than the UMEM less the largest reserve.
 */
static void settle(struct fs_world *w)
{
	uint32_t last[FS_MAX_SOCKS] = { 0 }, stable = 0;

	for (uint32_t s = 0; stable < FS_SETTLE_STEPS; s++) {
		struct xskx_frame_census c;
		bool same = true;

		ck_assert_msg(s < FS_SETTLE_MAX_STEPS,
			      "%s: still moving after %u quiet steps", w->where,
			      s);
		step(w);
		ck_assert_int_eq(xskx_umem_census(w->umem, &c), 0);
		for (uint32_t i = 0; i < w->cfg.nsocks; i++) {
			uint32_t h = w->socks[i] ? holding(w, i) : 0;

			same = same && h == last[i];
			last[i] = h;
		}
		stable = same && !c.tx && !c.comp ? stable + 1 : 0;
	}
}

static void check_settled(struct fs_world *w)
{
	settle(w);
	for (uint32_t i = 0; i < w->cfg.nsocks; i++) {
		uint32_t share, batch, h;

		if (!w->socks[i])
			continue;
		share = fair_share(w, i);
		batch = model_batch(w, share);
		h = holding(w, i);
		if (h + batch > share || fill_free(w, i) < batch)
			continue;
		/* Below its share with room on FILL: no frame was to be had. */
		for (uint32_t j = 0; j < w->cfg.nsocks; j++)
			ck_assert_msg(!w->socks[j] || holding(w, j) <= fair_share(w, j),
				      "%s: queue %u starved: holds %u of its share %u once quiet (batch %u, FILL free %u, pool %u) while queue %u holds %u, above its share %u",
				      w->where, i, h, share, batch, fill_free(w, i),
				      xskx_umem_pool_count(w->umem), j,
				      holding(w, j), fair_share(w, j));
		ck_assert_msg(false,
			      "%s: queue %u holds %u of its share %u once quiet (batch %u, FILL free %u, pool %u)",
			      w->where, i, h, share, batch, fill_free(w, i),
			      xskx_umem_pool_count(w->umem));
	}
}

/* A probe on every open ingress reaches its egress within a bound. */
static void check_probes(struct fs_world *w)
{
	for (uint32_t i = 0; i < w->cfg.nsocks; i++) {
		uint32_t d = dest_of(w, i);
		uint64_t probe = FS_PROBE_BIT | (uint64_t)i << 32 | w->seq++;
		bool in = false;
		uint32_t s;

		if (!w->socks[i] || !w->socks[d])
			continue;
		for (s = 0; s < FS_PROBE_MAX_STEPS && w->probe_at[d] != probe;
		     s++) {
			if (!in)
				in = inject(w, i, probe);
			step(w);
		}
		ck_assert_msg(w->probe_at[d] == probe,
			      "%s: a probe on ingress %u never came out of %u in %u steps (it %s a hardware buffer; queue %u holds %u, share %u)",
			      w->where, i, d, FS_PROBE_MAX_STEPS,
			      in ? "found" : "never found", i, holding(w, i),
			      fair_share(w, i));
	}
}

/* ---- traffic ------------------------------------------------------------ */

static void traffic_phase(struct fs_world *w, enum fs_pattern pattern)
{
	uint32_t n = w->cfg.nsocks;
	uint32_t busy = 0, steps = lv_range(&w->rng, 10, FS_MAX_PHASE_STEPS);
	uint32_t per_step = lv_log_range(&w->rng, 1, 128);

	switch (pattern) {
	case FS_ONE_WAY:
		/* Into the queue opened last, out of the first one's port. */
		busy = n - 1;
		break;
	case FS_ALTERNATING:
		busy = w->phase % n;
		break;
	case FS_IDLE_THEN_WAKE:
		/* The last ingress sleeps until the last phase. */
		busy = w->phase + 1 == FS_PHASES ? n - 1 : 0;
		break;
	case FS_BURSTY:
	default:
		busy = lv_range(&w->rng, 0, n - 1);
		break;
	}
	for (uint32_t s = 0; s < steps; s++) {
		uint32_t count = per_step;

		if (pattern == FS_BURSTY)
			count = s == 0 ? lv_range(&w->rng, 64, 4096) : 0;
		for (uint32_t k = 0; k < count; k++)
			inject(w, busy, w->seq++);
		step(w);
	}
}

static void run_phases(struct fs_world *w)
{
	for (w->phase = 0; w->phase < FS_PHASES; w->phase++) {
		enum fs_pattern p = w->cfg.pattern;

		if (p == FS_RANDOM)
			p = (enum fs_pattern)lv_range(&w->rng, 0, FS_RANDOM - 1);
		traffic_phase(w, p);
		check_settled(w);
		check_probes(w);
	}
}

static void world_destroy(struct fs_world *w)
{
	char why[384];
	uint64_t injected = 0, delivered = 0, forwarded = 0;

	for (uint32_t i = 0; i < w->cfg.nsocks; i++) {
		injected += w->injected[i];
		delivered += w->delivered[i];
		forwarded += w->forwarded[i];
	}
	/* Every frame TX took was delivered once the egresses drained. */
	ck_assert_msg(delivered == forwarded,
		      "%s: %" PRIu64 " packets accepted by TX, %" PRIu64
		      " reached the sinks",
		      w->where, forwarded, delivered);
	ck_assert_msg(forwarded <= injected, "%s", w->where);
	for (uint32_t i = 0; i < w->cfg.nsocks; i++)
		if (w->socks[i])
			ck_assert_int_eq(xskx_socket_close(w->socks[i]), 0);
	ck_assert_msg(test_census_all_in_pool(w->umem, why, sizeof(why)),
		      "%s: after closing: %s", w->where, why);
	ck_assert_int_eq(xskx_umem_destroy(w->umem), 0);
	ck_assert_int_eq(test_sim_destroy(w->sim), 0);
}

/* ---- configurations ----------------------------------------------------- */

static void draw_config(struct fs_config *c, uint64_t seed,
			enum fs_pattern pattern)
{
	static const uint32_t fill_sizes[] = { 2, 4, 16, 64, 256, 2048 };
	static const uint32_t rx_sizes[] = { 2, 8, 64, 512, 2048 };
	static const uint32_t hw_sizes[] = { 32, 64, 256, 2048 };
	struct lv_rng r;
	uint32_t min;

	memset(c, 0, sizeof(*c));
	lv_rng_seed(&r, seed);
	c->seed = seed;
	c->pattern = pattern;
	c->nsocks = lv_range(&r, 1, FS_MAX_SOCKS);
	c->topology = c->nsocks > 1 && lv_chance(&r, 35) ? FS_QUEUES : FS_PORTS;
	c->fill_size = fill_sizes[lv_range(&r, 0, 5)];
	c->rx_size = rx_sizes[lv_range(&r, 0, 4)];
	c->tx_size = rx_sizes[lv_range(&r, 0, 4)];
	c->hw_ring_size = hw_sizes[lv_range(&r, 0, 3)];
	c->napi_budget = lv_log_range(&r, 1, 64);
	c->no_wakeup = lv_chance(&r, 15);
	/* The default: nothing on FILL at open, the first bursts post shares. */
	c->fill_frames = 0;
	for (uint32_t i = 0; i < c->nsocks; i++)
		c->tx_reserve[i] = XSKX_TX_RESERVE_NONE;
	min = smallest_umem(c);
	/* The smallest UMEM, just above it, or anything up to 4096 frames. */
	switch (lv_range(&r, 0, 3)) {
	case 0:
		c->frames = min;
		break;
	case 1:
		c->frames = min + lv_range(&r, 1, 8);
		break;
	default:
		c->frames = lv_log_range(&r, min, FS_MAX_FRAMES);
		break;
	}
}

static uint64_t only_seed;
static bool have_seed;

static void run_seed(uint64_t seed, enum fs_pattern pattern)
{
	struct fs_config c;
	struct fs_world *w = calloc(1, sizeof(*w));

	ck_assert_ptr_nonnull(w);
	draw_config(&c, seed, pattern);
	world_create(w, &c, true);
	run_phases(w);
	world_destroy(w);
	free(w);
}

static void run_seeds(enum fs_pattern pattern, uint64_t base, uint32_t count)
{
	if (have_seed) {
		run_seed(only_seed, pattern);
		return;
	}
	for (uint32_t k = 0; k < count; k++)
		run_seed(base + k, pattern);
}

#define FS_SEEDS 40u

START_TEST(one_way)
{
	run_seeds(FS_ONE_WAY, 1000, FS_SEEDS);
}
END_TEST

START_TEST(bursty)
{
	run_seeds(FS_BURSTY, 2000, FS_SEEDS);
}
END_TEST

START_TEST(alternating)
{
	run_seeds(FS_ALTERNATING, 3000, FS_SEEDS);
}
END_TEST

START_TEST(idle_then_wake)
{
	run_seeds(FS_IDLE_THEN_WAKE, 4000, FS_SEEDS);
}
END_TEST

START_TEST(random_phases)
{
	run_seeds(FS_RANDOM, 5000, 2 * FS_SEEDS);
}
END_TEST

/*
 * The smallest UMEM for 1-4 sockets, with and without chosen fill_max and a
 * tx_reserve: one frame fewer is refused with -EINVAL (by the socket that
 * no longer fits), the exact minimum forwards one way.
 */
START_TEST(smallest_umem_exactly)
{
	for (uint64_t seed = 0; seed < 24; seed++) {
		struct fs_config c;
		struct fs_world *w = calloc(1, sizeof(*w));
		struct lv_rng r;
		uint32_t min;

		ck_assert_ptr_nonnull(w);
		draw_config(&c, 6000 + seed, FS_ONE_WAY);
		lv_rng_seed(&r, 6000 + seed);
		c.nsocks = 1 + (uint32_t)(seed % FS_MAX_SOCKS);
		c.topology = seed % 3 == 2 && c.nsocks > 1 ? FS_QUEUES : FS_PORTS;
		for (uint32_t i = 0; i < c.nsocks; i++) {
			c.fill_max[i] = seed & 4 && i % 2 ? lv_range(&r, 1, 8) : 0;
			c.tx_reserve[i] = seed & 8 && i == 0 ? lv_range(&r, 1, 16)
							     : XSKX_TX_RESERVE_NONE;
		}
		min = smallest_umem(&c);
		/* One frame too few: the last socket to open is refused. */
		c.frames = min - 1;
		if (c.frames) {
			world_create(w, &c, false);
			for (uint32_t i = 0; i + 1 < c.nsocks; i++)
				open_socket(w, i);
			{
				XSKX_OPTS(xskx_socket_opts, o,
					  .port = test_port(w->ports[port_of(w, c.nsocks - 1)]),
					  .queue_id = queue_of(w, c.nsocks - 1),
					  .fill_max = c.fill_max[c.nsocks - 1],
					  .tx_reserve = c.tx_reserve[c.nsocks - 1]);
				struct xskx_socket *s = NULL;
				int err = xskx_socket_open(&s, w->umem, &o);

				ck_assert_msg(err == -EINVAL,
					      "%s: %u frames, one fewer than the smallest %u: open gave %d, expected -EINVAL",
					      w->where, c.frames, min, err);
			}
			for (uint32_t i = 0; i + 1 < c.nsocks; i++)
				ck_assert_int_eq(xskx_socket_close(w->socks[i]), 0);
			ck_assert_int_eq(xskx_umem_destroy(w->umem), 0);
			ck_assert_int_eq(test_sim_destroy(w->sim), 0);
		}
		c.frames = min;
		world_create(w, &c, true);
		run_phases(w);
		world_destroy(w);
		free(w);
	}
}
END_TEST

/*
 * With the default initial fill (fill_frames 0), the smallest UMEM the size
 * rule accepts for 1-4 sockets works. (When sockets posted up to half the
 * budget at open, 4 frames for 4 sockets refused the 4th with -EBUSY:
 * sockets 0-2 had posted 2 + 1 + 1 frames.)
 */
START_TEST(default_fill_smallest_umem)
{
	for (uint32_t n = 1; n <= FS_MAX_SOCKS; n++) {
		struct fs_config c;
		struct fs_world *w = calloc(1, sizeof(*w));

		ck_assert_ptr_nonnull(w);
		draw_config(&c, 7000 + n, FS_ONE_WAY);
		c.nsocks = n;
		for (uint32_t i = 0; i < n; i++)
			c.tx_reserve[i] = XSKX_TX_RESERVE_NONE;
		c.topology = FS_PORTS;
		c.fill_frames = 0;
		c.frames = smallest_umem(&c);
		world_create(w, &c, true);
		run_phases(w);
		world_destroy(w);
		free(w);
	}
}
END_TEST

/*
 * 12 frames, 4 ports, default initial fill, every socket opened before
 * traffic, traffic one way into the port opened last: every queue ends at
 * its share of 3 and forwarding goes on. (When socket 0 posted 6 frames at
 * open, more than the share of 3 it ended with, and never received, queues
 * 1 and 2 took the frames queue 3 forwarded and queue 3 was left with none:
 * forwarding stopped for good.)
 */
START_TEST(default_fill_one_way_into_last)
{
	struct fs_config c;
	struct fs_world *w = calloc(1, sizeof(*w));

	ck_assert_ptr_nonnull(w);
	draw_config(&c, 8000, FS_ONE_WAY);
	c.nsocks = 4;
	for (uint32_t i = 0; i < c.nsocks; i++)
		c.tx_reserve[i] = XSKX_TX_RESERVE_NONE;
	c.topology = FS_PORTS;
	c.fill_frames = 0;
	c.frames = 12;
	c.fill_size = 64;
	c.rx_size = 64;
	c.tx_size = 64;
	c.hw_ring_size = 64;
	c.no_wakeup = false;
	world_create(w, &c, true);
	run_phases(w);
	world_destroy(w);
	free(w);
}
END_TEST

static Suite *frame_sharing_suite(void)
{
	Suite *s = suite_create("frame_sharing");
	struct {
		const char *name;
		const TTest *test;
	} cases[] = {
		{ "one_way", one_way },
		{ "bursty", bursty },
		{ "alternating", alternating },
		{ "idle_then_wake", idle_then_wake },
		{ "random_phases", random_phases },
		{ "smallest_umem_exactly", smallest_umem_exactly },
		{ "default_fill_smallest_umem", default_fill_smallest_umem },
		{ "default_fill_one_way_into_last",
		  default_fill_one_way_into_last },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_set_timeout(tc, 240);
		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--seed")) {
		only_seed = strtoull(argv[2], NULL, 0);
		have_seed = true;
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	return test_main(frame_sharing_suite(), argc, argv);
}
