/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx-bench's flags, one table: every flag of xdpsock (bpf-examples,
 * AF_XDP-example) under its own letter and long name, and xskx-bench's own.
 * getopt_long's tables and --help are built from it, so a flag cannot be
 * parsed without being documented. A flag of xdpsock that does not apply to
 * xskx carries its refusal: why, and what to use instead.
 */
#ifndef XSKX_BENCH_FLAGS_H
#define XSKX_BENCH_FLAGS_H

#include <getopt.h>
#include <stdio.h>

/* What getopt_long returns for the flags without a short form. */
enum bench_flag_id {
	OPT_MODE = 256,
	OPT_SIM,
	OPT_SIM_DETERMINISTIC,
	OPT_SAME_CORE,
	OPT_PKT_SIZE,
	OPT_FRAMES,
	OPT_RX_SIZE,
	OPT_TX_SIZE,
	OPT_FILL_SIZE,
	OPT_COMP_SIZE,
	OPT_RX_FULL_POLICY,
	OPT_NIC_BUDGET,
	OPT_HW_RING,
	OPT_HW_TX_RING,
	OPT_XDP_ACTION,
	OPT_REFILL_BATCH,
	OPT_FLOWS,
	OPT_RATE,
	OPT_NIC_CPU,
	OPT_APP_CPU,
	OPT_API,
	OPT_BASELINE,
	OPT_COMPARE,
	OPT_PAIRS,
	OPT_HUGEPAGES,
	OPT_RX_META,
	OPT_WAKEUP,
	OPT_KERNEL_TX_BUDGET,
	OPT_TX_KICK_BATCH,
	OPT_TX_KICK_USEC,
	OPT_NAPI,
	OPT_JSON,
	OPT_JSON_LINES,
	OPT_QUEUES,
	OPT_TX_CHECKSUM,
	OPT_PCAP_IN,
	OPT_PCAP_PACE,
	OPT_PCAP_LOOPS,
};

struct bench_flag {
	int id;		  /* the short letter, or an OPT_*; 0: a heading */
	const char *name; /* the long form without "--" (the heading's text) */
	/* the value's name in --help; NULL: takes none (another long name: as the first) */
	const char *arg;
	/*
	 * --help's text, lines split by '\n'. NULL: another long name of the
	 * entry above, listed on its line.
	 */
	const char *help;
	/* Non-NULL: an xdpsock flag refused with this message. */
	const char *refusal;
};

extern const struct bench_flag bench_flags[];

/* The long form ("--name") of a flag's first entry. */
const char *bench_flag_name(int id);

/* The refusal of a flag, or NULL when it is accepted. */
const char *bench_flag_refusal(int id);

/*
 * getopt_long's option table and optstring (':' first: a missing value is
 * reported as ':'). Both are built once and live as long as the program.
 */
const struct option *bench_flags_long_options(void);
const char *bench_flags_short_options(void);

void bench_flags_usage(FILE *f);

#endif /* XSKX_BENCH_FLAGS_H */
