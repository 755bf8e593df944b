// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-fw's firewall core on four queues of veth pairs with four queues
 * each, inside a private network namespace (tests/veth/netns.c):
 *
 *   outerA <-> inA  [firewall, queues 0-3]  inB <-> outB
 *
 * An AF_XDP TX socket on each of outerA's queues sends its own numbered
 * packets (veth hands TX queue N of one end to RX queue N of the other, in
 * native mode): firewall queue N must receive exactly its sender's, and
 * what it forwards leave outB once each; the queues' counters add up to
 * what was sent. Then a reload to "default deny": every queue judges its
 * next packets with the new set, and nothing more leaves outB. Native
 * mode only: generic XDP on veth sees queue 0 alone. Needs root; exits 77
 * without it.
 */
#include <linux/if_ether.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "example_veth.h"
#include "fw.h"
#include "helpers.h"
#include "netns.h"
#include "stream.h"
#include "veth_io.h"

#define OUTER_A "xfqa0"
#define IN_A "xfqa1"
#define IN_B "xfqb1"
#define OUTER_B "xfqb0"

#define QUEUES 4u
#define PKTS 200u	      /* per queue and round: under veth's 256-entry rings */
#define SEQ_PER_QUEUE 100000u /* a packet's number says its queue */
#define PKT_LEN 64u
#define MAX_ROUNDS 100000u
#define TIME_LIMIT_S 20
#define CASE_TIMEOUT_S (2 * TIME_LIMIT_S + 10)

/* What left outB: each numbered packet's copies. */
struct out_counts {
	uint8_t seen[QUEUES][2 * PKTS];
	uint32_t received, foreign;
};

static void drain(int fd, struct out_counts *out)
{
	uint8_t buf[2048];
	ssize_t n;

	while ((n = example_raw_recv(fd, buf, sizeof(buf))) >= 0) {
		uint32_t seq, q, i;

		if (!n)
			continue;
		if (!pkt_seq(buf, (uint32_t)n, &seq)) {
			out->foreign++;
			continue;
		}
		q = seq / SEQ_PER_QUEUE;
		i = seq % SEQ_PER_QUEUE;
		ck_assert_msg(q < QUEUES && i < 2 * PKTS, "packet %u unknown", seq);
		out->seen[q][i]++;
		out->received++;
	}
}

/* Send PKTS numbered from round * PKTS on each of outerA's queues. */
static void send_round(struct veth_end tx[], uint32_t round)
{
	for (uint32_t q = 0; q < QUEUES; q++) {
		ck_assert_uint_eq(veth_send(&tx[q], PKTS, PKT_LEN,
					    q * SEQ_PER_QUEUE + round * PKTS),
				  PKTS);
		ck_assert_uint_eq(veth_wait_completions(&tx[q],
							(round + 1) * PKTS),
				  (round + 1) * PKTS);
	}
}

static uint64_t queue_rx(const struct fw *fw, uint32_t q)
{
	return fw->queues[q].fwd.ports[0].count.rx;
}

/*
 * Step every queue until each received want packets on inA and outB has
 * out_want, bounded in rounds and time.
 */
static void step_until(struct fw *fw, uint64_t want, int rx_fd,
		       struct out_counts *out, uint32_t out_want)
{
	struct timespec deadline = example_deadline(TIME_LIMIT_S);

	for (uint32_t round = 0; round < MAX_ROUNDS &&
				 !example_past(&deadline);
	     round++) {
		bool all = out->received >= out_want;
		int moved = 0;

		for (uint32_t q = 0; q < QUEUES; q++) {
			int n = fw_step(&fw->queues[q]);

			ck_assert_msg(n >= 0, "fw_step: %s", xskx_strerror(n));
			moved += n;
			all = all && queue_rx(fw, q) >= want;
		}
		drain(rx_fd, out);
		if (all)
			return;
		if (!moved)
			poll(NULL, 0, 1);
	}
}

