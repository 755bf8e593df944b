// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the capture writer (examples/common/capture_writer.h) costs the
 * forwarding path: xskx-l2fwd's forwarding core (fwd_step) between two
 * ports of the deterministic simulated NIC, sim0's source sending PACKETS
 * UDP frames of SIZE bytes to sim1, with or without --pcap-out's copy into
 * a writer's ring. scripts/pcap-writer-cost.sh counts fwd_step()'s
 * instructions with callgrind and divides by the packets forwarded.
 *
 *   capture_cost [--stall] PACKETS SIZE [FILE [SLOTS [SNAPLEN]]]
 *
 * --stall: sim1 takes nothing from TX in rounds 10 to 199, so that its TX
 * ring fills and the forwarder holds what TX cannot take (the test's
 * check that only what TX accepted is copied; not for counting).
 * FILE: the writer's pcap file; SLOTS and SNAPLEN its ring's (default
 * CAPTURE_DEFAULT_SLOTS and _SNAPLEN). A ring of PACKETS slots never fills,
 * so that every packet pays for its copy and the count is the same on
 * every run; a smaller one fills as the writer thread lags behind.
 *
 * Prints "forwarded N written W queue_full F" and exits 0 only when every
 * packet was forwarded and, with FILE, written or counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xskx-sim/sim.h>

#include "capture_writer.h"
#include "fwd.h"

#define MAX_ROUNDS 10000000u
#define STALL_FROM 10u
#define STALL_UNTIL 200u

static int fail(const char *what, int err)
{
	fprintf(stderr, "capture_cost: %s: %s (%s)\n", what, strerror(-err),
		xskx_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_port_opts, port_opts);
	struct capture_writer *writer = NULL;
	struct capture_writer_stats st = { 0 };
	struct xskx_sim_port *sim_ports[2];
	struct fwd_config cfg = { .nports = 2 };
	struct xskx_sim *sim;
	struct fwd_queue q;
	uint64_t packets;
	uint32_t size;
	bool stall;
	int err;

	stall = argc > 1 && !strcmp(argv[1], "--stall");
	argc -= stall;
	argv += stall;
	/* Stalled: more frames than sim1's TX ring holds, so that it fills. */
	cfg.frames = stall ? 16384 : 4096;
	if (argc < 3 || argc > 6) {
		fprintf(stderr,
			"usage: capture_cost [--stall] PACKETS SIZE [FILE [SLOTS [SNAPLEN]]]\n");
		return 2;
	}
	packets = strtoull(argv[1], NULL, 10);
	size = (uint32_t)strtoul(argv[2], NULL, 10);
	if (argc >= 4) {
		const struct capture_writer_opts o = {
			.program = "capture_cost",
			.flag = "FILE",
			.path = argv[3],
			.format = CAPTURE_PCAP,
			.rings = 1,
			.slots = argc > 4 ?
					 (uint32_t)strtoul(argv[4], NULL, 10) :
					 CAPTURE_DEFAULT_SLOTS,
			.snaplen = argc > 5 ? (uint32_t)strtoul(argv[5], NULL,
								10) :
					      CAPTURE_DEFAULT_SNAPLEN,
		};

		if (capture_writer_open(&writer, &o))
			return 1;
		cfg.capture = writer;
	}
	if ((err = xskx_sim_create(&sim, &sim_opts)))
		return fail("xskx_sim_create", err);
	for (uint32_t i = 0; i < 2; i++) {
		XSKX_OPTS(xskx_sim_port_opts, o, .name = i ? "sim1" : "sim0");

		if ((err = xskx_sim_port_create(sim, &o, &sim_ports[i])) ||
		    (err = xskx_port_open_sim(&cfg.ports[i], sim_ports[i],
					      &port_opts)))
			return fail("a port", err);
	}
	XSKX_OPTS(xskx_sim_source_opts, source, .pkt_size = size,
		  .count = packets, .flows = 8);
	if ((err = xskx_sim_port_add_source(sim_ports[0], &source)))
		return fail("xskx_sim_port_add_source", err);
	if ((err = fwd_open(&q, &cfg)))
		return fail("fwd_open", err);
	for (uint32_t round = 0;
	     q.ports[1].count.tx < packets && round < MAX_ROUNDS; round++) {
		struct xskx_sim_faults faults = {
			.tx_stalled = stall && round >= STALL_FROM &&
				      round < STALL_UNTIL,
		};

		if ((err = xskx_sim_port_set_faults(sim_ports[1], &faults)))
			return fail("xskx_sim_port_set_faults", err);
		if ((err = xskx_sim_poll(sim)) < 0 || (err = fwd_step(&q)) < 0)
			return fail("forwarding", err);
	}
	fwd_finish(&q);
	if (writer && capture_writer_close(writer, &st))
		return 1;
	printf("forwarded %llu written %llu queue_full %llu\n",
	       (unsigned long long)q.ports[1].count.tx,
	       (unsigned long long)st.written,
	       (unsigned long long)st.queue_full);
	err = q.ports[1].count.tx == packets &&
			      (!writer ||
			       st.written + st.queue_full == packets) ?
		      0 :
		      1;
	fwd_close(&q);
	for (uint32_t i = 0; i < 2; i++)
		xskx_port_close(cfg.ports[i]);
	xskx_sim_destroy(sim);
	return err;
}
