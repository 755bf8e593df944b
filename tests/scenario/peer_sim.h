/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The test peer on the simulated NIC: two single-queue ports joined by a wire. */
#ifndef XSKX_TEST_PEER_SIM_H
#define XSKX_TEST_PEER_SIM_H

#include <xskx-sim/sim.h>

#include "peer.h"

/*
 * A fresh simulated machine in mode: deterministic (pump() is one
 * xskx_sim_poll() round) or threaded (the NIC thread runs from here until
 * quiesce()). 0 or a negative errno.
 */
int test_peer_sim_create(struct test_peer **peer, enum xskx_sim_mode mode);

#endif /* XSKX_TEST_PEER_SIM_H */
