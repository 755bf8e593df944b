// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* xskx-bench's flag table, and what getopt_long and --help make of it. */
#include <string.h>

#include "flags.h"

#define HEADING(text) { 0, text, NULL, NULL, NULL }
#define REFUSED(letter, long_name, value, why)                 \
	{ letter, long_name, value, NULL, why }

/* clang-format off */
const struct bench_flag bench_flags[] = {
	HEADING("Backend"),
	{ OPT_SIM, "sim", NULL,
	  "the simulated NIC: its thread on one CPU, this\n"
	  "program on another", NULL },
	{ OPT_SIM_DETERMINISTIC, "sim-deterministic", NULL,
	  "the simulated NIC run by this thread between\n"
	  "bursts (reproducible; for instruction counts)", NULL },
	{ OPT_SAME_CORE, "same-core", NULL,
	  "the simulated NIC on this thread, working only\n"
	  "inside its kicks, as with busy polling\n"
	  "(SO_PREFER_BUSY_POLL): each kick first lets the\n"
	  "source fill every posted hardware buffer (a wire\n"
	  "at line rate), then runs one NAPI poll of the\n"
	  "queue, TX and RX within --nic-budget. Implies\n"
	  "--sim-deterministic and -B", NULL },
	{ 'i', "interface", "IFNAME", "the kernel's AF_XDP socket on IFNAME", NULL },
	{ 'q', "queue", "QUEUE", "the queue (index) of IFNAME (default 0)", NULL },
	{ OPT_QUEUES, "queues", "N",
	  "queues QUEUE..QUEUE+N-1 of IFNAME, or N queues of\n"
	  "the simulated port (RSS spreads --flows over\n"
	  "them: give at least N): a UMEM, a socket and a\n"
	  "thread each, queue k's thread on --app-cpu + k;\n"
	  "--rate and -T pace each queue (default: one\n"
	  "queue, on this program's one thread)", NULL },

	HEADING("Mode"),
	{ 'r', "rxdrop", NULL, "receive and drop (default)", NULL },
	{ 't', "txonly", NULL, "transmit generated UDP packets", NULL },
	{ 'l', "l2fwd", NULL, "swap MACs and send every packet back out", NULL },
	{ OPT_MODE, "mode", "MODE", "rxdrop, txonly or l2fwd", NULL },
	{ OPT_API, "api", "API",
	  "the library API the mode runs on: burst\n"
	  "(xskx_rx_burst, xskx_tx_burst; default) or batch\n"
	  "(xskx_rx_peek, xskx_rx_recycle, xskx_rx_forward,\n"
	  "xskx_tx_reserve, xskx_tx_submit)", NULL },
	{ OPT_BASELINE, "baseline", NULL,
	  "the mode on bare libxdp ring operations, no burst API", NULL },
	{ OPT_COMPARE, "compare", NULL,
	  "the mode on --api, then --baseline, and\n"
	  "the ratio of the two, in --pairs interleaved pairs", NULL },
	{ OPT_PAIRS, "pairs", "N",
	  "API/baseline pairs of --compare (default 3,\n"
	  "at most 32): the median ratio and its range", NULL },

	HEADING("Run"),
	{ 'd', "duration", "SECONDS", "run time of each run (default 10)", NULL },
	{ 'C', "tx-pkt-count", "N",
	  "stop after N packets: sent in txonly, received\n"
	  "otherwise (default: no limit)", NULL },
	{ 'C', "packets", NULL, NULL, NULL },
	{ 'O', "retries", "N",
	  "txonly and l2fwd with -C: wait up to N seconds for\n"
	  "the sent packets' completions before the summary\n"
	  "(default 3)", NULL },
	{ 'b', "batch-size", "N", "packets per burst (default 64)", NULL },
	{ 'b', "batch", NULL, NULL, NULL },
	{ OPT_WAKEUP, "wakeup", "auto|poll|loop",
	  "wait for packets with xskx_socket_poll() before\n"
	  "every burst (poll), or burst back to back (loop);\n"
	  "auto (default): as xskx_socket_choose_wakeup()\n"
	  "advises", NULL },
	{ 'p', "poll", NULL, "--wakeup poll", NULL },
	{ 'm', "no-need-wakeup", NULL, "bind without need_wakeup", NULL },
	{ 'B', "busy-poll", NULL, "kick the peer on every burst", NULL },
	{ 'z', "zero-copy", NULL, "force zero-copy", NULL },
	{ 'c', "copy", NULL, "force copy mode", NULL },
	{ 'N', "xdp-native", NULL, "XDP program in the driver, no fallback", NULL },
	{ OPT_KERNEL_TX_BUDGET, "kernel-tx-budget", NULL,
	  "copy-mode TX at the kernel's 32 descriptors per\n"
	  "sendto() (default: the whole TX ring, kernel 6.17+)", NULL },
	{ OPT_TX_KICK_BATCH, "tx-kick-batch", "N",
	  "wake TX (a sendto() in copy mode) once N packets\n"
	  "wait on it (socket option tx_kick_batch; default 64,\n"
	  "or the TX ring if smaller; 0: every burst)", NULL },
	{ OPT_TX_KICK_USEC, "tx-kick-usec", "US",
	  "or once the first waiting packet has waited US\n"
	  "microseconds (tx_kick_usec; default 50; 0: when a\n"
	  "burst queues none)", NULL },
	{ OPT_NAPI, "napi", "SETTINGS",
	  "the queue's NAPI settings, restored at the end:\n"
	  "defer_hard_irqs=N,gro_flush_timeout=NS,\n"
	  "irq_suspend_timeout=NS,threaded=0|1 (kernel 6.13+;\n"
	  "threaded 6.17+; those left out: 0, threaded as is)", NULL },
	{ 'S', "xdp-skb", NULL,
	  "XDP program in generic (skb) mode\n"
	  "(default: native, generic where native fails)", NULL },
	{ 'F', "frags", NULL,
	  "multi-buffer (XDP_USE_SG): a packet larger than\n"
	  "a frame arrives, and txonly sends it, as a chain\n"
	  "of fragments; rates count packets", NULL },
	{ 'w', "clock", "CLOCK",
	  "the clock of every time taken: MONOTONIC\n"
	  "(default), REALTIME, TAI or BOOTTIME", NULL },
	{ 'W', "policy", "POLICY",
	  "scheduling policy of this program: OTHER or FIFO\n"
	  "(default: left as started)", NULL },
	{ 'U', "schpri", "N",
	  "scheduling priority with -W (default 0; FIFO\n"
	  "needs 1 to 99)", NULL },
	{ OPT_APP_CPU, "app-cpu", "CPU",
	  "CPU of this program (default: 1 with --sim,\n"
	  "unpinned with -i; -1: any)", NULL },

	HEADING("The packet txonly sends (UDP over IPv4)"),
	{ 's', "tx-pkt-size", "BYTES",
	  "size on the wire, counting the 4-byte FCS the NIC\n"
	  "appends, as xdpsock counts it (default 68)", NULL },
	{ OPT_PKT_SIZE, "pkt-size", "BYTES",
	  "the same without the FCS: the bytes in the frame\n"
	  "(default 64); also the simulated source's", NULL },
	{ OPT_PCAP_IN, "pcap-in", "FILE",
	  "send the frames of the pcap or pcapng FILE\n"
	  "instead (txonly; --sim's source in rxdrop and\n"
	  "l2fwd), whole and in order: each a frame", NULL },
	{ OPT_PCAP_PACE, "pcap-pace", "asap|recorded|PPS",
	  "--pcap-in's pace: as fast as it goes (default),\n"
	  "the frames' own timing, or PPS a second", NULL },
	{ OPT_PCAP_LOOPS, "pcap-loops", "N",
	  "send --pcap-in N times (default 1; 0: until the\n"
	  "run ends); the run ends after the last one", NULL },
	{ 'P', "tx-pkt-pattern", "HEX",
	  "32-bit pattern filling the UDP payload\n"
	  "(default 12345678)", NULL },
	{ 'V', "tx-vlan", NULL, "an 802.1Q VLAN tag", NULL },
	{ 'J', "tx-vlan-id", "ID", "its VLAN ID, 1 to 4095 (default 1)", NULL },
	{ 'K', "tx-vlan-pri", "PCP", "its priority, 0 to 7 (default 0)", NULL },
	{ 'G', "tx-dmac", "MAC",
	  "destination MAC, aa:bb:cc:dd:ee:ff\n"
	  "(default 02:00:00:00:00:02)", NULL },
	{ 'H', "tx-smac", "MAC",
	  "source MAC (default 02:00:00:00:00:01)", NULL },
	{ 'y', "tstamp", NULL,
	  "a pktgen header after the UDP header: magic,\n"
	  "sequence number and the send time", NULL },
	{ OPT_RATE, "rate", "PPS",
	  "packets per second: what txonly sends (either\n"
	  "backend), or what --sim's traffic source offers,\n"
	  "what finds no posted buffer being rx_missed\n"
	  "(default: as fast as it goes)", NULL },
	{ 'T', "tx-cycle", "USEC",
	  "txonly: one batch every USEC microseconds (a\n"
	  "rate of -b * 1000000 / USEC packets per second)", NULL },

	HEADING("UMEM and rings (0 or absent: the library's default; with\n"
		"--baseline and --compare FILL holds every frame, as the\n"
		"baseline has no frame pool)"),
	{ 'f', "frame-size", "BYTES",
	  "UMEM frame size (a power of two unless -u)", NULL },
	{ 'u', "unaligned", NULL,
	  "unaligned chunk mode (XDP_UMEM_UNALIGNED_CHUNK_FLAG)", NULL },
	{ OPT_HUGEPAGES, "hugepages", NULL,
	  "the UMEM on 2 MiB hugepages (reserve them first:\n"
	  "sysctl vm.nr_hugepages), as xdpsock maps -u's", NULL },
	{ OPT_RX_META, "rx-meta", NULL,
	  "RX metadata (XSKX_PORT_RX_METADATA): count the\n"
	  "received packets carrying each field the device\n"
	  "gave (timestamp, hash, VLAN tag)", NULL },
	{ OPT_TX_CHECKSUM, "tx-checksum", NULL,
	  "txonly: each packet's UDP checksum asked of the peer\n"
	  "in its TX metadata (XSKX_TX_META_CHECKSUM; Linux 6.8+),\n"
	  "computed by the kernel in software on -i\n"
	  "(XSKX_UMEM_TX_SW_CSUM, 6.11+)", NULL },
	{ 'M', "shared-umem", NULL,
	  "l2fwd on two sockets of the queue sharing the UMEM\n"
	  "(XDP_SHARED_UMEM): one receives, the other sends", NULL },
	{ OPT_FRAMES, "frames", "N", "frames of the UMEM", NULL },
	{ OPT_RX_SIZE, "rx-size", "N", "RX ring entries", NULL },
	{ OPT_TX_SIZE, "tx-size", "N", "TX ring entries", NULL },
	{ OPT_FILL_SIZE, "fill-size", "N", "FILL ring entries", NULL },
	{ OPT_COMP_SIZE, "comp-size", "N", "COMPLETION ring entries", NULL },

	HEADING("Simulated NIC"),
	{ OPT_RX_FULL_POLICY, "rx-full-policy", "stop|drop",
	  "RX ring full: stop the poll (default) or drop", NULL },
	{ OPT_NIC_BUDGET, "nic-budget", "N", "packets per NAPI poll (default 64)", NULL },
	{ OPT_HW_RING, "hw-ring", "N", "hardware RX descriptors (default 2048)", NULL },
	{ OPT_HW_TX_RING, "hw-tx-ring", "N",
	  "hardware TX descriptors: packets per TX pass\n"
	  "(default 256)", NULL },
	{ OPT_REFILL_BATCH, "refill-batch", "N",
	  "refill the hardware RX ring once N descriptors\n"
	  "are empty; 1: single descriptors (default 32)", NULL },
	{ OPT_XDP_ACTION, "xdp-action", "redirect|tx|drop",
	  "the port's XDP verdict: to the socket (default),\n"
	  "XDP_TX with MACs swapped (the NIC reflects every\n"
	  "packet, no user space), or XDP_DROP; with tx and\n"
	  "drop this program only kicks, and the rate counts\n"
	  "the port's xdp_tx or xdp_drop", NULL },
	{ OPT_FLOWS, "flows", "N", "UDP flows of the traffic source (default 1)", NULL },
	{ OPT_NIC_CPU, "nic-cpu", "CPU",
	  "CPU of the NIC thread (default 0; -1: any)", NULL },

	HEADING("Output"),
	{ 'n', "interval", "SECONDS",
	  "between two lines (or JSON objects) (default 1)", NULL },
	{ 'x', "extra-stats", NULL,
	  "all six XDP statistics on every line, not only\n"
	  "those that moved", NULL },
	{ 'a', "app-stats", NULL,
	  "the program's own calls on every line: bursts,\n"
	  "empty bursts, polls, kicks and kicks skipped", NULL },
	{ 'I', "irq-string", "STRING",
	  "count the interrupts of the lines of\n"
	  "/proc/interrupts that contain STRING (such as the\n"
	  "interface's name): per second and in all, on every\n"
	  "line and in the summary", NULL },
	{ OPT_JSON, "json", NULL,
	  "a final JSON summary on stdout (the live lines\n"
	  "go to stderr)", NULL },
	{ OPT_JSON_LINES, "json-lines", NULL,
	  "JSON Lines on stdout: an object per interval\n"
	  "(each second, and the short last one) with\n"
	  "the running totals, then the summary", NULL },
	{ 'Q', "quiet", NULL, "no live line per interval", NULL },
	{ 'h', "help", NULL, "this text", NULL },

	HEADING("xdpsock's flags that do not apply to xskx"),
	REFUSED('R', "reduce-cap", NULL,
		"-R hands the XSKMAP to a separate control\n"
		"process (xdpsock_ctrl_proc); xskx attaches its\n"
		"own XDP program and fills its XSKMAP itself:\n"
		"run xskx-bench with CAP_NET_ADMIN, CAP_NET_RAW\n"
		"and CAP_BPF (or as root) instead"),
	{ 0 },
};
/* clang-format on */

