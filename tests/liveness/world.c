// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Drawing a configuration from a seed, and building the machine for it. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "packet.h"
#include "world.h"

const char *lv_program = "test_lost_wakeup";

static const char *const shape_names[LV_SHAPES] = {
	[LV_RXDROP] = "rxdrop",
	[LV_TXONLY] = "txonly",
	[LV_FWD_TWO_PORTS] = "fwd-two-ports",
	[LV_FWD_ONE_SOCKET] = "fwd-one-socket",
	[LV_FWD_SHARED_QUEUE] = "fwd-shared-queue",
};

static const char *const action_names[LV_ACTIONS] = {
	[LV_INJECT] = "inject",
	[LV_NIC_POLL] = "xskx_sim_poll",
	[LV_RX_BURST] = "xskx_rx_burst",
	[LV_RELEASE] = "release held frames",
	[LV_TX_BURST] = "xskx_tx_burst",
	[LV_RECLAIM] = "xskx_tx_reclaim",
	[LV_SOCKET_POLL] = "xskx_socket_poll",
	[LV_TOGGLE_STALL] = "toggle TX stall",
	[LV_TOGGLE_LINK] = "toggle the links",
	[LV_TOGGLE_STARVE] = "toggle holding frames",
};

const char *lv_action_name(enum lv_action action)
{
	return action_names[action];
}

/*
 * How often each action comes up, drawn per seed so that some runs are
 * NIC-heavy, some application-heavy, some hold frames for long stretches.
 */
static void draw_weights(struct lv_config *c, struct lv_rng *r)
{
	bool rx = lv_receives(c->shape), tx = lv_sends(c->shape);

	c->weight[LV_INJECT] = rx ? lv_range(r, 1, 10) : 0;
	c->weight[LV_NIC_POLL] = lv_range(r, 1, 10);
	c->weight[LV_RX_BURST] = rx ? lv_range(r, 1, 10) : 0;
	c->weight[LV_RELEASE] = lv_range(r, 1, 6);
	c->weight[LV_TX_BURST] = tx ? lv_range(r, 1, 10) : 0;
	c->weight[LV_RECLAIM] = tx ? lv_range(r, 0, 4) : 0;
	c->weight[LV_SOCKET_POLL] = lv_range(r, 0, 3);
	c->weight[LV_TOGGLE_STALL] = tx ? lv_range(r, 0, 1) : 0;
	c->weight[LV_TOGGLE_LINK] = lv_range(r, 0, 1);
	c->weight[LV_TOGGLE_STARVE] = lv_range(r, 0, 1);
}

void lv_config_draw(struct lv_config *c, uint64_t seed)
{
	struct lv_rng r;

	memset(c, 0, sizeof(*c));
	lv_rng_seed(&r, seed);
	c->seed = seed;
	c->shape = (enum lv_shape)lv_range(&r, 0, LV_SHAPES - 1);
	c->no_zero_copy = lv_chance(&r, 20);
	c->need_wakeup = lv_chance(&r, 75);
	c->busy_poll = lv_chance(&r, 15);
	c->policy = lv_chance(&r, 50) ? XSKX_SIM_RX_FULL_STOP :
					XSKX_SIM_RX_FULL_DROP;
	c->unaligned = lv_chance(&r, 20);
	if (c->unaligned)
		c->frame_size = lv_range(&r, 2048, 4096);
	else
		c->frame_size = lv_chance(&r, 80) ? 2048 : 4096;
	c->headroom = lv_chance(&r, 30) ? lv_range(&r, 1, 512) : 0;
	c->frame_count = lv_pow2(&r, 4, 10);
	c->fill_size = lv_pow2(&r, 1, 10);
	c->comp_size = lv_pow2(&r, 1, 10);
	c->rx_size = lv_pow2(&r, 1, 10);
	c->tx_size = lv_pow2(&r, 1, 10);
	c->hw_ring = lv_log_range(&r, 1, 512);
	c->hw_tx_ring = lv_log_range(&r, 1, 256);
	c->napi_budget = lv_log_range(&r, 1, 128);
	c->nic_refill_batch = lv_log_range(&r, 1, c->hw_ring);
	/* 0: the library's default; it clamps larger values to FILL / 2. */
	c->refill_batch = lv_chance(&r, 30) ? 0 :
					      lv_log_range(&r, 1, c->fill_size);
	c->fill_frames = lv_chance(&r, 70) ? 0 :
					     lv_log_range(&r, 1, c->fill_size);
	/* Only a socket that both receives and sends has a reserve to keep. */
	if (c->shape == LV_FWD_ONE_SOCKET) {
		switch (lv_range(&r, 0, 2)) {
		case 0:
			c->tx_reserve = 0;
			break;
		case 1:
			c->tx_reserve = XSKX_TX_RESERVE_NONE;
			break;
		default:
			c->tx_reserve = lv_log_range(&r, 1, c->frame_count - 1);
			break;
		}
	}
	c->batch = lv_log_range(&r, 1, 256);
	if (lv_chance(&r, 50)) {
		c->pct_drop = lv_range(&r, 0, 15);
		c->pct_pass = lv_range(&r, 0, 15);
		c->pct_tx = lv_range(&r, 0, 15);
	}
	draw_weights(c, &r);
	c->steps = lv_range(&r, 1000, 4000);
}

