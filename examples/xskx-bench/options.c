// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: parse and check the command line. Every mistake is reported
 * here, before any library call, with the flag's name and what it accepts.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/ether.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "flags.h"
#include "tx_kick.h"

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

static const char *const api_names[] = {
	[BENCH_API_BURST] = "burst",
	[BENCH_API_BATCH] = "batch",
};

static const char *const policy_names[] = {
	[XSKX_SIM_RX_FULL_STOP] = "stop",
	[XSKX_SIM_RX_FULL_DROP] = "drop",
};

const char *bench_mode_name(enum bench_mode mode)
{
	return mode_names[mode];
}

const char *bench_api_name(enum bench_api api)
{
	return api_names[api];
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

/* One NAME=VALUE item of --napi, len bytes at item, into o. */
static bool napi_item(const char *flag, const char *item, size_t len,
		      struct bench_opts *o)
{
	static const char *const names[] = { "defer_hard_irqs",
					     "gro_flush_timeout",
					     "irq_suspend_timeout", "threaded" };
	const char *eq = memchr(item, '=', len);
	size_t name_len = eq ? (size_t)(eq - item) : len, i;
	char digits[24], *end;
	unsigned long long value;

	for (i = 0; i < COUNT_OF(names); i++)
		if (strlen(names[i]) == name_len &&
		    !strncmp(item, names[i], name_len))
			break;
	if (!eq || i == COUNT_OF(names) || len - name_len - 1 == 0 ||
	    len - name_len - 1 >= sizeof(digits))
		goto bad;
	memcpy(digits, eq + 1, len - name_len - 1);
	digits[len - name_len - 1] = '\0';
	errno = 0;
	value = strtoull(digits, &end, 10);
	if (errno || *end || digits[0] == '-')
		goto bad;
	switch (i) {
	case 0:
		if (value > INT32_MAX)
			goto bad;
		o->napi_defer_hard_irqs = (uint32_t)value;
		break;
	case 1:
		o->napi_gro_flush_timeout_ns = value;
		break;
	case 2:
		o->napi_irq_suspend_timeout_ns = value;
		break;
	default:
		if (value > 1)
			goto bad;
		o->napi_threaded = value ? XSKX_NAPI_THREADED_ON :
					   XSKX_NAPI_THREADED_OFF;
	}
	return true;
bad:
	fprintf(stderr,
		"xskx-bench: %s: '%.*s' is not one of defer_hard_irqs=N (up to 2^31-1), gro_flush_timeout=NS, irq_suspend_timeout=NS, threaded=0|1\n",
		flag, (int)len, item);
	return false;
}

/* --napi SETTINGS: comma-separated NAME=VALUE items. */
static bool parse_napi(const char *flag, const char *spec, struct bench_opts *o)
{
	o->napi = true;
	while (*spec) {
		size_t len = strcspn(spec, ",");

		if (!napi_item(flag, spec, len, o))
			return false;
		spec += len + (spec[len] == ',');
	}
	return true;
}

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

/* xdpsock's -w: the clocks clock_nanosleep() and the kernel's timestamps use. */
static const char *const clock_names[] = { "MONOTONIC", "REALTIME", "TAI",
					   "BOOTTIME" };
static const clockid_t clock_ids[] = { CLOCK_MONOTONIC, CLOCK_REALTIME,
				       CLOCK_TAI, CLOCK_BOOTTIME };

/* xdpsock's -W. */
static const char *const sched_names[] = { "OTHER", "FIFO" };
static const int sched_ids[] = { SCHED_OTHER, SCHED_FIFO };

/* xdpsock spells the names in capitals and takes any case: so does this. */
static bool parse_name(const char *flag, const char *arg,
		       const char *const *names, uint32_t n, uint32_t *out)
{
	char upper[16];
	size_t i;

	for (i = 0; arg[i] && i + 1 < sizeof(upper); i++)
		upper[i] = (char)(arg[i] >= 'a' && arg[i] <= 'z' ?
					  arg[i] - 'a' + 'A' :
					  arg[i]);
	upper[i] = '\0';
	if (arg[i])
		return cli_parse_choice(flag, arg, names, n, out);
	return cli_parse_choice(flag, upper, names, n, out);
}

static bool parse_mac(const char *flag, const char *arg, uint8_t mac[6])
{
	struct ether_addr addr;

	if (!ether_aton_r(arg, &addr))
		return cli_bad(flag, arg, "a MAC address, aa:bb:cc:dd:ee:ff");
	memcpy(mac, addr.ether_addr_octet, 6);
	return true;
}

/* xdpsock's -P: hexadecimal, with or without 0x. */
static bool parse_pattern(const char *flag, const char *arg, uint32_t *out)
{
	const char *digits = strncasecmp(arg, "0x", 2) ? arg : arg + 2;

	if (!*digits || strlen(digits) > 8 ||
	    strspn(digits, "0123456789abcdefABCDEF") != strlen(digits))
		return cli_bad(flag, arg, "up to 8 hexadecimal digits");
	*out = (uint32_t)strtoul(digits, NULL, 16);
	return true;
}

/* What every flag of the table does to the settings. */
struct parse_state {
	const char *sim_only_flag; /* the last one given */
	const char *packet_flag;   /* the last that shapes txonly's packet */
	bool mode_given, queue_given, app_cpu_given;
	bool zero_copy, copy, native, generic;
	uint64_t tx_cycle_us;
};

static bool parse_flag(int c, const char *arg, struct bench_opts *o,
		       struct parse_state *st)
{
	const char *flag = bench_flag_name(c);
	uint32_t choice = 0, u32;
	bool ok = true;

	if ((c > 0 && c < 128 && strchr("sPVJKGHy", c)) || c == OPT_PKT_SIZE)
		st->packet_flag = flag;
	switch (c) {
	case OPT_PCAP_IN:
	case OPT_PCAP_PACE:
	case OPT_PCAP_LOOPS:
		/* capture_opts.h numbers them in, out, pace, loops */
		ok = capture_opts_parse(c == OPT_PCAP_IN	? 0 :
					c == OPT_PCAP_PACE ? 2 :
							     3,
					arg, &o->capture);
		break;
	case OPT_MODE:
		ok = cli_parse_choice(flag, arg, mode_names,
				      COUNT_OF(mode_names), &choice);
		o->mode = (enum bench_mode)choice;
		st->mode_given = true;
		break;
	case 'r':
	case 't':
	case 'l':
		o->mode = c == 'r' ? BENCH_RXDROP :
			  c == 't' ? BENCH_TXONLY :
				     BENCH_L2FWD;
		st->mode_given = true;
		break;
	case OPT_SAME_CORE:
		o->same_core = true;
		o->busy_poll = true;
		/* fall through */
	case OPT_SIM_DETERMINISTIC:
		o->sim_deterministic = true;
		st->sim_only_flag = flag;
		/* fall through */
	case OPT_SIM:
		o->sim = true;
		break;
	case 'i':
		o->ifname = arg;
		break;
	case 'q':
		ok = cli_parse_u32(flag, arg, 0, UINT32_MAX - 1, &o->queue_id);
		st->queue_given = true;
		break;
	case 'd':
		ok = cli_parse_seconds(flag, arg, &o->duration_s);
		break;
	case 'n':
		ok = cli_parse_seconds(flag, arg, &o->interval_s);
		break;
	case 'C':
		ok = cli_parse_u64(flag, arg, 1, UINT64_MAX, &o->packets);
		break;
	case 'O':
		ok = cli_parse_u32(flag, arg, 0, 3600, &o->tx_retries);
		break;
	case 'b':
		ok = cli_parse_u32(flag, arg, 1, 4096, &o->batch);
		break;
	case 's':
		/* On the wire: the frame and its 4-byte FCS, as xdpsock counts. */
		ok = cli_parse_u32(flag, arg, 64, 65540, &u32);
		o->pkt_size = u32 - 4;
		break;
	case OPT_PKT_SIZE:
		ok = cli_parse_u32(flag, arg, 60, 65536, &o->pkt_size);
		break;
	case 'P':
		ok = parse_pattern(flag, arg, &o->packet.fill_pattern);
		break;
	case 'V':
		o->packet.vlan = true;
		break;
	case 'J':
		ok = cli_parse_u32(flag, arg, 1, 4095, &u32);
		o->packet.vlan_id = (uint16_t)u32;
		break;
	case 'K':
		ok = cli_parse_u32(flag, arg, 0, 7, &u32);
		o->packet.vlan_pcp = (uint8_t)u32;
		break;
	case 'G':
		ok = parse_mac(flag, arg, o->packet.dst_mac);
		break;
	case 'H':
		ok = parse_mac(flag, arg, o->packet.src_mac);
		break;
	case 'y':
		o->packet.timestamp = true;
		break;
	case 'T':
		ok = cli_parse_u64(flag, arg, 1, 1000000000, &st->tx_cycle_us);
		break;
	case 'f':
		ok = cli_parse_u32(flag, arg, 0, 65536, &o->frame_size);
		break;
	case 'u':
		o->unaligned = true;
		break;
	case OPT_HUGEPAGES:
		o->hugepages = true;
		break;
	case OPT_RX_META:
		o->rx_meta = true;
		break;
	case OPT_TX_CHECKSUM:
		o->packet.tx_checksum = true;
		break;
	case 'F':
		o->multi_buffer = true;
		break;
	case 'M':
		o->shared_umem = true;
		break;
	case OPT_FRAMES:
		ok = cli_parse_u32(flag, arg, 0, 1u << 24, &o->frames);
		break;
	case OPT_RX_SIZE:
	case OPT_TX_SIZE:
	case OPT_FILL_SIZE:
	case OPT_COMP_SIZE: {
		uint32_t *size = c == OPT_RX_SIZE   ? &o->rx_size :
				 c == OPT_TX_SIZE   ? &o->tx_size :
				 c == OPT_FILL_SIZE ? &o->fill_size :
						      &o->comp_size;

		ok = cli_parse_u32(flag, arg, 0, 1u << 24, size);
		break;
	}
	case 'm':
		o->no_need_wakeup = true;
		break;
	case 'p':
		o->wakeup = BENCH_WAKEUP_POLL;
		break;
	case OPT_KERNEL_TX_BUDGET:
		o->kernel_tx_budget = true;
		break;
	case OPT_TX_KICK_BATCH:
		ok = tx_kick_parse_batch(arg, &o->tx_kick_batch);
		break;
	case OPT_TX_KICK_USEC:
		ok = tx_kick_parse_usec(arg, &o->tx_kick_usec);
		break;
	case OPT_NAPI:
		ok = parse_napi(flag, arg, o);
		break;
	case OPT_WAKEUP:
		ok = cli_parse_choice(flag, arg, wakeup_names,
				      COUNT_OF(wakeup_names), &choice);
		o->wakeup = (enum bench_wakeup)choice;
		break;
	case 'B':
		o->busy_poll = true;
		break;
	case 'z':
		st->zero_copy = true;
		break;
	case 'c':
		st->copy = true;
		break;
	case 'N':
		st->native = true;
		break;
	case 'S':
		st->generic = true;
		break;
	case 'w':
		ok = parse_name(flag, arg, clock_names, COUNT_OF(clock_names),
				&choice);
		o->clock = clock_ids[choice];
		break;
	case 'W':
		ok = parse_name(flag, arg, sched_names, COUNT_OF(sched_names),
				&choice);
		o->sched_policy = sched_ids[choice];
		break;
	case 'U':
		ok = cli_parse_u32(flag, arg, 0, 99, &u32);
		o->sched_priority = (int)u32;
		break;
	case OPT_RX_FULL_POLICY:
		st->sim_only_flag = flag;
		ok = cli_parse_choice(flag, arg, policy_names,
				      COUNT_OF(policy_names), &choice);
		o->rx_full_policy = (enum xskx_sim_rx_full_policy)choice;
		break;
	case OPT_RATE:
		ok = cli_parse_u64(flag, arg, 1, UINT64_MAX, &o->rate_pps);
		break;
	case OPT_XDP_ACTION:
		st->sim_only_flag = flag;
		ok = cli_parse_choice(flag, arg, xdp_action_names,
				      COUNT_OF(xdp_action_names), &choice);
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

		st->sim_only_flag = flag;
		ok = cli_parse_u32(flag, arg, 1, 1u << 20, v);
		break;
	}
	case OPT_NIC_CPU:
		st->sim_only_flag = flag;
		ok = parse_cpu(flag, arg, &o->nic_cpu);
		break;
	case OPT_QUEUES:
		ok = cli_parse_u32(flag, arg, 1, BENCH_MAX_QUEUES, &o->queues);
		o->queue_threads = true;
		break;
	case OPT_APP_CPU:
		ok = parse_cpu(flag, arg, &o->app_cpu);
		st->app_cpu_given = true;
		break;
	case OPT_API:
		ok = cli_parse_choice(flag, arg, api_names, COUNT_OF(api_names),
				      &choice);
		o->api = (enum bench_api)choice;
		break;
	case OPT_BASELINE:
		o->baseline = true;
		break;
	case OPT_COMPARE:
		o->compare = true;
		break;
	case OPT_PAIRS:
		ok = cli_parse_u32(flag, arg, 1, BENCH_MAX_PAIRS, &o->pairs);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_JSON_LINES:
		o->json = o->json_lines = true;
		break;
	case 'Q':
		o->quiet = true;
		break;
	case 'x':
		o->extra_stats = true;
		break;
	case 'a':
		o->app_stats = true;
		break;
	case 'I':
		o->irq_match = arg;
		break;
	}
	return ok;
}

