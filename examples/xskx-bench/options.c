// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: parse and check the command line. Every mistake is reported
 * here, before any library call, with the flag's name and what it accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"

static const char usage[] =
	"Usage: xskx-bench (--sim | -i IFNAME [-q QUEUE]) [options]\n"
	"\n"
	"An xdpsock-style benchmark on the xskx burst API.\n"
	"\n"
	"Backend:\n"
	"  --sim                  the simulated NIC: its thread on one CPU, this\n"
	"                         program on another\n"
	"  --sim-deterministic    the simulated NIC run by this thread between\n"
	"                         bursts (reproducible; for instruction counts)\n"
	"  --same-core            the simulated NIC on this thread, working only\n"
	"                         inside its kicks, as with busy polling\n"
	"                         (SO_PREFER_BUSY_POLL): each kick first lets the\n"
	"                         source fill every posted hardware buffer (a wire\n"
	"                         at line rate), then runs one NAPI poll of the\n"
	"                         queue, TX and RX within --nic-budget. Implies\n"
	"                         --sim-deterministic and -B\n"
	"  -i, --interface IFNAME the kernel's AF_XDP socket on IFNAME\n"
	"  -q, --queue QUEUE      queue of IFNAME (default 0)\n"
	"\n"
	"Mode:\n"
	"  -r, --rxdrop           receive and drop (default)\n"
	"  -t, --txonly           transmit generated UDP packets\n"
	"  -l, --l2fwd            swap MACs and send every packet back out\n"
	"      --mode MODE        rxdrop, txonly or l2fwd\n"
	"      --baseline         rxdrop on bare libxdp ring operations, no burst API\n"
	"      --compare          rxdrop with the burst API, then --baseline, and\n"
	"                         the ratio of the two\n"
	"\n"
	"Run:\n"
	"  -d, --duration SECONDS run time of each run (default 10)\n"
	"      --packets N        stop after N packets (received; sent in txonly)\n"
	"  -b, --batch N          packets per burst (default 64)\n"
	"  -s, --pkt-size BYTES   Ethernet frame size without FCS (default 64)\n"
	"      --wakeup auto|poll|loop\n"
	"                         wait for packets with xskx_socket_poll() before\n"
	"                         every burst (poll), or burst back to back\n"
	"                         (loop); auto (default): as\n"
	"                         xskx_socket_choose_wakeup() advises\n"
	"  -p, --poll             --wakeup poll\n"
	"  -m, --no-need-wakeup   bind without need_wakeup\n"
	"  -B, --busy-poll        kick the peer on every burst\n"
	"  -z, --zero-copy        force zero-copy\n"
	"  -c, --copy             force copy mode\n"
	"  -N, --xdp-native       XDP program in the driver, no fallback\n"
	"  -S, --xdp-skb          XDP program in generic (skb) mode\n"
	"                         (default: native, generic where native fails)\n"
	"\n"
	"UMEM and rings (0 or absent: the library's default; with --baseline and\n"
	"--compare FILL holds every frame, as the baseline has no frame pool):\n"
	"  -f, --frame-size BYTES --frames N\n"
	"  --rx-size N  --tx-size N  --fill-size N  --comp-size N\n"
	"\n"
	"Simulated NIC:\n"
	"  --rx-full-policy stop|drop  RX ring full: stop the poll (default) or drop\n"
	"  --nic-budget N         packets per NAPI poll (default 64)\n"
	"  --hw-ring N            hardware RX descriptors (default 2048)\n"
	"  --hw-tx-ring N         hardware TX descriptors: packets per TX pass\n"
	"                         (default 256)\n"
	"  --refill-batch N       refill the hardware RX ring once N descriptors\n"
	"                         are empty; 1: single descriptors (default 32)\n"
	"  --xdp-action redirect|tx|drop\n"
	"                         the port's XDP verdict: to the socket (default),\n"
	"                         XDP_TX with MACs swapped (the NIC reflects every\n"
	"                         packet, no user space), or XDP_DROP; with tx and\n"
	"                         drop this program only kicks, and the rate counts\n"
	"                         the port's xdp_tx or xdp_drop\n"
	"  --flows N              UDP flows of the traffic source (default 1)\n"
	"  --rate PPS             packets per second of the traffic source; what\n"
	"                         finds no posted buffer is rx_missed (default:\n"
	"                         as fast as posted buffers take them)\n"
	"  --nic-cpu CPU          CPU of the NIC thread (default 0; -1: any)\n"
	"  --app-cpu CPU          CPU of this program (default: 1 with --sim,\n"
	"                         unpinned with -i; -1: any)\n"
	"\n"
	"Output:\n"
	"  --json                 a final JSON summary on stdout (the live lines\n"
	"                         go to stderr)\n"
	"  --json-lines           JSON Lines on stdout: an object per interval\n"
	"                         (each second, and the short last one) with\n"
	"                         the running totals, then the summary\n"
	"  --quiet                no live line per second\n"
	"  -h, --help\n"
	"\n"
	"Exit status: 0 done, 1 the library failed, 2 bad command line.\n";

