/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* xskx-bench: the command line. */
#ifndef XSKX_BENCH_OPTIONS_H
#define XSKX_BENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/xskx.h>

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
enum bench_wakeup {
	BENCH_WAKEUP_AUTO, /* xskx_socket_choose_wakeup() */
	BENCH_WAKEUP_POLL, /* xskx_socket_poll() before every burst */
	BENCH_WAKEUP_LOOP, /* bursts back to back */
};

/* Every setting of a run; a 0 size or count means "the library's default". */
struct bench_opts {
	enum bench_mode mode;
	bool sim;		/* the simulated NIC, threaded */
	bool sim_deterministic; /* the simulated NIC, driven by this thread */
	bool same_core;		/* ... only inside this thread's kicks */
	const char *ifname;	/* the kernel backend */
	uint32_t queue_id;

	double duration_s;
	uint64_t packets; /* stop after this many packets; 0: no limit */
	uint32_t batch;
	uint32_t pkt_size; /* Ethernet frame without FCS */
	uint32_t frame_size;
	uint32_t frames;
	uint32_t rx_size, tx_size, fill_size, comp_size;

	bool no_need_wakeup;
	enum bench_wakeup wakeup;
	bool busy_poll;
	enum xskx_copy_mode copy_mode;
	enum xskx_xdp_mode xdp_mode; /* kernel backend */
	bool xdp_fallback;	     /* native unsupported: generic instead */

	/* The simulated NIC's port. */
	enum xskx_sim_rx_full_policy rx_full_policy;
	enum bench_xdp_action xdp_action;
	uint32_t nic_budget, hw_ring, hw_tx_ring, refill_batch, flows;
	uint64_t rate_pps;    /* of the traffic source; 0: as fast as it can */
	int nic_cpu, app_cpu; /* -1: not pinned */

	bool baseline; /* rxdrop on bare libxdp ring operations */
	bool compare;  /* rxdrop burst, then baseline, same settings */
	bool json;
	bool json_lines; /* an object per interval, then the summary */
	bool quiet;
};

enum bench_parse_result {
	BENCH_PARSE_RUN,
	BENCH_PARSE_HELP, /* usage printed: exit 0 */
	BENCH_PARSE_BAD,  /* message printed: exit 2 */
};

enum bench_parse_result bench_parse_options(int argc, char **argv,
					    struct bench_opts *opts);

const char *bench_mode_name(enum bench_mode mode);
const char *bench_xdp_action_name(enum bench_xdp_action action);
const char *bench_policy_name(enum xskx_sim_rx_full_policy policy);
const char *bench_wakeup_name(enum bench_wakeup wakeup);

#endif /* XSKX_BENCH_OPTIONS_H */