static bool refuse(const char *why)
{
	fprintf(stderr, "xskx-bench: %s\n", why);
	return false;
}

/* Flags that contradict each other or their backend: why, and what instead. */
static bool check_flags(const struct bench_opts *o,
			const struct parse_state *st)
{
	if (st->zero_copy && st->copy)
		return refuse("-z and -c exclude each other");
	if (st->native && st->generic)
		return refuse("-N and -S exclude each other");
	if (st->queue_given && !o->ifname)
		return refuse("-q selects a queue of -i IFNAME; the simulated port's queues are 0..N-1 (--queues N)");
	if ((st->native || st->generic) && !o->ifname)
		return refuse("-N and -S choose where the kernel runs the XDP program: use them with -i IFNAME");
	if (o->sim && o->irq_match)
		return refuse("-I counts a real NIC's interrupts; the simulated NIC raises none: use it with -i IFNAME");
	if (o->shared_umem && o->mode != BENCH_L2FWD)
		return refuse("-M: xskx's XDP program redirects a queue to one socket, so sockets cannot share its traffic as xdpsock's four do; -M with -l receives on one socket and sends on a second one sharing the UMEM");
	if (o->rate_pps && st->tx_cycle_us)
		return refuse("--rate and -T both pace txonly: give one of them");
	if ((o->rate_pps || st->tx_cycle_us) && !o->sim &&
	    o->mode != BENCH_TXONLY)
		return refuse("--rate and -T pace what xskx-bench sends (txonly); on -i the packets received come from another sender: pace that one");
	if (st->tx_cycle_us && o->mode != BENCH_TXONLY)
		return refuse("-T paces txonly (-t); --sim's traffic source takes --rate");
	if (o->napi && o->sim)
		return refuse("--napi sets a kernel queue's NAPI instance: the simulated NIC has none (use -i)");
	if (o->wakeup == BENCH_WAKEUP_POLL && st->tx_cycle_us)
		return refuse("-p (--wakeup poll) and -T exclude each other: -T sleeps until each batch is due");
	if (o->sched_priority && o->sched_policy != SCHED_FIFO)
		return refuse("-U needs -W FIFO: SCHED_OTHER has only priority 0");
	if (o->sched_policy == SCHED_FIFO && !o->sched_priority)
		return refuse("-W FIFO needs -U 1 to 99");
	if (o->packet.tx_checksum && o->mode != BENCH_TXONLY)
		return refuse("--tx-checksum asks for the checksum of the packets xskx-bench builds: use it with -t");
	if (o->packet.tx_checksum && (o->baseline || o->compare))
		return refuse("--tx-checksum needs the burst API's xskx_tx_meta(); the bare-ring baseline sends without TX metadata: leave out --baseline and --compare");
	return true;
}

