// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-l2fwd: parse and check the command line. Every mistake is reported
 * here, before any library call, with the flag and what it accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fwd_options.h"
#include "tx_kick.h"
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
	"  -q, --queue Q          the first queue of each port, as xdpsock's -q\n"
	"                         (default 0; -i only)\n"
	"      --queues N         queues Q..Q+N-1 of each port: a thread and a\n"
	"                         UMEM each (default 1)\n"
	"  -C, --cpu CPU          pin queue k's thread to CPU + k (default: no\n"
	"                         pinning)\n"
	"  -d, --duration SECONDS stop after SECONDS (default: at Ctrl-C)\n"
	"  -b, --batch N          packets per burst (default 64)\n"
	"  -f, --frames N         UMEM frames per queue (default 4096)\n"
	"  -S, --xdp-skb          XDP program in generic (skb) mode (default:\n"
	"                         native, generic where the driver has none)\n"
	"  -F, --multi-buffer     XDP_USE_SG: jumbo frames (MTU 9000) arrive and\n"
	"                         leave as chains of fragments, forwarded whole;\n"
	"                         counters count packets\n"
	"      --tx-full hold|drop  a full TX ring: hold the packets for it\n"
	"                         until it has room, backing the other port up\n"
	"                         to its NIC (default), or drop them, counted\n"
	TX_KICK_USAGE
	"      --no-csum-complete forward partial TCP/UDP checksums as they\n"
	"                         arrived (default: completed, counted: a local\n"
	"                         stack behind a veth with TX checksum offload\n"
	"                         leaves them for the device)\n"
	"\n"
	"  --sim's traffic sources (UDP/IPv4, 8 flows per queue):\n"
	"  -s, --pkt-size BYTES   frame size without FCS (default 64)\n"
	"      --packets N        packets per source (default: no limit)\n"
	FWD_CAPTURE_USAGE
	"\n"
	"  --json                 a JSON summary on stdout, the live lines on stderr\n"
	"  --json-lines           JSON Lines on stdout: an object per interval\n"
	"                         (each second, and the short last one) with the\n"
	"                         running totals, then the summary\n"
	"  --quiet                no line per second\n"
	"  -h, --help\n"
	"\n"
	"Exit status: 0 done, 1 the library failed, 2 bad command line.\n";

enum { OPT_REFLECT = FWD_OPT_PROGRAM };

static const struct option long_options[] = {
	FWD_LONG_OPTIONS_PORTS,
	{ "reflect", no_argument, NULL, OPT_REFLECT },
	{ "multi-buffer", no_argument, NULL, 'F' },
	FWD_LONG_OPTIONS_QUEUES,
	FWD_LONG_OPTIONS_RUN,
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static bool parse_one(int c, const char *arg, void *opts)
{
	struct l2fwd_opts *o = opts;

	switch (c) {
	case OPT_REFLECT:
		o->reflect = true;
		return true;
	case 'F':
		o->multi_buffer = true;
		return true;
	default:
		return fwd_options_parse_one(c, arg, &o->fwd, "xskx-l2fwd");
	}
}

/* The backend: exactly one of --sim and -i; -o and --reflect fit only one. */
static bool check_backend(const void *opts)
{
	const struct l2fwd_opts *o = opts;
	const struct fwd_options *f = &o->fwd;
	const char *why;

	if (f->sim && f->ifnames[0])
		why = "--sim and -i exclude each other";
	else if (!f->sim && !f->ifnames[0])
		why = "name an interface with -i IF1, or use --sim";
	else if (f->sim && f->ifnames[1])
		why = "-o needs -i (the kernel backend)";
	else if (!f->sim && o->reflect)
		why = "--reflect is for --sim; on interfaces, leave out -o";
	else if (f->ifnames[1] && !strcmp(f->ifnames[0], f->ifnames[1]))
		why = "-i and -o name the same interface; leave out -o to reflect";
	else
		why = fwd_options_misplaced_sources(f);
	if (why)
		fprintf(stderr, "xskx-l2fwd: %s\n", why);
	return !why;
}

enum fwd_parse_result l2fwd_parse_options(int argc, char **argv,
					  struct l2fwd_opts *o)
{
	static const struct fwd_program_options program = {
		.name = "xskx-l2fwd", .usage = usage,
		.short_options = FWD_SHORT_OPTIONS "Fh",
		.long_options = long_options, .parse_one = parse_one,
		.check = check_backend,
	};
	enum fwd_parse_result r;

	*o = (struct l2fwd_opts){ .fwd = { FWD_OPTIONS_DEFAULTS } };
	r = fwd_options_parse(argc, argv, &program, o, &o->fwd);
	if (r == FWD_PARSE_RUN && !o->fwd.sim)
		o->reflect = !o->fwd.ifnames[1];
	return r;
}