enum {
	OPT_MODE = 256,
	OPT_SIM,
	OPT_SIM_DETERMINISTIC,
	OPT_SAME_CORE,
	OPT_PACKETS,
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
	OPT_BASELINE,
	OPT_COMPARE,
	OPT_JSON,
	OPT_JSON_LINES,
	OPT_QUIET,
	OPT_WAKEUP,
};

static const struct option long_options[] = {
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "rxdrop", no_argument, NULL, 'r' },
	{ "txonly", no_argument, NULL, 't' },
	{ "l2fwd", no_argument, NULL, 'l' },
	{ "sim", no_argument, NULL, OPT_SIM },
	{ "sim-deterministic", no_argument, NULL, OPT_SIM_DETERMINISTIC },
	{ "same-core", no_argument, NULL, OPT_SAME_CORE },
	{ "interface", required_argument, NULL, 'i' },
	{ "queue", required_argument, NULL, 'q' },
	{ "duration", required_argument, NULL, 'd' },
	{ "packets", required_argument, NULL, OPT_PACKETS },
	{ "batch", required_argument, NULL, 'b' },
	{ "pkt-size", required_argument, NULL, 's' },
	{ "frame-size", required_argument, NULL, 'f' },
	{ "frames", required_argument, NULL, OPT_FRAMES },
	{ "rx-size", required_argument, NULL, OPT_RX_SIZE },
	{ "tx-size", required_argument, NULL, OPT_TX_SIZE },
	{ "fill-size", required_argument, NULL, OPT_FILL_SIZE },
	{ "comp-size", required_argument, NULL, OPT_COMP_SIZE },
	{ "no-need-wakeup", no_argument, NULL, 'm' },
	{ "poll", no_argument, NULL, 'p' },
	{ "wakeup", required_argument, NULL, OPT_WAKEUP },
	{ "busy-poll", no_argument, NULL, 'B' },
	{ "zero-copy", no_argument, NULL, 'z' },
	{ "copy", no_argument, NULL, 'c' },
	{ "xdp-native", no_argument, NULL, 'N' },
	{ "xdp-skb", no_argument, NULL, 'S' },
	{ "rx-full-policy", required_argument, NULL, OPT_RX_FULL_POLICY },
	{ "nic-budget", required_argument, NULL, OPT_NIC_BUDGET },
	{ "hw-ring", required_argument, NULL, OPT_HW_RING },
	{ "hw-tx-ring", required_argument, NULL, OPT_HW_TX_RING },
	{ "xdp-action", required_argument, NULL, OPT_XDP_ACTION },
	{ "refill-batch", required_argument, NULL, OPT_REFILL_BATCH },
	{ "flows", required_argument, NULL, OPT_FLOWS },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "nic-cpu", required_argument, NULL, OPT_NIC_CPU },
	{ "app-cpu", required_argument, NULL, OPT_APP_CPU },
	{ "baseline", no_argument, NULL, OPT_BASELINE },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "json-lines", no_argument, NULL, OPT_JSON_LINES },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static const char *const mode_names[] = {
	[BENCH_RXDROP] = "rxdrop",
	[BENCH_TXONLY] = "txonly",
	[BENCH_L2FWD] = "l2fwd",
};

