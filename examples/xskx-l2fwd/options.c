// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd: parse and check the command line. Every mistake is reported
 * here, before any library call, with the flag and what it accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "l2fwd.h"

static const char usage[] =
	"Usage: xskx-l2fwd -i IF1 [-o IF2] [options]\n"
	"       xskx-l2fwd --sim [--reflect] [options]\n"
	"\n"
	"Forwards every packet received on IF1 out of IF2 and every packet\n"
	"received on IF2 out of IF1, without copying it. With IF1 alone, sends\n"
	"each packet back out of IF1 with its MAC addresses swapped (reflect).\n"
	"\n"
	"  -i, --in IF1           first interface\n"
	"  -o, --out IF2          second interface (absent: reflect on IF1)\n"
	"      --sim              two simulated ports, each with a traffic source\n"
	"      --reflect          with --sim: one simulated port, reflect\n"
	"  -q, --queues N         queues 0..N-1 of each port: a thread and a UMEM\n"
	"                         each (default 1)\n"
	"  -C, --cpu CPU          pin queue k's thread to CPU + k (default: no\n"
	"                         pinning)\n"
	"  -d, --duration SECONDS stop after SECONDS (default: at Ctrl-C)\n"
	"  -b, --batch N          packets per burst (default 64)\n"
	"  -f, --frames N         UMEM frames per queue (default 4096)\n"
	"  -S, --xdp-skb          XDP program in generic (skb) mode (default:\n"
	"                         native, generic where the driver has none)\n"
	"      --tx-full hold|drop  a full TX ring: hold the packets for it\n"
	"                         until it has room, backing the other port up\n"
	"                         to its NIC (default), or drop them, counted\n"
	"\n"
	"  --sim's traffic sources (UDP/IPv4, 8 flows per queue):\n"
	"  -s, --pkt-size BYTES   frame size without FCS (default 64)\n"
	"      --packets N        packets per source (default: no limit)\n"
	"\n"
	"  --json                 a JSON summary on stdout, the live lines on stderr\n"
	"  --quiet                no line per second\n"
	"  -h, --help\n"
	"\n"
	"Exit status: 0 done, 1 the library failed, 2 bad command line.\n";

enum { OPT_SIM = 256, OPT_REFLECT, OPT_TX_FULL, OPT_PACKETS, OPT_JSON,
       OPT_QUIET };

static const struct option long_options[] = {
	{ "in", required_argument, NULL, 'i' },
	{ "out", required_argument, NULL, 'o' },
	{ "sim", no_argument, NULL, OPT_SIM },
	{ "reflect", no_argument, NULL, OPT_REFLECT },
	{ "queues", required_argument, NULL, 'q' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "duration", required_argument, NULL, 'd' },
	{ "batch", required_argument, NULL, 'b' },
	{ "frames", required_argument, NULL, 'f' },
	{ "xdp-skb", no_argument, NULL, 'S' },
	{ "tx-full", required_argument, NULL, OPT_TX_FULL },
	{ "pkt-size", required_argument, NULL, 's' },
	{ "packets", required_argument, NULL, OPT_PACKETS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static bool parse_one(int c, const char *arg, struct l2fwd_opts *o)
{
	uint32_t cpu, choice;

	switch (c) {
	case 'i':
		o->ifnames[0] = arg;
		return true;
	case 'o':
		o->ifnames[1] = arg;
		return true;
	case OPT_SIM:
		o->sim = true;
		return true;
	case OPT_REFLECT:
		o->reflect = true;
		return true;
	case 'q':
		return cli_parse_u32("--queues", arg, 1, L2FWD_MAX_QUEUES,
				 &o->queues);
	case 'C':
		if (!cli_parse_u32("--cpu", arg, 0, 4095, &cpu))
			return false;
		o->first_cpu = (int)cpu;
		return true;
	case 'd':
		return cli_parse_seconds("--duration", arg, &o->duration_s);
	case 'b':
		return cli_parse_u32("--batch", arg, 1, 4096, &o->batch);
	case 'f':
		return cli_parse_u32("--frames", arg, 64, 1u << 24, &o->frames);
	case 'S':
		o->xdp_mode = XSKX_XDP_GENERIC;
		return true;
	case OPT_TX_FULL:
		if (!cli_parse_choice("--tx-full", arg, fwd_tx_full_names,
				      FWD_TX_FULL_CHOICES, &choice))
			return false;
		o->tx_full = (enum fwd_tx_full)choice;
		return true;
	case 's':
		return cli_parse_u32("--pkt-size", arg, 60, 1514, &o->pkt_size);
	case OPT_PACKETS:
		return cli_parse_u64("--packets", arg, 1, UINT64_MAX, &o->packets);
	case OPT_JSON:
		o->json = true;
		return true;
	case OPT_QUIET:
		o->quiet = true;
		return true;
	default:
		fprintf(stderr, "xskx-l2fwd: see --help\n");
		return false;
	}
}

/* The backend: exactly one of --sim and -i; -o and --reflect fit only one. */
static bool check_backend(const struct l2fwd_opts *o)
{
	const char *why = NULL;

	if (o->sim && o->ifnames[0])
		why = "--sim and -i exclude each other";
	else if (!o->sim && !o->ifnames[0])
		why = "name an interface with -i IF1, or use --sim";
	else if (o->sim && o->ifnames[1])
		why = "-o needs -i (the kernel backend)";
	else if (!o->sim && o->reflect)
		why = "--reflect is for --sim; on interfaces, leave out -o";
	else if (o->ifnames[1] && !strcmp(o->ifnames[0], o->ifnames[1]))
		why = "-i and -o name the same interface; leave out -o to reflect";
	else if (!o->sim && (o->packets || o->pkt_size))
		why = "--packets and --pkt-size shape --sim's traffic sources";
	if (why)
		fprintf(stderr, "xskx-l2fwd: %s\n", why);
	return !why;
}

enum l2fwd_parse_result l2fwd_parse_options(int argc, char **argv,
					    struct l2fwd_opts *o)
{
	int c;

	*o = (struct l2fwd_opts){ .queues = 1, .first_cpu = -1 };
	while ((c = getopt_long(argc, argv, "i:o:q:C:d:b:f:Ss:h",
				long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return L2FWD_PARSE_HELP;
		}
		if (!parse_one(c, optarg, o))
			return L2FWD_PARSE_BAD;
	}
	if (optind < argc) {
		fprintf(stderr, "xskx-l2fwd: unexpected argument %s\n",
			argv[optind]);
		return L2FWD_PARSE_BAD;
	}
	if (!check_backend(o))
		return L2FWD_PARSE_BAD;
	if (!o->sim)
		o->reflect = !o->ifnames[1];
	return L2FWD_PARSE_RUN;
}