/*
 * --queues N: a thread per queue (queues.c), this one watching. What needs
 * this thread inside the loop, or one queue, is refused.
 */
static bool check_queues(const struct bench_opts *o)
{
	if (!o->queue_threads)
		return true;
	if (o->baseline || o->compare)
		return refuse("--baseline and --compare measure one queue against bare rings: leave out --queues");
	if (o->sim_deterministic || o->same_core)
		return refuse("--sim-deterministic and --same-core run the NIC on the one application thread: with --queues, use --sim (the NIC on a thread of its own)");
	if (o->sim && o->flows < o->queues) {
		fprintf(stderr,
			"xskx-bench: RSS spreads the source's flows over the queues: %u flow%s leave%s queues idle; give --flows %u or more\n",
			o->flows, o->flows == 1 ? "" : "s",
			o->flows == 1 ? "s" : "", o->queues);
		return false;
	}
	if (o->sched_policy >= 0)
		return refuse("-W and -U set this program's scheduling: leave them out with --queues");
	if (o->irq_match)
		return refuse("-I counts the interface's interrupts for one queue's run: leave it out with --queues");
	if (o->packets && o->mode == BENCH_TXONLY)
		return refuse("-C counts what one txonly socket sent: with --queues, stop by --duration");
	if (o->queue_id > UINT32_MAX - o->queues)
		return refuse("-q plus --queues passes the largest queue index");
	return true;
}

