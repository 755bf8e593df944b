/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* xskx-bench: the command line. */
#ifndef XSKX_BENCH_OPTIONS_H
#define XSKX_BENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_load.h"
#include "capture_opts.h"

enum bench_mode {
	BENCH_RXDROP,
	BENCH_TXONLY,
	BENCH_L2FWD,
};

/* The simulated port's XDP hook: the default redirect, or a verdict of its own. */
enum bench_xdp_action {
	BENCH_XDP_REDIRECT,
	BENCH_XDP_TX,
	BENCH_XDP_DROP,
};

/* How the run waits for packets: as the library advises, or as told. */
/* --api: which of the library's data-path APIs the mode runs on. */
enum bench_api {
	BENCH_API_BURST, /* xskx_rx_burst(), xskx_tx_burst() (xskx/socket.h) */
	BENCH_API_BATCH, /* xskx_rx_peek(), xskx_tx_reserve() (xskx/batch.h) */
};

enum bench_wakeup {
	BENCH_WAKEUP_AUTO, /* xskx_socket_choose_wakeup() */
	BENCH_WAKEUP_POLL, /* xskx_socket_poll() before every burst */
	BENCH_WAKEUP_LOOP, /* bursts back to back */
};

/* The packet txonly sends (packet.c); xdpsock's -s, -P, -V, -J, -K, -G, -H, -y. */
struct bench_packet_opts {
	uint8_t dst_mac[6], src_mac[6];
	bool vlan;		/* an 802.1Q tag */
	uint16_t vlan_id;
	uint8_t vlan_pcp;
	uint32_t fill_pattern;	/* the UDP payload, 32 bits at a time, big-endian */
	bool timestamp;		/* a pktgen header with the send time */
	/*
	 * --tx-checksum: the UDP checksum field holds the pseudo-header's
	 * sum, for the peer to finish (TX metadata)
	 */
	bool tx_checksum;
};

/* The most --pairs: each pair's two results are kept until the report. */
#define BENCH_MAX_PAIRS 32
/* The most --queues: a UMEM, a socket and a thread each. */
#define BENCH_MAX_QUEUES 16

/* Every setting of a run; a 0 size or count means "the library's default". */
struct bench_opts {
	enum bench_mode mode;
	bool sim;		/* the simulated NIC, threaded */
	bool sim_deterministic; /* the simulated NIC, driven by this thread */
	bool same_core;		/* ... only inside this thread's kicks */
	const char *ifname;	/* the kernel backend */
	uint32_t queue_id;
	uint32_t queues; /* queue_id .. queue_id + queues - 1 */
	/* --queues given, even 1: a thread per queue (queues.c), this one watching */
	bool queue_threads;

	double duration_s;
	uint64_t packets; /* stop after this many packets; 0: no limit */
	uint32_t batch;
	uint32_t pkt_size; /* Ethernet frame without FCS */
	struct bench_packet_opts packet;
	uint32_t frame_size;
	uint32_t frames;
	bool unaligned;	   /* XSKX_UMEM_UNALIGNED */
	bool hugepages;	   /* XSKX_UMEM_HUGEPAGES */
	bool rx_meta;	   /* XSKX_PORT_RX_METADATA, counted (rx_meta.c) */
	bool multi_buffer; /* XSKX_SOCKET_MULTI_BUFFER */
	bool shared_umem;  /* l2fwd: RX and TX on two sockets sharing the UMEM */
	uint32_t rx_size, tx_size, fill_size, comp_size;

	bool no_need_wakeup;
	enum bench_wakeup wakeup;
	bool busy_poll;
	bool kernel_tx_budget; /* XSKX_PORT_KERNEL_TX_BUDGET */
	uint32_t tx_kick_batch; /* xskx_socket_opts.tx_kick_batch */
	uint32_t tx_kick_usec;	/* xskx_socket_opts.tx_kick_usec */
	/* --napi: XSKX_PORT_NAPI and its settings */
	bool napi;
	uint32_t napi_defer_hard_irqs;
	uint64_t napi_gro_flush_timeout_ns;
	uint64_t napi_irq_suspend_timeout_ns;
	enum xskx_napi_threaded napi_threaded;
	enum xskx_copy_mode copy_mode;
	enum xskx_xdp_mode xdp_mode; /* kernel backend */
	bool xdp_fallback;	     /* native unsupported: generic instead */

	/* The simulated NIC's port. */
	enum xskx_sim_rx_full_policy rx_full_policy;
	enum bench_xdp_action xdp_action;
	uint32_t nic_budget, hw_ring, hw_tx_ring, refill_batch, flows;
	/* --sim's traffic source, or txonly's pacing; 0: as fast as it can */
	uint64_t rate_pps;
	int nic_cpu, app_cpu; /* -1: not pinned */

	double interval_s;     /* between two lines or JSON objects */
	clockid_t clock;       /* of every time the program takes */
	int sched_policy;      /* -1: leave the scheduler alone */
	int sched_priority;
	uint32_t tx_retries;   /* txonly -C: seconds to wait for completions */

	enum bench_api api; /* the library API the mode runs on */
	bool baseline; /* the mode on bare libxdp ring operations */
	bool compare;  /* the mode's burst run, then baseline, same settings */
	uint32_t pairs; /* --compare: burst/baseline pairs, interleaved */
	bool json;
	bool json_lines; /* an object per interval, then the summary */
	bool quiet;
	bool extra_stats;	/* all six XDP statistics on every line */
	bool app_stats;		/* bursts, polls and kicks on every line */
	const char *irq_match;	/* count the interrupts of /proc/interrupts' lines naming it */
	/* --pcap-in: what txonly sends, or what --sim's source replays */
	struct capture_opts capture;
	/* txonly: the capture, loaded (bench_load_capture) */
	struct capture_load replay;
};

enum bench_parse_result {
	BENCH_PARSE_RUN,
	BENCH_PARSE_HELP, /* usage printed: exit 0 */
	BENCH_PARSE_BAD,  /* message printed: exit 2 */
};

enum bench_parse_result bench_parse_options(int argc, char **argv,
					    struct bench_opts *opts);

/*
 * txonly --pcap-in: load the capture into opts->replay, the run's -C being
 * its frames times --pcap-loops. Returns 0, or -1 with the message printed.
 */
int bench_load_capture(struct bench_opts *opts);

const char *bench_mode_name(enum bench_mode mode);
const char *bench_xdp_action_name(enum bench_xdp_action action);
const char *bench_policy_name(enum xskx_sim_rx_full_policy policy);
const char *bench_wakeup_name(enum bench_wakeup wakeup);
const char *bench_api_name(enum bench_api api);

#endif /* XSKX_BENCH_OPTIONS_H */
