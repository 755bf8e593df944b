// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "link.h"
#include "stream.h"

/* Far more turns than any scenario needs; the time limit usually bites first. */
#define LINK_MAX_TURNS 2000000u
#define LINK_SETTLE_TURNS 1000u
#define LINK_SETTLE_TURNS_ASYNC 20u

static const char *const port_names[] = { "A", "B" };

const char *link_port_name(enum test_port port)
{
	return port_names[port];
}

void link_config_init(struct link_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (int p = 0; p < 2; p++) {
		cfg->umem[p].sz = sizeof(cfg->umem[p]);
		cfg->sock[p].sz = sizeof(cfg->sock[p]);
	}
	cfg->sock[TEST_PORT_A].flags = XSKX_SOCKET_NO_RX;
	cfg->sock[TEST_PORT_B].flags = XSKX_SOCKET_NO_TX;
}

void link_config_both_ways(struct link_config *cfg)
{
	cfg->sock[TEST_PORT_A].flags &= ~XSKX_SOCKET_NO_RX;
	cfg->sock[TEST_PORT_B].flags &= ~XSKX_SOCKET_NO_TX;
}

void link_config_jumbo(struct link_config *cfg)
{
	link_config_init(cfg);
	cfg->mtu = TEST_JUMBO_LEN;
	cfg->sock[TEST_PORT_A].flags |= XSKX_SOCKET_MULTI_BUFFER;
	cfg->sock[TEST_PORT_B].flags |= XSKX_SOCKET_MULTI_BUFFER;
}

/* Free whatever is still open; a failure to free fails r unless it failed already. */
static void close_all(struct test_link *link, struct scenario_result *r)
{
	for (int p = 0; p < 2; p++) {
		if (link->sock[p])
			xskx_socket_close(link->sock[p]);
		link->sock[p] = NULL;
		link_release_held(link, (enum test_port)p);
		free(link->held[p]);
		link->held[p] = NULL;
	}
	/* A shared UMEM is destroyed once, as port A's. */
	if (link->umem[TEST_PORT_B] == link->umem[TEST_PORT_A])
		link->umem[TEST_PORT_B] = NULL;
	for (int p = 0; p < 2; p++) {
		int err = link->umem[p] ? xskx_umem_destroy(link->umem[p]) : 0;

		if (err && scenario_ok(r))
			scenario_fail(r, "port %s: xskx_umem_destroy: %s",
				      port_names[p], xskx_strerror(err));
		link->umem[p] = NULL;
	}
}

static bool hold_all_frames(struct test_link *link, enum test_port p,
			    struct scenario_result *r)
{
	uint32_t frames = xskx_umem_frame_count(link->umem[p]);

	link->held[p] = calloc(frames, sizeof(uint64_t));
	if (!link->held[p])
		return scenario_fail(r, "out of memory");
	link->nheld[p] = xskx_frame_alloc(link->umem[p], link->held[p], frames);
	if (link->nheld[p] != frames)
		return scenario_fail(
			r,
			"port %s: a fresh UMEM handed out %u of its %u frames",
			port_names[p], link->nheld[p], frames);
	return true;
}

static bool open_side(struct test_link *link, const struct link_config *cfg,
		      enum test_port p, struct scenario_result *r)
{
	struct xskx_socket_opts opts;
	int err = 0;

	/* memcpy, not assignment: the padding goes along (xskx/opts.h). */
	memcpy(&opts, &cfg->sock[p], sizeof(opts));

	if (cfg->shared_umem && p != TEST_PORT_A) {
		link->umem[p] = link->umem[TEST_PORT_A];
	} else {
		struct xskx_umem_opts umem_opts;

		memcpy(&umem_opts, &cfg->umem[p], sizeof(umem_opts));
		if (umem_opts.flags & XSKX_UMEM_UNALIGNED)
			umem_opts.flags |= link->peer->unaligned_umem_flags;
		err = xskx_umem_create(&link->umem[p], &umem_opts);
	}
	if (err) {
		link->umem[p] = NULL;
		return scenario_fail(r, "port %s: xskx_umem_create: %s: %s",
				     port_names[p], xskx_strerror(err),
				     xskx_last_error());
	}
	if (cfg->hold_all_frames[p] && !hold_all_frames(link, p, r))
		return false;
	link->peer->bind(link->peer, p, &opts);
	link->port[p] = opts.port;
	err = xskx_socket_open(&link->sock[p], link->umem[p], &opts);
	if (err) {
		link->sock[p] = NULL;
		return scenario_fail(r, "port %s: xskx_socket_open: %s: %s",
				     port_names[p], xskx_strerror(err),
				     xskx_last_error());
	}
	/*
	 * The UMEM's last socket to open: a first, empty burst posts its
	 * frames on FILL now, before the other side sends (a threaded NIC
	 * delivers at once), unless the scenario chose what FILL starts with.
	 */
	if (!(opts.flags & XSKX_SOCKET_NO_RX) && !opts.fill_frames &&
	    !cfg->hold_all_frames[p]) {
		err = xskx_rx_burst(link->sock[p], NULL, 0);
		if (err < 0)
			return scenario_fail(
				r, "port %s: first xskx_rx_burst: %s: %s",
				port_names[p], xskx_strerror(err),
				xskx_last_error());
	}
	return true;
}