/*
 * --pcap-in: txonly sends the capture's frames as they are, one frame each,
 * on the burst API; --sim's source replays it in rxdrop and l2fwd. What
 * would shape or pace other packets is refused.
 */
static bool check_capture(const struct bench_opts *o,
			  const struct parse_state *st)
{
	const char *misplaced = capture_opts_misplaced(&o->capture);

	if (misplaced)
		return refuse(misplaced);
	if (!o->capture.in)
		return true;
	if (o->mode != BENCH_TXONLY && !o->sim)
		return refuse("--pcap-in on -i: txonly sends it; in rxdrop and l2fwd another sender's packets arrive, which --sim's source can replay");
	if (o->rate_pps || st->tx_cycle_us)
		return refuse("--pcap-in is paced by --pcap-pace (PPS, or recorded): leave out --rate and -T");
	if (o->packets)
		return refuse("--pcap-in's frames times --pcap-loops is the count: leave out -C");
	if (st->packet_flag) {
		fprintf(stderr,
			"xskx-bench: %s shapes the UDP packet txonly builds; --pcap-in sends the capture's frames as they are\n",
			st->packet_flag);
		return false;
	}
	if (o->mode != BENCH_TXONLY)
		return true;
	if (o->multi_buffer || o->baseline || o->compare ||
	    o->api == BENCH_API_BATCH || o->packet.tx_checksum)
		return refuse("txonly --pcap-in sends one frame per packet on the burst API: leave out -F, --baseline, --compare, --api batch and --tx-checksum");
	if (o->queue_threads)
		return refuse("txonly --pcap-in sends the capture in order on one queue: leave out --queues");
	return true;
}