static const char *const xdp_action_names[] = {
	[BENCH_XDP_REDIRECT] = "redirect",
	[BENCH_XDP_TX] = "tx",
	[BENCH_XDP_DROP] = "drop",
};

static const char *const wakeup_names[] = {
	[BENCH_WAKEUP_AUTO] = "auto",
	[BENCH_WAKEUP_POLL] = "poll",
	[BENCH_WAKEUP_LOOP] = "loop",
};

static const char *const policy_names[] = {
	[XSKX_SIM_RX_FULL_STOP] = "stop",
	[XSKX_SIM_RX_FULL_DROP] = "drop",
};

const char *bench_mode_name(enum bench_mode mode)
{
	return mode_names[mode];
}

const char *bench_xdp_action_name(enum bench_xdp_action action)
{
	return xdp_action_names[action];
}

const char *bench_policy_name(enum xskx_sim_rx_full_policy policy)
{
	return policy_names[policy];
}

const char *bench_wakeup_name(enum bench_wakeup wakeup)
{
	return wakeup_names[wakeup];
}

#define COUNT_OF(names) ((uint32_t)(sizeof(names) / sizeof((names)[0])))

/* A CPU number, or -1 for any. */
static bool parse_cpu(const char *flag, const char *arg, int *out)
{
	uint32_t cpu;

	if (!strcmp(arg, "-1")) {
		*out = -1;
		return true;
	}
	if (!cli_parse_u32(flag, arg, 0, 4095, &cpu))
		return false;
	*out = (int)cpu;
	return true;
}

/* What getopt_long() calls the option that it just returned. */
static const char *flag_name(int c)
{
	static char name[40];

	for (const struct option *o = long_options; o->name; o++)
		if (o->val == c) {
			snprintf(name, sizeof(name), "--%s", o->name);
			return name;
		}
	return "?";
}

/*
 * The baseline has no frame pool: only the frames on FILL circulate. Sized
 * to hold every frame (as xdpsock sizes it), FILL gives the baseline and the
 * burst API, whose pool tops FILL up, the same frames in flight.
 */
static uint32_t fill_for_every_frame(uint32_t frames)
{
	uint32_t size = 1;

	if (!frames)
		frames = XSKX_UMEM_DEFAULT_FRAME_COUNT;
	while (size < frames)
		size <<= 1;
	return size;
}

/* Settings that only mean something together with others. */
static bool check_combination(const struct bench_opts *o,
			      const char *sim_only_flag, bool mode_given)
{
	const char *err = NULL;
	uint32_t frame = o->frame_size ? o->frame_size :
					 XSKX_UMEM_DEFAULT_FRAME_SIZE;

	if (!o->sim && !o->ifname)
		err = "choose a backend: --sim (simulated NIC) or -i IFNAME (kernel)";
	else if (o->sim && o->ifname)
		err = "--sim and -i exclude each other: choose one backend";
	else if (o->ifname && sim_only_flag)
		fprintf(stderr,
			"xskx-bench: %s is a setting of the simulated NIC: use it with --sim\n",
			sim_only_flag);
	else if ((o->baseline || o->compare) && mode_given &&
		 o->mode != BENCH_RXDROP)
		err = "--baseline and --compare measure rxdrop only";
	else if (o->baseline && o->compare)
		err = "--compare runs --baseline itself: give one of them";
	else if ((o->baseline || o->compare) &&
		 o->xdp_action != BENCH_XDP_REDIRECT)
		err = "--xdp-action tx and drop leave no packet for --baseline and --compare to receive";
	else if (o->pkt_size + XSKX_XDP_PACKET_HEADROOM > frame)
		fprintf(stderr,
			"xskx-bench: --pkt-size %u does not fit a %u-byte frame after its %u bytes of headroom: raise --frame-size or lower --pkt-size\n",
			o->pkt_size, frame, XSKX_XDP_PACKET_HEADROOM);
	else
		return true;
	if (err)
		fprintf(stderr, "xskx-bench: %s\n", err);
	return false;
}

