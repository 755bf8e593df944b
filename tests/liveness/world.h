/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One run of the lost-wakeup test: a configuration drawn from a seed (ring
 * sizes, NIC budget, policies...), the simulated machine and sockets built
 * from it, the application's state, and where the run is (for messages).
 *
 * Everything a run does follows from its seed, so `test_lost_wakeup --seed
 * N` replays a failure step by step.
 */
#ifndef LV_WORLD_H
#define LV_WORLD_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "prng.h"

/* What the application does with the traffic. */
enum lv_shape {
	LV_RXDROP,	   /* receive on port in, release */
	LV_TXONLY,	   /* build packets in fresh frames, send on port out */
	LV_FWD_TWO_PORTS,  /* receive on in, send the same frames on out */
	LV_FWD_ONE_SOCKET, /* one socket on in with both rings, sends back */
	/*
	 * An RX socket and a TX socket on the same queue of in, sharing one
	 * FILL/COMPLETION pair; sends back out of in.
	 */
	LV_FWD_SHARED_QUEUE,
	LV_SHAPES,
};

static inline bool lv_receives(enum lv_shape shape)
{
	return shape != LV_TXONLY;
}

static inline bool lv_sends(enum lv_shape shape)
{
	return shape != LV_RXDROP;
}

enum lv_action {
	LV_INJECT,   /* packets arrive at port in */
	LV_NIC_POLL, /* xskx_sim_poll(): the NIC's own work */
	LV_RX_BURST,
	LV_RELEASE, /* let go of held frames without sending them */
	LV_TX_BURST,
	LV_RECLAIM,
	LV_SOCKET_POLL,	  /* xskx_socket_poll(), never waiting */
	LV_TOGGLE_STALL,  /* TX stalled / unstalled */
	LV_TOGGLE_LINK,	  /* both ports' links down / up */
	LV_TOGGLE_STARVE, /* the application starts / stops holding frames */
	LV_ACTIONS,
};

struct lv_config {
	uint64_t seed;
	enum lv_shape shape;
	bool no_zero_copy; /* ports without zero-copy: copy mode */
	bool need_wakeup;
	/*
	 * The NIC runs only inside the sockets' kicks, which come on every
	 * idle burst (xskx_sim_opts.busy_poll, XSKX_PORT_BUSY_POLL).
	 */
	bool busy_poll;
	enum xskx_sim_rx_full_policy policy;
	uint32_t frame_count, frame_size, headroom;
	bool unaligned; /* XSKX_UMEM_UNALIGNED, frames of any size */
	uint32_t fill_size, comp_size, rx_size, tx_size;
	uint32_t hw_ring, hw_tx_ring, napi_budget, nic_refill_batch;
	uint32_t refill_batch, fill_frames, tx_reserve; /* socket options */
	uint32_t batch; /* most packets per burst call */
	/* Verdicts of the XDP hook other than REDIRECT, in percent. */
	uint32_t pct_drop, pct_pass, pct_tx;
	uint32_t weight[LV_ACTIONS];
	uint32_t steps; /* of the random phase */
};

/* What arrives at a port's sink, checked as it arrives. */
struct lv_sink {
	uint64_t tx, stack;
	/* Order per class: 0 sent by a socket, 1 reflected by XDP_TX. */
	uint64_t last_seq[2];
	bool seen[2];
	uint64_t disorder;  /* a sequence number not above the last one */
	uint64_t malformed; /* a length that does not match the number */
};

struct lv_world {
	struct lv_config cfg;
	struct lv_rng rng; /* the interleaving (the config has its own) */

	struct xskx_sim *sim;
	struct xskx_sim_port *in,
		*out; /* in receives; out sends (TXONLY, FWD_TWO_PORTS) */
	struct xskx_port *ports[2]; /* the library's: on in, on out */
	uint32_t nports;
	struct xskx_umem *umem;
	struct xskx_socket *rx,
		*tx; /* either may be NULL; equal in FWD_ONE_SOCKET */
	struct xskx_socket *socks[2]; /* the distinct sockets */
	uint32_t nsocks;
	struct lv_sink sink_in, sink_out;
	/*
	 * How the sockets were bound: zero-copy ports still bind in copy mode
	 * when an MTU-sized packet does not fit a frame past the headroom.
	 */
	bool zero_copy;

	/* The application: frames it holds, oldest first (send order). */
	struct xskx_pkt *held;
	uint32_t nheld;
	uint64_t next_seq; /* of the next packet injected or built */
	uint64_t injected; /* packets put on port in */
	uint64_t built;	   /* TXONLY packets written into frames */
	uint64_t received; /* packets xskx_rx_burst returned */
	uint64_t accepted; /* packets xskx_tx_burst took */
	uint64_t let_go;   /* held frames released without sending */
	uint64_t last_rx_seq;
	bool rx_seen;
	bool starving, stalled, link_down;

	/* Where the run is, for failure messages. */
	const char *phase;
	uint64_t step;
	const char *doing;
	uint64_t drain_steps;
};

/* Draw a configuration from a seed. */
void lv_config_draw(struct lv_config *cfg, uint64_t seed);

/* The configuration in one line, for messages. */
void lv_config_describe(const struct lv_config *cfg, char *buf, size_t size);

/* Build the machine, the UMEM and the sockets of cfg. */
void lv_world_create(struct lv_world *w, const struct lv_config *cfg);

/* Close everything, checking that every frame came back to the pool. */
void lv_world_destroy(struct lv_world *w);

const char *lv_action_name(enum lv_action action);

/* The port that sends. */
struct xskx_sim_port *lv_tx_port(const struct lv_world *w);

/* The program name for "rerun" lines (argv[0]). */
extern const char *lv_program;

/*
 * Fail the test with the seed, the phase and step, what it was doing, the
 * configuration and how to rerun just this seed.
 */
void lv_fail(const struct lv_world *w, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#define LV_STR2(x) #x
#define LV_STR(x) LV_STR2(x)
#define LV_CHECK(w, cond, ...)                                                 \
	do {                                                                   \
		if (!(cond))                                                   \
			lv_fail(w, __FILE__ ":" LV_STR(__LINE__),              \
				__VA_ARGS__);                                  \
	} while (0)

#endif /* LV_WORLD_H */