void lv_config_describe(const struct lv_config *c, char *buf, size_t size)
{
	char reserve[16];

	if (c->tx_reserve == XSKX_TX_RESERVE_NONE)
		snprintf(reserve, sizeof(reserve), "none");
	else
		snprintf(reserve, sizeof(reserve), "%u", c->tx_reserve);
	snprintf(
		buf, size,
		"%s, %s%s, need_wakeup %s, rx-full %s; frames %u x %u%s, headroom %u; rings fill %u comp %u rx %u tx %u; hw rx %u tx %u, napi_budget %u, nic refill_batch %u; socket refill_batch %u fill_frames %u tx_reserve %s; batch %u; verdicts drop %u%% pass %u%% tx %u%%; %u steps",
		shape_names[c->shape],
		c->no_zero_copy ? "ports without zero-copy" : "zero-copy ports",
		c->busy_poll ? ", busy polling" : "",
		c->need_wakeup ? "on" : "off",
		c->policy == XSKX_SIM_RX_FULL_STOP ? "stop" : "drop",
		c->frame_count, c->frame_size, c->unaligned ? " unaligned" : "",
		c->headroom, c->fill_size, c->comp_size, c->rx_size, c->tx_size,
		c->hw_ring, c->hw_tx_ring, c->napi_budget, c->nic_refill_batch,
		c->refill_batch, c->fill_frames, reserve, c->batch, c->pct_drop,
		c->pct_pass, c->pct_tx, c->steps);
}