static const struct bench_flag *first_entry(int id)
{
	for (const struct bench_flag *f = bench_flags; f->name; f++)
		if (f->id == id)
			return f;
	return NULL;
}

const char *bench_flag_name(int id)
{
	static char name[40];
	const struct bench_flag *f = first_entry(id);

	snprintf(name, sizeof(name), "--%s", f ? f->name : "?");
	return name;
}

const char *bench_flag_refusal(int id)
{
	const struct bench_flag *f = first_entry(id);

	return f ? f->refusal : NULL;
}

#define MAX_FLAGS 128

const struct option *bench_flags_long_options(void)
{
	static struct option longs[MAX_FLAGS];
	size_t n = 0;

	if (longs[0].name)
		return longs;
	/* Another long name takes a value as the first one does. */
	for (const struct bench_flag *f = bench_flags; f->name; f++)
		if (f->id && n + 1 < MAX_FLAGS)
			longs[n++] = (struct option){
				f->name,
				first_entry(f->id)->arg ? required_argument :
							  no_argument,
				NULL, f->id
			};
	return longs;
}

const char *bench_flags_short_options(void)
{
	static char shorts[2 * MAX_FLAGS + 2];
	size_t n = 0;

	if (shorts[0])
		return shorts;
	shorts[n++] = ':';
	for (const struct bench_flag *f = bench_flags; f->name; f++) {
		/* A short letter once, even when it has several long names. */
		if (!f->id || f->id >= 256 || first_entry(f->id) != f)
			continue;
		shorts[n++] = (char)f->id;
		if (f->arg)
			shorts[n++] = ':';
	}
	shorts[n] = '\0';
	return shorts;
}

