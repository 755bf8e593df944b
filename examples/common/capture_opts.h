/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The capture flags the programs share (docs/CAPTURES.md): the file a run
 * replays, how fast and how many times, and the file it writes.
 */
#ifndef XSKX_EXAMPLES_CAPTURE_OPTS_H
#define XSKX_EXAMPLES_CAPTURE_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_writer.h"

struct capture_opts {
	const char *in;			     /* --pcap-in: replayed */
	const char *out;		     /* --pcap-out: written */
	enum xskx_sim_capture_timing timing; /* --pcap-pace */
	uint64_t rate_pps;		     /* XSKX_SIM_CAPTURE_RATE's */
	uint64_t loops;	    /* --pcap-loops; 0: until the run ends */
	bool paced, looped; /* given: they shape --pcap-in's replay */
	/* xskx-fw --pcap-drops: what stage 2 denies, written as pcapng */
	const char *drops;
	/*
	 * The capture writer's (capture_writer.h: --pcap-out on interfaces,
	 * --pcap-drops): --pcap-snaplen, --pcap-queue (frames per queue)
	 */
	uint32_t snaplen, slots;
	bool writer_shaped; /* either given */
};

#define CAPTURE_OPTS_DEFAULTS                                                  \
	{                                                                      \
		.loops = 1, .snaplen = CAPTURE_DEFAULT_SNAPLEN,                \
		.slots = CAPTURE_DEFAULT_SLOTS                                 \
	}

/* getopt_long values; a program adds them to its enum with this base. */
#define CAPTURE_LONG_OPTIONS(base)                                             \
	{ "pcap-in", required_argument, NULL, (base) },                        \
		{ "pcap-out", required_argument, NULL, (base) + 1 },           \
		{ "pcap-pace", required_argument, NULL, (base) + 2 },          \
		{ "pcap-loops", required_argument, NULL, (base) + 3 },         \
		{ "pcap-snaplen", required_argument, NULL, (base) + 4 },       \
	{                                                                      \
		"pcap-queue", required_argument, NULL, (base) + 5              \
	}
#define CAPTURE_OPTION_COUNT 6

#define CAPTURE_USAGE_IN                                                           \
	"      --pcap-pace asap|recorded|PPS  --pcap-in's pace: as fast as\n"      \
	"                         possible (default), the frames' own timing,\n"   \
	"                         or PPS frames a second\n"                        \
	"      --pcap-loops N     replay --pcap-in N times (default 1; 0: until\n" \
	"                         the run ends)\n"

#define CAPTURE_USAGE_WRITER                                                      \
	"      --pcap-snaplen BYTES  bytes written of each frame (default 9216,\n" \
	"                         a whole frame at MTU 9000)\n"                    \
	"      --pcap-queue N     frames each queue's thread may have waiting for\n" \
	"                         the writer thread (default 1024); a frame that\n" \
	"                         finds them all waiting is counted, not written\n"

/*
 * Apply the flag base + k (k < CAPTURE_OPTION_COUNT) with its argument.
 * Returns false with the message printed.
 */
bool capture_opts_parse(uint32_t k, const char *arg, struct capture_opts *c);

/* The message for --pcap-pace or --pcap-loops without --pcap-in, or NULL. */
const char *capture_opts_misplaced(const struct capture_opts *c);

#endif /* XSKX_EXAMPLES_CAPTURE_OPTS_H */