START_TEST(four_queues_native)
{
	static const char *const inner[] = { IN_A, IN_B };
	struct veth_end_opts tx_opts = { .ifname = OUTER_A,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_RX };
	struct fwd_config cfg = { .nports = 2 };
	static struct out_counts out;
	struct veth_end tx[QUEUES];
	struct fw_ruleset *rs, *old;
	struct fw_errors errs;
	struct fw_stage2 s2;
	int rx_fd;
	struct fw fw;

	memset(&out, 0, sizeof(out));
	example_veth_pairs_create_queues(OUTER_A, IN_A, OUTER_B, IN_B, QUEUES);
	ck_assert_int_eq(fw_rules_parse("default allow\n", 14, &rs, &errs), 0);
	example_ports_open(cfg.ports, inner, 2, XSKX_XDP_NATIVE);
	ck_assert_msg(!fw_open(&fw, &cfg, QUEUES, rs), "fw_open: %s",
		      xskx_last_error());
	for (uint32_t q = 0; q < QUEUES; q++) {
		tx_opts.queue = q;
		tx_opts.port = q ? tx[0].port : NULL; /* one per interface */
		ck_assert_msg(veth_end_open(&tx[q], &tx_opts) == 0, "%s",
			      xskx_last_error());
	}
	rx_fd = example_raw_socket(OUTER_B, ETH_P_ALL);

	/* Each queue receives its sender's packets, all forwarded, once. */
	send_round(tx, 0);
	step_until(&fw, PKTS, rx_fd, &out, QUEUES * PKTS);
	for (uint32_t q = 0; q < QUEUES; q++) {
		ck_assert_msg(queue_rx(&fw, q) == PKTS,
			      "queue %u received %llu, sent %u", q,
			      (unsigned long long)queue_rx(&fw, q), PKTS);
		ck_assert_uint_eq(fw.queues[q].fwd.ports[1].count.tx, PKTS);
		for (uint32_t i = 0; i < PKTS; i++)
			ck_assert_msg(out.seen[q][i] == 1,
				      "queue %u packet %u left outB %u times", q,
				      i, out.seen[q][i]);
	}
	ck_assert_uint_eq(out.received, QUEUES * PKTS);

	/* The reload: every queue denies from its next burst on. */
	ck_assert_int_eq(fw_rules_parse("default deny\n", 13, &rs, &errs), 0);
	ck_assert_int_eq(fw_install(&fw, rs, &old), 0);
	send_round(tx, 1);
	step_until(&fw, 2 * PKTS, rx_fd, &out, QUEUES * PKTS);
	ck_assert(fw_adopted(&fw));
	fw_rules_free(old);
	poll(NULL, 0, 50); /* anything wrongly forwarded has time to show */
	drain(rx_fd, &out);
	for (uint32_t q = 0; q < QUEUES; q++) {
		ck_assert_uint_eq(queue_rx(&fw, q), 2 * PKTS);
		ck_assert_uint_eq(fw.queues[q].stage2.denied.packets, PKTS);
		ck_assert_uint_eq(fw.queues[q].fwd.ports[1].count.tx, PKTS);
	}
	ck_assert_uint_eq(out.received, QUEUES * PKTS);
	/* Summed over the queues: every packet judged once (not IP: default). */
	fw_stage2_read(&fw, &s2);
	ck_assert_uint_eq(s2.allowed.packets + s2.denied.packets,
			  2 * QUEUES * PKTS);
	ck_assert_uint_eq(s2.unclassified[FW_UNCLASSIFIED_NOT_IP].packets,
			  2 * QUEUES * PKTS);

	close(rx_fd);
	for (uint32_t q = QUEUES; q-- > 0;)
		veth_end_close(&tx[q]);
	ck_assert_int_eq(fw_close(&fw), 0);
	example_ports_close(cfg.ports, 2);
	example_assert_no_xdp_program(IN_A);
	example_assert_no_xdp_program(IN_B);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("fw_queues_veth");

	veth_sandbox_enter();
	example_add_case(s, "four_queues_native", four_queues_native,
			 CASE_TIMEOUT_S);
	return test_main(s, argc, argv);
}