bool link_open(struct test_link *link, struct test_peer *peer,
	       const struct link_config *cfg, struct scenario_result *r)
{
	memset(link, 0, sizeof(*link));
	link->peer = peer;
	link->max_turns = LINK_MAX_TURNS;
	clock_gettime(CLOCK_MONOTONIC, &link->deadline);
	link->deadline.tv_sec += peer->time_limit_s;

	if (cfg->mtu) {
		int err = peer->set_mtu(peer, cfg->mtu);

		if (err == -EOPNOTSUPP) {
			scenario_skip(r, "peer %s cannot run MTU %u%s%s",
				      peer->name, cfg->mtu,
				      peer->unsupported_why ? ": " : "",
				      peer->unsupported_why ?
					      peer->unsupported_why :
					      "");
			return false;
		}
		if (err)
			return scenario_fail(r, "set_mtu %u: %s", cfg->mtu,
					     xskx_strerror(err));
	}
	for (int p = 0; p < 2; p++)
		if (cfg->port_flags[p])
			peer->set_port_flags(peer, (enum test_port)p,
					     cfg->port_flags[p]);
	for (int p = 0; p < 2; p++) {
		int err;

		if (cfg->xdp[p] == TEST_XDP_REDIRECT)
			continue;
		err = peer->set_xdp(peer, (enum test_port)p, cfg->xdp[p]);
		if (err == -EOPNOTSUPP) {
			scenario_skip(
				r,
				"peer %s cannot run the XDP program this scenario needs%s%s",
				peer->name, peer->unsupported_why ? ": " : "",
				peer->unsupported_why ? peer->unsupported_why :
							"");
			return false;
		}
		if (err)
			return scenario_fail(r, "port %s: set_xdp: %s",
					     port_names[p], xskx_strerror(err));
	}
	for (int p = 0; p < 2; p++) {
		if (!open_side(link, cfg, (enum test_port)p, r)) {
			peer->quiesce(peer);
			close_all(link, r);
			return false;
		}
	}
	return true;
}

void link_release_held(struct test_link *link, enum test_port port)
{
	if (link->nheld[port])
		xskx_frame_free(link->umem[port], link->held[port],
				link->nheld[port]);
	link->nheld[port] = 0;
}

static bool past_deadline(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec ||
	       (now.tv_sec == deadline->tv_sec &&
		now.tv_nsec > deadline->tv_nsec);
}

bool link_turn(struct test_link *link, struct scenario_result *r,
	       const char *waiting_for)
{
	int ret;

	if (++link->turns > link->max_turns)
		return scenario_fail(r, "still waiting for %s after %llu turns",
				     waiting_for,
				     (unsigned long long)link->max_turns);
	if ((link->turns & 255) == 0 && past_deadline(&link->deadline))
		return scenario_fail(r, "still waiting for %s after %u s",
				     waiting_for, link->peer->time_limit_s);
	ret = link->peer->pump(link->peer);
	if (ret < 0)
		return scenario_fail(r, "peer %s: pump: %s", link->peer->name,
				     xskx_strerror(ret));
	return true;
}

bool link_settle(struct test_link *link, struct scenario_result *r)
{
	bool exact = link->peer->caps & TEST_PEER_DETERMINISTIC;
	unsigned int turns = exact ? LINK_SETTLE_TURNS :
				     LINK_SETTLE_TURNS_ASYNC;

	for (unsigned int i = 0; i < turns; i++) {
		int ret = link->peer->pump(link->peer);

		if (ret < 0)
			return scenario_fail(r, "peer %s: pump: %s",
					     link->peer->name,
					     xskx_strerror(ret));
		if (exact && ret == 0)
			return true;
	}
	if (exact)
		return scenario_fail(
			r, "the peer still moves packets after %u polls",
			turns);
	return true;
}

bool link_stats(struct test_link *link, enum test_port port,
		struct xskx_stats *stats, struct scenario_result *r)
{
	int err = xskx_socket_stats(link->sock[port], stats);

	if (err)
		return scenario_fail(r, "port %s: xskx_socket_stats: %s",
				     port_names[port], xskx_strerror(err));
	return true;
}

static void check_census(struct test_link *link, struct scenario_result *r,
			 const char *when, bool all_in_pool)
{
	bool counted = link->peer->caps & TEST_PEER_COUNTS_FRAMES;
	struct xskx_frame_census c;
	char why[384];

	for (int p = 0; p < 2 && scenario_ok(r); p++) {
		bool ok = all_in_pool ?
				  test_census_all_in_pool(link->umem[p], why,
							  sizeof(why)) :
				  test_census_ok(link->umem[p], link->nheld[p],
						 why, sizeof(why));

		if (!ok)
			scenario_fail(r, "port %s UMEM %s: %s", port_names[p],
				      when, why);
		else if (!all_in_pool && counted &&
			 (xskx_umem_census(link->umem[p], &c) ||
			  !c.nic_counted))
			scenario_fail(
				r,
				"port %s UMEM %s: peer %s did not count the frames it holds",
				port_names[p], when, link->peer->name);
	}
}

void link_close(struct test_link *link, struct scenario_result *r)
{
	int err = link->peer->quiesce(link->peer);

	if (err && scenario_ok(r))
		scenario_fail(r, "peer %s: quiesce: %s", link->peer->name,
			      xskx_strerror(err));
	if (scenario_ok(r))
		check_census(link, r, "after the traffic", false);
	for (int p = 0; p < 2; p++) {
		link_release_held(link, (enum test_port)p);
		err = xskx_socket_close(link->sock[p]);
		link->sock[p] = NULL;
		if (err && scenario_ok(r))
			scenario_fail(r, "port %s: xskx_socket_close: %s",
				      port_names[p], xskx_strerror(err));
	}
	if (scenario_ok(r))
		check_census(link, r, "after closing the sockets", true);
	close_all(link, r);
}
