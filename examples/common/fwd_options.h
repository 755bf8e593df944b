/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The command-line flags xskx-l2fwd and xskx-fw share: the ports, the
 * forwarding core's settings, --sim's traffic sources and the output. Each
 * program keeps its own flags and its --help text; this parses the rest so
 * that both accept and reject them alike.
 */
#ifndef XSKX_EXAMPLES_FWD_OPTIONS_H
#define XSKX_EXAMPLES_FWD_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <xskx/xskx.h>

#include "capture_opts.h"
#include "fwd.h"
#include "tx_kick.h"

struct fwd_options {
	const char *ifnames[FWD_MAX_PORTS]; /* -i, -o (kernel backend) */
	bool sim;
	double duration_s;  /* 0: until SIGINT/SIGTERM */
	uint32_t batch;
	uint32_t frames;
	enum xskx_xdp_mode xdp_mode;
	enum fwd_tx_full tx_full;
	bool keep_partial_csum; /* --no-csum-complete (fwd_config) */
	uint32_t tx_kick_batch; /* --tx-kick-batch (fwd_config) */
	uint32_t tx_kick_usec;	/* --tx-kick-usec */
	uint32_t first_queue; /* -q: the queues are first_queue.. */
	uint32_t queues;      /* ..+ queues - 1: a thread and a UMEM each */
	int first_cpu;	      /* queue k's thread on CPU first_cpu + k; -1: any */
	/* --sim's traffic sources */
	uint32_t pkt_size;
	uint64_t packets;   /* per port; 0: no limit */
	/* --sim: a capture replayed on the first port, the last one's written */
	struct capture_opts capture;
	bool json;
	bool json_lines; /* an object per interval, then the summary */
	bool quiet;
};

/* getopt_long values of the shared flags without a short form. */
enum {
	FWD_OPT_SIM = 256,
	FWD_OPT_TX_FULL,
	FWD_OPT_PACKETS,
	FWD_OPT_JSON,
	FWD_OPT_JSON_LINES,
	FWD_OPT_QUIET,
	FWD_OPT_QUEUES,
	FWD_OPT_NO_CSUM_COMPLETE,
	FWD_OPT_TX_KICK_BATCH,
	FWD_OPT_TX_KICK_USEC,
	FWD_OPT_CAPTURE, /* CAPTURE_OPTION_COUNT values (capture_opts.h) */
	/* the first value free for a program's own flags */
	FWD_OPT_PROGRAM = FWD_OPT_CAPTURE + CAPTURE_OPTION_COUNT,
};

/* What a program's parser starts from, besides its own flags' defaults. */
#define FWD_OPTIONS_DEFAULTS                                                   \
	.queues = 1, .first_cpu = -1, .tx_kick_batch = TX_KICK_UNSET,         \
	.tx_kick_usec = TX_KICK_UNSET, .capture = CAPTURE_OPTS_DEFAULTS

/* The shared short flags, for getopt_long's optstring. */
#define FWD_SHORT_OPTIONS "i:o:d:b:f:Ss:q:C:"

/*
 * The shared entries of the long option table, in three runs so that each
 * program can put its own port flags between them, where --help lists them.
 */
#define FWD_LONG_OPTIONS_PORTS                                  \
	{ "in", required_argument, NULL, 'i' },                 \
	{ "out", required_argument, NULL, 'o' },                \
	{ "sim", no_argument, NULL, FWD_OPT_SIM }
#define FWD_LONG_OPTIONS_QUEUES                                 \
	{ "queue", required_argument, NULL, 'q' },              \
	{ "queues", required_argument, NULL, FWD_OPT_QUEUES },  \
	{ "cpu", required_argument, NULL, 'C' }
#define FWD_LONG_OPTIONS_RUN                                    \
	{ "duration", required_argument, NULL, 'd' },           \
	{ "batch", required_argument, NULL, 'b' },              \
	{ "frames", required_argument, NULL, 'f' },             \
	{ "xdp-skb", no_argument, NULL, 'S' },                  \
	{ "tx-full", required_argument, NULL, FWD_OPT_TX_FULL }, \
	{ "no-csum-complete", no_argument, NULL, FWD_OPT_NO_CSUM_COMPLETE }, \
	{ "tx-kick-batch", required_argument, NULL, FWD_OPT_TX_KICK_BATCH }, \
	{ "tx-kick-usec", required_argument, NULL, FWD_OPT_TX_KICK_USEC }, \
	{ "pkt-size", required_argument, NULL, 's' },           \
	{ "packets", required_argument, NULL, FWD_OPT_PACKETS }, \
	{ "json", no_argument, NULL, FWD_OPT_JSON },            \
	{ "json-lines", no_argument, NULL, FWD_OPT_JSON_LINES }, \
	{ "quiet", no_argument, NULL, FWD_OPT_QUIET },          \
	CAPTURE_LONG_OPTIONS(FWD_OPT_CAPTURE)

/* The shared capture flags' --help lines. */
#define FWD_CAPTURE_USAGE                                                       \
	"      --pcap-in FILE     --sim: replay the pcap or pcapng FILE on the\n"  \
	"                         first port instead of the UDP sources; the\n"   \
	"                         run ends once every frame is handled (unless\n" \
	"                         --pcap-loops 0)\n"                                \
	CAPTURE_USAGE_IN                                                       \
	"      --pcap-out FILE    --sim: write what the last port sends to the\n" \
	"                         pcap FILE, frame k stamped k microseconds after\n" \
	"                         the epoch: the same frames, the same file. On\n" \
	"                         interfaces: what the queues forward, both ways,\n" \
	"                         copied off the data path for a thread of its\n"  \
	"                         own to write\n"                                  \
	CAPTURE_USAGE_WRITER

/*
 * Apply getopt_long's c (with its optarg) to o. A value out of range is
 * reported by the flag; a c that is no shared flag is reported as
 * "PROGRAM: see --help". Returns false on either.
 */
bool fwd_options_parse_one(int c, const char *arg, struct fwd_options *o,
			   const char *program);

enum fwd_parse_result {
	FWD_PARSE_RUN,
	FWD_PARSE_HELP, /* usage printed: exit 0 */
	FWD_PARSE_BAD,	/* message printed: exit 2 */
};

/* A program's command line: what it adds to the shared flags. */
struct fwd_program_options {
	const char *name;  /* "xskx-l2fwd": the messages' prefix */
	const char *usage; /* --help's text */
	const char *short_options; /* FWD_SHORT_OPTIONS and its own, "h" too */
	const struct option *long_options;
	/* Apply c, the program's own flag or (its default) a shared one. */
	bool (*parse_one)(int c, const char *arg, void *opts);
	/* Once every flag is read: whether they fit together, or a message. */
	bool (*check)(const void *opts);
};

/*
 * Parse argv into opts (the program's, f its shared part), print --help or
 * the message of a mistake, and put the defaults of the TX wakeup flags in
 * (tx_kick_resolve).
 */
enum fwd_parse_result fwd_options_parse(int argc, char **argv,
					const struct fwd_program_options *p,
					void *opts, struct fwd_options *f);

/*
 * The message for the source or capture flags used without --sim, or -q
 * with it, or NULL: each program's backend check ends with it.
 */
const char *fwd_options_misplaced_sources(const struct fwd_options *o);

#endif /* XSKX_EXAMPLES_FWD_OPTIONS_H */
