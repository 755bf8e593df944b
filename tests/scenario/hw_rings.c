// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The hardware rings at the smallest and the largest sizes a driver takes
 * (ethtool -G), with the socket's rings and the application's batches
 * around them: a batch of one, a batch of all but one hardware descriptor,
 * software rings four times the default over a hardware ring at its
 * largest. Packets must flow whatever the hardware ring holds compared with
 * the rings and batches on the socket's side: the selftests'
 * HW_SW_MIN_RING_SIZE and HW_SW_MAX_RING_SIZE.
 */
#include <errno.h>

#include "traffic.h"

/* The selftests' smallest hardware rings: TX 64 descriptors, RX twice that. */
#define HW_MIN_TX 64u
#define HW_MIN_RX 128u
/* HW_SW_MAX_RING_SIZE: the receiver's UMEM frames and ring entries. */
#define HW_MAX_DESCS (4u * XSKX_RING_DEFAULT_SIZE)
/*
 * Its second batch stops this short of the hardware TX ring, as the
 * selftests do for ice, whose tail register ignores the 3 lowest bits.
 */
#define HW_MAX_BATCH_SLACK 8u

static bool size_hw_rings(struct test_peer *peer, uint32_t *rx, uint32_t *tx,
			  struct scenario_result *r)
{
	int err = peer->set_hw_rings(peer, rx, tx);

	if (err == -EOPNOTSUPP) {
		scenario_skip(
			r,
			"peer %s cannot resize its hardware rings (ETHTOOL_SRINGPARAM: operation not supported)",
			peer->name);
		return false;
	}
	if (err)
		return scenario_fail(r, "peer %s: set_hw_rings: %s", peer->name,
				     xskx_strerror(err));
	return true;
}

struct hw_step {
	uint32_t count; /* packets */
	uint32_t batch; /* per burst, sending and receiving */
};

/* Both steps over one link, as the selftests' two steps reuse their sockets. */
static void two_steps(struct test_peer *peer, const struct link_config *cfg,
		      const struct hw_step steps[2], struct scenario_result *r)
{
	struct test_stream stream[2] = { 0 };
	struct test_link link;

	for (int i = 0; i < 2; i++)
		if (stream_init(&stream[i], steps[i].count, TEST_PKT_LEN)) {
			scenario_fail(r, "out of memory");
			goto out;
		}
	if (!link_open(&link, peer, cfg, r))
		goto out;
	for (int i = 0; i < 2 && scenario_ok(r); i++) {
		struct traffic_opts opts;

		traffic_opts_init(&opts, TEST_PORT_A);
		opts.batch = steps[i].batch;
		/* Room for one whole batch in flight. */
		opts.window = steps[i].batch;
		traffic_run(&link, &stream[i], &opts, r);
	}
	link_close(&link, r);
out:
	for (int i = 0; i < 2; i++)
		stream_free(&stream[i]);
}

void scenario_hw_sw_min_ring_size(struct test_peer *peer,
				  struct scenario_result *r)
{
	uint32_t rx = HW_MIN_RX, tx = HW_MIN_TX;
	struct link_config cfg;

	if (!size_hw_rings(peer, &rx, &tx, r))
		return;
	link_config_init(&cfg);
	two_steps(peer, &cfg,
		  (const struct hw_step[2]){ { TEST_PKT_COUNT, 1 },
					     { TEST_PKT_COUNT, tx - 1 } },
		  r);
}

void scenario_hw_sw_max_ring_size(struct test_peer *peer,
				  struct scenario_result *r)
{
	uint32_t rx = 0, tx = 0;
	struct link_config cfg;

	if (!size_hw_rings(peer, &rx, &tx, r))
		return;
	link_config_init(&cfg);
	cfg.umem[TEST_PORT_B].frame_count = HW_MAX_DESCS;
	cfg.umem[TEST_PORT_B].fill_size = HW_MAX_DESCS;
	cfg.umem[TEST_PORT_B].comp_size = HW_MAX_DESCS;
	cfg.sock[TEST_PORT_B].rx_size = HW_MAX_DESCS;
	two_steps(peer, &cfg,
		  (const struct hw_step[2]){
			  { TEST_PKT_COUNT, XSKX_RING_DEFAULT_SIZE },
			  { HW_MAX_DESCS, tx - HW_MAX_BATCH_SLACK } },
		  r);
}
