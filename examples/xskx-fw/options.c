// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw: parse and check the command line. Every mistake is reported
 * here, before any library call, with the flag and what it accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "fwapp.h"
#include "fwd_options.h"
#include "tx_kick.h"

static const char usage[] =
	"Usage: xskx-fw -i IF1 -o IF2 -r RULES [options]\n"
	"       xskx-fw --sim -r RULES [options]\n"
	"       xskx-fw --check RULES\n"
	"\n"
	"A firewall between two interfaces: packets received on one leave by\n"
	"the other, without a copy, if the rules allow them. Rules that deny by\n"
	"address prefix alone run in the XDP program (stage 1: dropped before\n"
	"user space); the rest run here on what the program redirects (stage 2).\n"
	"SIGHUP reloads RULES: a file with errors is rejected, the old rules stay.\n"
	"\n"
	"  -i, --in IF1           first interface\n"
	"  -o, --out IF2          second interface\n"
	"      --sim              two simulated ports, each with a UDP/IPv4 source\n"
	"                         (192.0.2.1 -> 192.0.2.2, port 9)\n"
	"  -r, --rules RULES      the rule file\n"
	"      --check RULES      validate RULES, print every error, exit 0 or 1\n"
	"  -q, --queue Q          the first queue of each port (default 0; -i only)\n"
	"      --queues N         queues Q..Q+N-1 of each port: a thread and a\n"
	"                         UMEM each, one rule set; a reload switches\n"
	"                         every queue (default 1)\n"
	"  -C, --cpu CPU          pin queue k's thread to CPU + k (default: no\n"
	"                         pinning)\n"
	"  -d, --duration SECONDS stop after SECONDS (default: at Ctrl-C)\n"
	"  -b, --batch N          packets per burst (default 64)\n"
	"  -f, --frames N         UMEM frames per queue (default 4096)\n"
	"  -S, --xdp-skb          XDP program in generic (skb) mode\n"
	"  -F, --multi-buffer     XDP_USE_SG: jumbo frames (MTU 9000) arrive and\n"
	"                         leave as chains of fragments, judged by their\n"
	"                         headers and forwarded or dropped whole;\n"
	"                         counters count packets\n"
	"      --tx-full hold|drop  a full TX ring: hold the allowed packets\n"
	"                         until it has room, backing the other port up\n"
	"                         to its NIC (default), or drop them, counted\n"
	TX_KICK_USAGE
	"      --no-csum-complete forward partial TCP/UDP checksums as they\n"
	"                         arrived (default: completed, counted: a local\n"
	"                         stack behind a veth with TX checksum offload\n"
	"                         leaves them for the device)\n"
	"  -s, --pkt-size BYTES   --sim: frame size without FCS (default 64)\n"
	"      --packets N        --sim: packets per source (default: no limit)\n"
	FWD_CAPTURE_USAGE
	"      --pcap-drops FILE  write what the rules deny to the pcapng FILE,\n"
	"                         each frame with the rule that denied it as its\n"
	"                         comment (\"line 3: deny src 198.51.100.0/24\",\n"
	"                         \"default deny: not IP\"); every rule then runs\n"
	"                         in user space, so that each denied frame is\n"
	"                         seen (--sim too)\n"
	"      --json             a JSON summary on stdout, the live lines on stderr\n"
	"      --json-lines       JSON Lines on stdout: an object per interval\n"
	"                         (each second, and the short last one) with the\n"
	"                         running totals, then the summary\n"
	"      --quiet            no line per second\n"
	"  -h, --help\n"
	"\n"
	"The rule file: one statement per line, '#' starts a comment.\n"
	"  default allow|deny        exactly once: for packets no rule matches\n"
	"                            and those that cannot be classified (not IP\n"
	"                            and no ether rule's type, truncated,\n"
	"                            malformed, later fragments)\n"
	"  allow|deny [ether TYPE] [src PREFIX] [dst PREFIX]\n"
	"             [proto tcp|udp|icmp|any] [port N|N-M]\n"
	"The conditions come in any order, each at most once; all must match.\n"
	"PREFIX: 192.0.2.0/24, 2001:db8::/32 or an address. port: the destination\n"
	"port, with proto tcp or udp. TYPE: arp, ipv4, ipv6 or 0x0600-0xffff;\n"
	"a type other than ipv4/ipv6 stands alone. The first matching rule decides.\n"
	"  allow ether arp\n"
	"  deny src 198.51.100.0/24\n"
	"  allow dst 2001:db8::/32 proto tcp port 443\n"
	"  deny proto udp port 1000-2000\n"
	"  default allow\n"
	"\n"
	"Exit status: 0 done, 1 bad rules or the library failed, 2 bad command line.\n";

enum { OPT_CHECK = FWD_OPT_PROGRAM, OPT_PCAP_DROPS };

static const struct option long_options[] = {
	FWD_LONG_OPTIONS_PORTS,
	{ "rules", required_argument, NULL, 'r' },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "pcap-drops", required_argument, NULL, OPT_PCAP_DROPS },
	{ "multi-buffer", no_argument, NULL, 'F' },
	FWD_LONG_OPTIONS_QUEUES,
	FWD_LONG_OPTIONS_RUN,
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static bool parse_one(int c, const char *arg, void *opts)
{
	struct fwapp_opts *o = opts;

	switch (c) {
	case 'r':
		o->rules_path = arg;
		return true;
	case OPT_CHECK:
		o->check_path = arg;
		return true;
	case OPT_PCAP_DROPS:
		o->fwd.capture.drops = arg;
		return true;
	case 'F':
		o->multi_buffer = true;
		return true;
	default:
		return fwd_options_parse_one(c, arg, &o->fwd, "xskx-fw");
	}
}

/* --check alone; otherwise rules and exactly one backend: --sim or -i and -o. */
static bool check_combination(const void *opts)
{
	const struct fwapp_opts *o = opts;
	const struct fwd_options *f = &o->fwd;
	const char *why;

	if (o->check_path)
		why = f->sim || f->ifnames[0] || f->ifnames[1] || o->rules_path ||
				      f->queues != 1 || f->first_queue ?
			      "--check RULES takes no other option" :
			      NULL;
	else if (!o->rules_path)
		why = "name the rule file with -r RULES";
	else if (f->sim && (f->ifnames[0] || f->ifnames[1]))
		why = "--sim and -i/-o exclude each other";
	else if (!f->sim && (!f->ifnames[0] || !f->ifnames[1]))
		why = "name both interfaces, -i IF1 -o IF2, or use --sim";
	else if (!f->sim && !strcmp(f->ifnames[0], f->ifnames[1]))
		why = "-i and -o name the same interface";
	else
		why = fwd_options_misplaced_sources(f);
	if (why)
		fprintf(stderr, "xskx-fw: %s\n", why);
	return !why;
}

enum fwd_parse_result fwapp_parse_options(int argc, char **argv,
					  struct fwapp_opts *o)
{
	static const struct fwd_program_options program = {
		.name = "xskx-fw", .usage = usage,
		.short_options = FWD_SHORT_OPTIONS "r:Fh",
		.long_options = long_options, .parse_one = parse_one,
		.check = check_combination,
	};

	*o = (struct fwapp_opts){ .fwd = { FWD_OPTIONS_DEFAULTS } };
	return fwd_options_parse(argc, argv, &program, o, &o->fwd);
}