void lv_fail(const struct lv_world *w, const char *where, const char *fmt, ...)
{
	char what[1024], config[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	lv_config_describe(&w->cfg, config, sizeof(config));
	ck_abort_msg(
		"seed %llu, %s phase, step %llu, %s: %s [%s]\n  config: %s; bound in %s mode\n  rerun this seed alone: %s --seed %llu",
		(unsigned long long)w->cfg.seed, w->phase,
		(unsigned long long)w->step, w->doing, what, where, config,
		w->zero_copy ? "zero-copy" : "copy", lv_program,
		(unsigned long long)w->cfg.seed);
}

/* The verdict the packet asks for; anything unreadable is aborted. */
static enum xskx_xdp_verdict hook(uint8_t *data, uint32_t len, uint32_t queue,
				  void *ctx)
{
	(void)queue;
	(void)ctx;
	if (len < LV_MIN_LEN)
		return XSKX_XDP_ABORTED;
	return lv_packet_verdict(data);
}

/*
 * Runs inside the NIC's work, where an assertion must not unwind: it only
 * counts, and the step's checks look at the counts.
 */
static void sink(enum xskx_sim_sink_kind kind, const uint8_t *data,
		 uint32_t len, uint32_t queue, void *ctx)
{
	struct lv_sink *s = ctx;
	uint64_t seq;
	int class;

	(void)queue;
	if (kind == XSKX_SIM_SINK_STACK) {
		s->stack++;
		return;
	}
	s->tx++;
	if (len < LV_MIN_LEN) {
		s->malformed++;
		return;
	}
	seq = lv_packet_seq(data);
	class = lv_packet_verdict(data) == XSKX_XDP_TX;
	if (len != lv_packet_len(seq))
		s->malformed++;
	if (s->seen[class] && seq <= s->last_seq[class])
		s->disorder++;
	s->seen[class] = true;
	s->last_seq[class] = seq;
}

static struct xskx_sim_port *make_port(struct lv_world *w, const char *name,
				       struct lv_sink *s)
{
	const struct lv_config *c = &w->cfg;
	XSKX_OPTS(xskx_port_opts, lib_opts,
		  .flags = c->busy_poll ? XSKX_PORT_BUSY_POLL : 0);
	XSKX_OPTS(xskx_sim_port_opts, opts, .name = name,
		  .hw_ring_size = c->hw_ring, .hw_tx_ring_size = c->hw_tx_ring,
		  .napi_budget = c->napi_budget,
		  .refill_batch = c->nic_refill_batch,
		  .rx_full_policy = c->policy, .no_zero_copy = c->no_zero_copy);
	struct xskx_sim_port *port;

	LV_CHECK(w, !xskx_sim_port_create(w->sim, &opts, &port),
		 "xskx_sim_port_create: %s", xskx_last_error());
	LV_CHECK(w, !xskx_sim_port_set_xdp(port, hook, NULL), "set_xdp");
	LV_CHECK(w, !xskx_sim_port_set_sink(port, sink, s), "set_sink");
	LV_CHECK(w, !xskx_port_open_sim(&w->ports[w->nports++], port, &lib_opts),
		 "xskx_port_open_sim: %s", xskx_last_error());
	return port;
}

static struct xskx_socket *
open_socket(struct lv_world *w, struct xskx_port *port, uint32_t flags)
{
	const struct lv_config *c = &w->cfg;
	XSKX_OPTS(xskx_socket_opts, opts, .port = port,
		  .rx_size = c->rx_size, .tx_size = c->tx_size,
		  .flags = flags |
			   (c->need_wakeup ? 0 : XSKX_SOCKET_NO_WAKEUP),
		  .refill_batch = c->refill_batch,
		  .fill_frames = c->fill_frames, .tx_reserve = c->tx_reserve);
	struct xskx_socket *s;

	LV_CHECK(w, !xskx_socket_open(&s, w->umem, &opts),
		 "xskx_socket_open: %s", xskx_last_error());
	w->socks[w->nsocks++] = s;
	return s;
}

void lv_world_create(struct lv_world *w, const struct lv_config *cfg)
{
	struct xskx_socket_info info;
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC,
		  .busy_poll = cfg->busy_poll);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = cfg->frame_count,
		  .frame_size = cfg->frame_size, .headroom = cfg->headroom,
		  .fill_size = cfg->fill_size, .comp_size = cfg->comp_size,
		  .flags = cfg->unaligned ? XSKX_UMEM_UNALIGNED : 0);

	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	/* The interleaving's stream, apart from the configuration's. */
	lv_rng_seed(&w->rng, ~cfg->seed);
	w->phase = "setup";
	w->doing = "building the machine";
	/* Nothing in a run is a failure the library should report. */
	test_log_capture();
	LV_CHECK(w, !xskx_sim_create(&w->sim, &sim_opts), "xskx_sim_create: %s",
		 xskx_last_error());
	w->in = make_port(w, "in", &w->sink_in);
	w->out = make_port(w, "out", &w->sink_out);
	LV_CHECK(w, !xskx_umem_create(&w->umem, &umem_opts),
		 "xskx_umem_create: %s", xskx_last_error());
	w->held = calloc(cfg->frame_count, sizeof(*w->held));
	LV_CHECK(w, w->held != NULL, "out of memory");

	switch (cfg->shape) {
	case LV_RXDROP:
		w->rx = open_socket(w, w->ports[0], XSKX_SOCKET_NO_TX);
		break;
	case LV_TXONLY:
		w->tx = open_socket(w, w->ports[1], XSKX_SOCKET_NO_RX);
		break;
	case LV_FWD_TWO_PORTS:
		w->rx = open_socket(w, w->ports[0], XSKX_SOCKET_NO_TX);
		w->tx = open_socket(w, w->ports[1], XSKX_SOCKET_NO_RX);
		break;
	case LV_FWD_ONE_SOCKET:
		w->rx = w->tx = open_socket(w, w->ports[0], 0);
		break;
	default:
		w->rx = open_socket(w, w->ports[0], XSKX_SOCKET_NO_TX);
		w->tx = open_socket(w, w->ports[0], XSKX_SOCKET_NO_RX);
		break;
	}
	LV_CHECK(w, !xskx_socket_info(w->socks[0], &info), "xskx_socket_info");
	w->zero_copy = info.zero_copy;
	/*
	 * A random geometry may draw an open's warning (rings longer than
	 * the frames can fill); what the steps log is what counts.
	 */
	test_log_reset();
}

struct xskx_sim_port *lv_tx_port(const struct lv_world *w)
{
	return w->cfg.shape == LV_TXONLY || w->cfg.shape == LV_FWD_TWO_PORTS ?
		       w->out :
		       w->in;
}

void lv_world_destroy(struct lv_world *w)
{
	char why[384];

	w->phase = "teardown";
	w->doing = "closing";
	for (uint32_t i = 0; i < w->nsocks; i++)
		LV_CHECK(w, !xskx_socket_close(w->socks[i]),
			 "xskx_socket_close: %s", xskx_last_error());
	LV_CHECK(w, test_census_all_in_pool(w->umem, why, sizeof(why)),
		 "after closing the sockets: %s", why);
	LV_CHECK(w, !xskx_umem_destroy(w->umem), "xskx_umem_destroy");
	for (uint32_t i = 0; i < w->nports; i++)
		LV_CHECK(w, !xskx_port_close(w->ports[i]), "xskx_port_close: %s",
			 xskx_last_error());
	LV_CHECK(w, !xskx_sim_destroy(w->sim), "xskx_sim_destroy");
	free(w->held);
}
