/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --sim of xskx-l2fwd and xskx-fw: the simulated NIC the forwarding core
 * runs on instead of kernel interfaces.
 */
#ifndef XSKX_EXAMPLES_FWD_SIM_H
#define XSKX_EXAMPLES_FWD_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_opts.h"
#include "fwd.h"

/*
 * A NIC on a thread of its own, as a real NIC runs beside the program, with
 * nports ports ("sim0", "sim1") of queues queues (0: 1) each, and a traffic
 * source as source says on every port; with capture->in, that capture
 * replayed on the first port instead and no other source; with
 * capture->out, what the last port sends written there. ports[] and
 * names[] get each port and its name. A failure is reported
 * (run_lib_error) and returned; what was made stays in *sim for
 * fwd_sim_destroy.
 */
int fwd_sim_create(uint32_t nports, uint32_t queues,
		   const struct xskx_sim_source_opts *source,
		   const struct capture_opts *capture, struct xskx_sim **sim,
		   struct xskx_sim_port *ports[], const char *names[]);

/*
 * The end of a run with --pcap-out: close the file (complete once this
 * returns 0) and say how many frames it holds. A failure is reported.
 */
int fwd_sim_capture_close(struct xskx_sim_port *out, const char *path,
			  const char *program);

/* Stop and free *sim, if any; report a failure. */
void fwd_sim_destroy(struct xskx_sim **sim);

/*
 * A replay's end: what the stages had handled at the last look, and how
 * many looks in a row found it all handled and unchanged.
 */
struct fwd_sim_replay {
	uint64_t seen[4];
	uint32_t still;
};

/*
 * True once the capture replayed on in (finite loops) is handled all
 * through: the source is done, the NIC judged every frame (missed, dropped,
 * passed or redirected), the program received every frame redirected to
 * it (app_rx: its rx on in), the last port sent every frame its TX ring
 * took (app_tx: its tx on out), and so it stayed over a few looks in a row
 * (one every run loop tick), so that a frame still held in the program
 * between its rings cannot pass unseen.
 */
bool fwd_sim_replay_done(struct fwd_sim_replay *r, const struct xskx_sim *sim,
			 const struct xskx_sim_port *in,
			 const struct xskx_sim_port *out, uint64_t app_rx,
			 uint64_t app_tx);

#endif /* XSKX_EXAMPLES_FWD_SIM_H */