int bench_load_capture(struct bench_opts *o)
{
	/* Each frame must fit a frame's room: checked once the UMEM is made. */
	if (capture_load("xskx-bench", o->capture.in, UINT32_MAX, &o->replay))
		return -1;
	o->packets = o->capture.loops &&
				     o->capture.loops <= UINT64_MAX / o->replay.n ?
			     o->capture.loops * o->replay.n :
			     0;
	o->rate_pps = o->capture.timing == XSKX_SIM_CAPTURE_RATE ?
			      o->capture.rate_pps :
			      0;
	return 0;
}

/* Settings that only mean something together with others. */
static bool check_combination(const struct bench_opts *o,
			      const struct parse_state *st)
{
	uint32_t frame = o->frame_size ? o->frame_size :
					 XSKX_UMEM_DEFAULT_FRAME_SIZE;
	/* The simulated source's packets land after the kernel's headroom. */
	bool sim_receives = o->sim && o->mode != BENCH_TXONLY;
	uint32_t room = sim_receives ? frame - XSKX_XDP_PACKET_HEADROOM : frame;

	if (!o->sim && !o->ifname)
		return refuse("choose a backend: --sim (simulated NIC) or -i IFNAME (kernel)");
	if (o->sim && o->ifname)
		return refuse("--sim and -i exclude each other: choose one backend");
	if (o->ifname && st->sim_only_flag) {
		fprintf(stderr,
			"xskx-bench: %s is a setting of the simulated NIC: use it with --sim\n",
			st->sim_only_flag);
		return false;
	}
	if (o->baseline && o->compare)
		return refuse("--compare runs --baseline itself: give one of them");
	if (o->api == BENCH_API_BATCH && o->mode == BENCH_TXONLY &&
	    o->multi_buffer)
		return refuse("a TX batch (--api batch) holds packets of one frame each: leave out -F, or send chains with --api burst");
	if ((o->baseline || o->compare) && o->xdp_action != BENCH_XDP_REDIRECT)
		return refuse("--xdp-action tx and drop leave no packet for --baseline and --compare to receive");
	if ((o->baseline || o->compare) && o->rx_meta)
		return refuse("--rx-meta reads each packet's struct with xskx_pkt_rx_meta(), which --baseline's bare rings do not: leave out one of them");
	if (o->rx_meta && (o->mode == BENCH_TXONLY ||
			   o->xdp_action != BENCH_XDP_REDIRECT))
		return refuse("--rx-meta counts what the sockets receive: use it with rxdrop or l2fwd, and --xdp-action redirect");
	if ((o->baseline || o->compare) && (o->unaligned || o->multi_buffer))
		return refuse("--baseline gives every received frame back to FILL by its aligned start, one descriptor a packet: leave out -u and -F");
	if (o->mode == BENCH_TXONLY &&
	    o->pkt_size < bench_packet_min_size(&o->packet)) {
		fprintf(stderr,
			"xskx-bench: a %u-byte packet cannot hold its headers%s: raise -s to at least %u bytes (%u on the wire)\n",
			o->pkt_size, o->packet.timestamp ? " and -y's pktgen header" : "",
			bench_packet_min_size(&o->packet),
			bench_packet_min_size(&o->packet) + 4);
		return false;
	}
	if (o->pkt_size > room && !o->multi_buffer) {
		fprintf(stderr,
			"xskx-bench: a %u-byte packet does not fit a %u-byte frame%s: raise --frame-size, lower -s%s\n",
			o->pkt_size, frame,
			sim_receives ? " after the kernel's 256 bytes of headroom" :
				       "",
			", or take it in fragments (-F)");
		return false;
	}
	return true;
}

