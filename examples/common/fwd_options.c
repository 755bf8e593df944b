// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The flags xskx-l2fwd and xskx-fw share (fwd_options.h). */
#include <stdio.h>

#include "cli.h"
#include "fwd_options.h"
#include "tx_kick.h"

bool fwd_options_parse_one(int c, const char *arg, struct fwd_options *o,
			   const char *program)
{
	uint32_t choice, cpu;

	switch (c) {
	case 'i':
		o->ifnames[0] = arg;
		return true;
	case 'o':
		o->ifnames[1] = arg;
		return true;
	case FWD_OPT_SIM:
		o->sim = true;
		return true;
	case 'd':
		return cli_parse_seconds("--duration", arg, &o->duration_s);
	case 'b':
		return cli_parse_u32("--batch", arg, 1, 4096, &o->batch);
	case 'f':
		return cli_parse_u32("--frames", arg, 1, 1u << 24, &o->frames);
	case 'S':
		o->xdp_mode = XSKX_XDP_GENERIC;
		return true;
	case FWD_OPT_TX_FULL:
		if (!cli_parse_choice("--tx-full", arg, fwd_tx_full_names,
				      FWD_TX_FULL_CHOICES, &choice))
			return false;
		o->tx_full = (enum fwd_tx_full)choice;
		return true;
	case FWD_OPT_TX_KICK_BATCH:
		return tx_kick_parse_batch(arg, &o->tx_kick_batch);
	case FWD_OPT_TX_KICK_USEC:
		return tx_kick_parse_usec(arg, &o->tx_kick_usec);
	case FWD_OPT_NO_CSUM_COMPLETE:
		o->keep_partial_csum = true;
		return true;
	case 's':
		return cli_parse_u32("--pkt-size", arg, 60, 1514, &o->pkt_size);
	case FWD_OPT_PACKETS:
		return cli_parse_u64("--packets", arg, 1, UINT64_MAX, &o->packets);
	case FWD_OPT_JSON:
		o->json = true;
		return true;
	case FWD_OPT_JSON_LINES:
		o->json = o->json_lines = true;
		return true;
	case FWD_OPT_QUIET:
		o->quiet = true;
		return true;
	case 'q':
		return cli_parse_u32("--queue", arg, 0, UINT32_MAX - FWD_MAX_QUEUES,
				     &o->first_queue);
	case FWD_OPT_QUEUES:
		return cli_parse_u32("--queues", arg, 1, FWD_MAX_QUEUES,
				     &o->queues);
	case 'C':
		if (!cli_parse_u32("--cpu", arg, 0, 4095, &cpu))
			return false;
		o->first_cpu = (int)cpu;
		return true;
	default:
		if (c >= FWD_OPT_CAPTURE &&
		    c < FWD_OPT_CAPTURE + CAPTURE_OPTION_COUNT)
			return capture_opts_parse((uint32_t)(c - FWD_OPT_CAPTURE),
						  arg, &o->capture);
		fprintf(stderr, "%s: see --help\n", program);
		return false;
	}
}

const char *fwd_options_misplaced_sources(const struct fwd_options *o)
{
	if (!o->sim && (o->packets || o->pkt_size))
		return "--packets and --pkt-size shape --sim's traffic sources";
	if (o->sim && o->first_queue)
		return "-q selects the first queue of -i's interfaces; the simulated ports' queues are 0..N-1 (--queues N)";
	if (!o->sim && o->capture.in)
		return "--pcap-in replays a capture on --sim's first port; to send one on an interface: xskx-bench --mode txonly --pcap-in";
	if (o->capture.writer_shaped && !o->capture.drops &&
	    (o->sim || !o->capture.out))
		return "--pcap-snaplen and --pcap-queue shape the writer of --pcap-out on interfaces and of --pcap-drops; --sim's --pcap-out writes whole frames";
	if (o->capture.in && (o->packets || o->pkt_size))
		return "--pcap-in replaces the UDP sources that --packets and --pkt-size shape";
	return capture_opts_misplaced(&o->capture);
}

enum fwd_parse_result fwd_options_parse(int argc, char **argv,
					const struct fwd_program_options *p,
					void *opts, struct fwd_options *f)
{
	int c;

	while ((c = getopt_long(argc, argv, p->short_options, p->long_options,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(p->usage, stdout);
			return FWD_PARSE_HELP;
		}
		if (!p->parse_one(c, optarg, opts))
			return FWD_PARSE_BAD;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument %s\n", p->name,
			argv[optind]);
		return FWD_PARSE_BAD;
	}
	if (!p->check(opts))
		return FWD_PARSE_BAD;
	tx_kick_resolve(0, &f->tx_kick_batch, &f->tx_kick_usec);
	return FWD_PARSE_RUN;
}
