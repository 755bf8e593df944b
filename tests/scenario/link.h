/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A link: the selftests' layout of one socket on each port of the peer,
 * each on a UMEM of its own, plus the step and time budget that bounds every
 * loop of a scenario. Port A's socket transmits and port B's receives,
 * unless the scenario asks for both directions.
 */
#ifndef XSKX_TEST_LINK_H
#define XSKX_TEST_LINK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <xskx/xskx.h>

#include "peer.h"
#include "scenario.h"

struct link_config {
	struct xskx_umem_opts umem[2];
	struct xskx_socket_opts sock[2]; /* backend fields come from the peer */
	/*
	 * Take every frame of that side's UMEM out of its pool before its
	 * socket opens: the socket starts with an empty FILL ring, and the
	 * scenario owns the whole area (to drive TX by hand).
	 */
	bool hold_all_frames[2];
	/* Install this XDP program on each port before the sockets open. */
	enum test_xdp_prog xdp[2];
	/* XSKX_PORT_* flags each port is opened with (peer->set_port_flags). */
	uint32_t port_flags[2];
	/*
	 * One UMEM for both sockets (XDP_SHARED_UMEM across the two ports,
	 * each socket with its own FILL/COMPLETION pair), made from umem[A];
	 * not with hold_all_frames.
	 */
	bool shared_umem;
	/* Both ports' MTU, set before anything else; 0: the peer's 1500. */
	uint32_t mtu;
};

struct test_link {
	struct test_peer *peer;
	struct xskx_umem *umem[2]; /* the same one twice with shared_umem */
	struct xskx_socket *sock[2];
	struct xskx_port *port[2]; /* the library's port of each socket */
	uint64_t *held[2]; /* frames taken with hold_all_frames */
	uint32_t nheld[2];
	uint64_t turns;
	uint64_t max_turns;
	struct timespec deadline;
};

/* "A" or "B", for messages. */
const char *link_port_name(enum test_port port);

/* A transmits, B receives; library defaults everywhere else. */
void link_config_init(struct link_config *cfg);

/* Both sockets transmit and receive. */
void link_config_both_ways(struct link_config *cfg);

/* A to B as link_config_init(), both sockets multi-buffer, MTU 9000. */
void link_config_jumbo(struct link_config *cfg);

/*
 * Create both UMEMs and open both sockets. False (scenario failed or
 * skipped, everything undone) when something could not be set up.
 */
bool link_open(struct test_link *link, struct test_peer *peer,
	       const struct link_config *cfg, struct scenario_result *r);

/* Give the frames taken with hold_all_frames back to the pool. */
void link_release_held(struct test_link *link, enum test_port port);

/*
 * One turn of a scenario loop: pump the peer once. False, with the scenario
 * failed saying what it was waiting_for, when the pump failed or the step
 * or time budget ran out.
 */
bool link_turn(struct test_link *link, struct scenario_result *r,
	       const char *waiting_for);

/* Pump until the peer is idle (deterministic peers) or a few turns pass. */
bool link_settle(struct test_link *link, struct scenario_result *r);

/* The peer's statistics and the library's counters for port's socket. */
bool link_stats(struct test_link *link, enum test_port port,
		struct xskx_stats *stats, struct scenario_result *r);

/*
 * Bring the peer to rest, check that every frame of both UMEMs is accounted
 * for (only held frames with the application), close both sockets, check
 * that every frame is back in its pool, and free the UMEMs. Runs the checks
 * only while the scenario still passes, but always frees everything.
 */
void link_close(struct test_link *link, struct scenario_result *r);

#endif /* XSKX_TEST_LINK_H */