enum bench_parse_result bench_parse_options(int argc, char **argv,
					    struct bench_opts *o)
{
	const char *sim_only_flag = NULL;
	bool mode_given = false;
	bool zero_copy = false, copy = false;
	bool native = false, generic = false;
	bool queue_given = false, app_cpu_given = false;
	uint32_t choice = 0;
	bool ok = true;
	int c;

	*o = (struct bench_opts){
		.mode = BENCH_RXDROP,
		.duration_s = 10,
		.batch = 64,
		.pkt_size = 64,
		.flows = 1,
		.nic_cpu = 0,
		.app_cpu = 1,
	};
	opterr = 0;
	while (ok && (c = getopt_long(argc, argv, ":rtli:q:d:b:s:f:mpBzcNSh",
				      long_options, NULL)) != -1) {
		switch (c) {
		case OPT_MODE:
			ok = cli_parse_choice("--mode", optarg, mode_names,
					      COUNT_OF(mode_names), &choice);
			o->mode = (enum bench_mode)choice;
			mode_given = true;
			break;
		case 'r':
		case 't':
		case 'l':
			o->mode = c == 'r' ? BENCH_RXDROP :
				  c == 't' ? BENCH_TXONLY :
					     BENCH_L2FWD;
			mode_given = true;
			break;
		case OPT_SAME_CORE:
			o->same_core = true;
			o->busy_poll = true;
			/* fall through */
		case OPT_SIM_DETERMINISTIC:
			o->sim_deterministic = true;
			sim_only_flag = flag_name(c);
			/* fall through */
		case OPT_SIM:
			o->sim = true;
			break;
		case 'i':
			o->ifname = optarg;
			break;
		case 'q':
			ok = cli_parse_u32("--queue", optarg, 0, UINT32_MAX - 1,
					   &o->queue_id);
			queue_given = true;
			break;
		case 'd':
			ok = cli_parse_seconds("--duration", optarg,
					       &o->duration_s);
			break;
		case OPT_PACKETS:
			ok = cli_parse_u64("--packets", optarg, 1, UINT64_MAX,
					   &o->packets);
			break;
		case 'b':
			ok = cli_parse_u32("--batch", optarg, 1, 4096,
					   &o->batch);
			break;
		case 's':
			ok = cli_parse_u32("--pkt-size", optarg, 60, 65536,
					   &o->pkt_size);
			break;
		case 'f':
			ok = cli_parse_u32("--frame-size", optarg, 0, 65536,
					   &o->frame_size);
			break;
		case OPT_FRAMES:
			ok = cli_parse_u32("--frames", optarg, 0, 1u << 24,
					   &o->frames);
			break;
		case OPT_RX_SIZE:
		case OPT_TX_SIZE:
		case OPT_FILL_SIZE:
		case OPT_COMP_SIZE: {
			uint32_t *size = c == OPT_RX_SIZE   ? &o->rx_size :
					 c == OPT_TX_SIZE   ? &o->tx_size :
					 c == OPT_FILL_SIZE ? &o->fill_size :
							      &o->comp_size;

			ok = cli_parse_u32(flag_name(c), optarg, 0, 1u << 24,
					   size);
			break;
		}
		case 'm':
			o->no_need_wakeup = true;
			break;
		case 'p':
			o->wakeup = BENCH_WAKEUP_POLL;
			break;
		case OPT_WAKEUP:
			ok = cli_parse_choice("--wakeup", optarg, wakeup_names,
					      COUNT_OF(wakeup_names), &choice);
			o->wakeup = (enum bench_wakeup)choice;
			break;
		case 'B':
			o->busy_poll = true;
			break;
		case 'z':
			zero_copy = true;
			break;
		case 'c':
			copy = true;
			break;
		case 'N':
			native = true;
			break;
		case 'S':
			generic = true;
			break;
		case OPT_RX_FULL_POLICY:
			sim_only_flag = "--rx-full-policy";
			ok = cli_parse_choice(sim_only_flag, optarg,
					      policy_names,
					      COUNT_OF(policy_names), &choice);
			o->rx_full_policy =
				(enum xskx_sim_rx_full_policy)choice;
			break;
		case OPT_RATE:
			sim_only_flag = "--rate";
			ok = cli_parse_u64(sim_only_flag, optarg, 1, UINT64_MAX,
					   &o->rate_pps);
			break;
		case OPT_XDP_ACTION:
			sim_only_flag = "--xdp-action";
			ok = cli_parse_choice(sim_only_flag, optarg,
					      xdp_action_names,
					      COUNT_OF(xdp_action_names),
					      &choice);
			o->xdp_action = (enum bench_xdp_action)choice;
			break;
		case OPT_NIC_BUDGET:
		case OPT_HW_RING:
		case OPT_HW_TX_RING:
		case OPT_REFILL_BATCH:
		case OPT_FLOWS: {
			uint32_t *v = c == OPT_NIC_BUDGET   ? &o->nic_budget :
				      c == OPT_HW_RING	    ? &o->hw_ring :
				      c == OPT_HW_TX_RING   ? &o->hw_tx_ring :
				      c == OPT_REFILL_BATCH ? &o->refill_batch :
							      &o->flows;

			sim_only_flag = flag_name(c);
			ok = cli_parse_u32(sim_only_flag, optarg, 1, 1u << 20,
					   v);
			break;
		}
		case OPT_NIC_CPU:
			sim_only_flag = flag_name(c);
			ok = parse_cpu(sim_only_flag, optarg, &o->nic_cpu);
			break;
		case OPT_APP_CPU:
			ok = parse_cpu("--app-cpu", optarg, &o->app_cpu);
			app_cpu_given = true;
			break;
		case OPT_BASELINE:
			o->baseline = true;
			break;
		case OPT_COMPARE:
			o->compare = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_JSON_LINES:
			o->json = o->json_lines = true;
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return BENCH_PARSE_HELP;
		case ':':
			fprintf(stderr,
				"xskx-bench: %s needs a value (see --help)\n",
				argv[optind - 1]);
			return BENCH_PARSE_BAD;
		default:
			if (optopt)
				fprintf(stderr,
					"xskx-bench: unknown option '-%c' (see --help)\n",
					optopt);
			else
				fprintf(stderr,
					"xskx-bench: unknown option '%s' (see --help)\n",
					argv[optind - 1]);
			return BENCH_PARSE_BAD;
		}
	}
	if (!ok)
		return BENCH_PARSE_BAD;
	if (optind < argc) {
		fprintf(stderr,
			"xskx-bench: unexpected argument '%s' (see --help)\n",
			argv[optind]);
		return BENCH_PARSE_BAD;
	}
	if (zero_copy && copy) {
		fprintf(stderr, "xskx-bench: -z and -c exclude each other\n");
		return BENCH_PARSE_BAD;
	}
	if (queue_given && !o->ifname) {
		fprintf(stderr,
			"xskx-bench: -q selects a queue of -i IFNAME; the simulated port has one queue\n");
		return BENCH_PARSE_BAD;
	}
	if (native && generic) {
		fprintf(stderr, "xskx-bench: -N and -S exclude each other\n");
		return BENCH_PARSE_BAD;
	}
	if ((native || generic) && !o->ifname) {
		fprintf(stderr,
			"xskx-bench: -N and -S choose where the kernel runs the XDP program: use them with -i IFNAME\n");
		return BENCH_PARSE_BAD;
	}
	/* The kernel's softirqs may share a CPU: pin only where asked to. */
	if (o->ifname && !app_cpu_given)
		o->app_cpu = -1;
	o->copy_mode = zero_copy ? XSKX_ZEROCOPY_FORCE :
		       copy	 ? XSKX_COPY_FORCE :
				   XSKX_COPY_AUTO;
	o->xdp_mode = generic ? XSKX_XDP_GENERIC : XSKX_XDP_NATIVE;
	o->xdp_fallback = !native && !generic;
	if (!check_combination(o, sim_only_flag, mode_given))
		return BENCH_PARSE_BAD;
	if ((o->baseline || o->compare) && !o->fill_size)
		o->fill_size = fill_for_every_frame(o->frames);
	return BENCH_PARSE_RUN;
}