enum bench_parse_result bench_parse_options(int argc, char **argv,
					    struct bench_opts *o)
{
	const struct option *longs = bench_flags_long_options();
	const char *shorts = bench_flags_short_options();
	struct parse_state st = { 0 };
	int c;

	*o = (struct bench_opts){
		.mode = BENCH_RXDROP,
		.duration_s = 10,
		.interval_s = 1,
		.clock = CLOCK_MONOTONIC,
		.sched_policy = -1,
		.tx_retries = 3,
		.batch = 64,
		.pkt_size = 64,
		.packet = {
			.dst_mac = { 0x02, 0, 0, 0, 0, 0x02 },
			.src_mac = { 0x02, 0, 0, 0, 0, 0x01 },
			.vlan_id = 1,
			.fill_pattern = 0x12345678,
		},
		.flows = 1,
		.nic_cpu = 0,
		.app_cpu = 1,
		.pairs = 3,
		.queues = 1,
		.tx_kick_batch = TX_KICK_UNSET,
		.tx_kick_usec = TX_KICK_UNSET,
		.capture = CAPTURE_OPTS_DEFAULTS,
	};
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const char *refusal = c > 0 ? bench_flag_refusal(c) : NULL;

		if (c == 'h') {
			bench_flags_usage(stdout);
			return BENCH_PARSE_HELP;
		}
		if (c == ':') {
			fprintf(stderr,
				"xskx-bench: %s needs a value (see --help)\n",
				argv[optind - 1]);
			return BENCH_PARSE_BAD;
		}
		if (c == '?') {
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
		if (refusal) {
			/* --help's lines, joined into one message. */
			fputs("xskx-bench: ", stderr);
			for (const char *p = refusal; *p; p++)
				fputc(*p == '\n' ? ' ' : *p, stderr);
			fputc('\n', stderr);
			return BENCH_PARSE_BAD;
		}
		if (!parse_flag(c, optarg, o, &st))
			return BENCH_PARSE_BAD;
	}
	if (optind < argc) {
		fprintf(stderr,
			"xskx-bench: unexpected argument '%s' (see --help)\n",
			argv[optind]);
		return BENCH_PARSE_BAD;
	}
	tx_kick_resolve(o->tx_size, &o->tx_kick_batch, &o->tx_kick_usec);
	if (!check_flags(o, &st) || !check_capture(o, &st) ||
	    !check_combination(o, &st) || !check_queues(o))
		return BENCH_PARSE_BAD;
	/* The kernel's softirqs may share a CPU: pin only where asked to. */
	if (o->ifname && !st.app_cpu_given)
		o->app_cpu = -1;
	o->copy_mode = st.zero_copy ? XSKX_ZEROCOPY_FORCE :
		       st.copy	    ? XSKX_COPY_FORCE :
				      XSKX_COPY_AUTO;
	o->xdp_mode = st.generic ? XSKX_XDP_GENERIC : XSKX_XDP_NATIVE;
	o->xdp_fallback = !st.native && !st.generic;
	/* -T: a batch per cycle is a rate of batch / cycle. */
	if (st.tx_cycle_us)
		o->rate_pps = ((uint64_t)o->batch * 1000000 + st.tx_cycle_us - 1) /
			      st.tx_cycle_us;
	if ((o->baseline || o->compare) && !o->fill_size)
		o->fill_size = fill_for_every_frame(o->frames);
	return BENCH_PARSE_RUN;
}