#define HELP_COLUMN 25

/* "  -x, --name, --alias VALUE", then the help text from HELP_COLUMN. */
static void usage_flag(FILE *f, const struct bench_flag *flag)
{
	int col = fprintf(f, flag->id < 256 ? "  -%c, " : "      ",
			  flag->id);
	const char *text = flag->refusal ? flag->refusal : flag->help;

	col += fprintf(f, "--%s", flag->name);
	for (const struct bench_flag *alias = flag + 1;
	     alias->name && alias->id == flag->id && !alias->help; alias++)
		col += fprintf(f, ", --%s", alias->name);
	if (flag->arg)
		col += fprintf(f, " %s", flag->arg);
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");

		if (col >= HELP_COLUMN - 1) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s%.*s\n", HELP_COLUMN - col, "", (int)len, line);
		col = 0;
		line += len + (line[len] == '\n');
	}
}

void bench_flags_usage(FILE *f)
{
	fputs("Usage: xskx-bench (--sim | -i IFNAME [-q QUEUE]) [options]\n"
	      "\n"
	      "An xdpsock-style benchmark on the xskx burst API: xdpsock's flags\n"
	      "have the same letters, long names and meaning.\n",
	      f);
	for (const struct bench_flag *flag = bench_flags; flag->name; flag++) {
		if (!flag->id)
			fprintf(f, "\n%s:\n", flag->name);
		else if (flag->help || flag->refusal)
			usage_flag(f, flag);
	}
	fputs("\nExit status: 0 done, 1 the library failed, 2 bad command line.\n",
	      f);
}
