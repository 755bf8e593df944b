// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Offline firewall runs: crafted frames written to a capture, replayed
 * through xskx-fw (and xskx-l2fwd) on the simulated NIC with --pcap-in,
 * and the capture the program writes with --pcap-out compared with the
 * frames the rules allow, byte for byte and in order; the same run twice
 * writes the same file; tcpdump and tshark read it. The programs run as
 * the user runs them, in a child process.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture_files.h"
#include "fw_frames.h"
#include "fwd_sim.h"
#include "helpers.h"

#define LOOPS 3
#define MAX_OUT 256

static char dir[] = "/tmp/xskx-fw-capture-XXXXXX";

/* The frames replayed, and whether the rules below allow each. */
struct crafted {
	struct ip_spec spec;
	bool allowed;
};

static const char rules[] =
	"# stage 1 (XDP): by prefix alone; stage 2: the rest\n"
	"deny src 203.0.113.0/24\n"
	"deny proto udp port 53\n"
	"deny dst 2001:db8:bad::/48 proto tcp\n"
	"default allow\n";

static const struct crafted crafted[] = {
	{ { .src = "192.0.2.1",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_UDP,
	    .dport = 9 },
	  true },
	{ { .src = "192.0.2.1",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_UDP,
	    .dport = 53 },
	  false },
	{ { .src = "203.0.113.9",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_TCP,
	    .dport = 80 },
	  false },
	{ { .src = "2001:db8::1",
	    .dst = "2001:db8::2",
	    .proto = IPPROTO_TCP,
	    .dport = 443 },
	  true },
	{ { .src = "2001:db8::1",
	    .dst = "2001:db8:bad::2",
	    .proto = IPPROTO_TCP,
	    .dport = 443 },
	  false },
	{ { .src = "192.0.2.1",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_ICMP,
	    .dport = 0,
	    .vlans = 1 },
	  true },
	{ { .src = "192.0.2.1",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_UDP,
	    .dport = 53,
	    .vlans = 2 },
	  false },
	{ { .src = "192.0.2.3",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_UDP,
	    .dport = 53,
	    .frag_offset = 8 },
	  true }, /* a later fragment: default allow */
	{ { .src = "192.0.2.1",
	    .dst = "198.51.100.7",
	    .proto = IPPROTO_TCP,
	    .dport = 22,
	    .cut = 10 },
	  true },
	{ { .src = "2001:db8::1",
	    .dst = "2001:db8::2",
	    .proto = IPPROTO_ICMPV6,
	    .dport = 0,
	    .ipv6_ext = true },
	  true },
};
#define NCRAFTED (sizeof(crafted) / sizeof(crafted[0]))

static uint8_t frames[NCRAFTED][FW_FRAME_MAX];
static uint32_t lens[NCRAFTED];

static void path_of(char *path, const char *name)
{
	snprintf(path, 256, "%s/%s", dir, name);
}

/* The crafted frames as a capture, 1 ms apart, and the rule file. */
static void write_inputs(const char *in, const char *rules_path)
{
	struct capture_frame out[NCRAFTED];
	FILE *f;

	for (uint32_t i = 0; i < NCRAFTED; i++) {
		lens[i] = fw_frame_build(frames[i], &crafted[i].spec);
		out[i] = (struct capture_frame){ frames[i], lens[i], lens[i],
						 (uint64_t)i * 1000000 };
	}
	ck_assert_int_eq(capture_file_write(in, CAPTURE_LINK_ETHERNET, out,
					    NCRAFTED),
			 0);
	f = fopen(rules_path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(rules, f);
	fclose(f);
}

/* Run argv with its output in log; its exit status. */
static int run(char *const argv[], const char *log)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		FILE *f = freopen(log, "w", stderr);

		if (!f || dup2(fileno(f), STDOUT_FILENO) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Each refused command has -d 5 too: a regression that runs it ends. */
static bool log_says(const char *log, const char *what)
{
	char text[16384];
	FILE *f = fopen(log, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	return strstr(text, what) != NULL;
}

/* xskx-fw --sim replays in and writes out; it ends once all is handled. */
static void run_fw(const char *in, const char *rules_path, const char *out)
{
	char log[256], loops[16];
	char *argv[] = { XSKX_FW_PATH, "--sim", "-r", (char *)rules_path,
			 "--pcap-in", (char *)in, "--pcap-loops", loops,
			 "--pcap-out", (char *)out, "--quiet",
			 /* a bound, should the replay never end */
			 "-d", "120", NULL };

	snprintf(loops, sizeof(loops), "%d", LOOPS);
	path_of(log, "fw.log");
	ck_assert_int_eq(run(argv, log), 0);
	ck_assert_msg(log_says(log, "(replayed)"),
		      "xskx-fw did not end with the replay (see %s)", log);
}

/* out holds the allowed frames, in order, LOOPS times over. */
static void check_output(const char *out)
{
	static struct capture_frame got[MAX_OUT];
	int n = capture_file_read(out, got, MAX_OUT);
	uint32_t k = 0;

	ck_assert_int_ge(n, 0);
	for (uint32_t loop = 0; loop < LOOPS; loop++)
		for (uint32_t i = 0; i < NCRAFTED; i++) {
			if (!crafted[i].allowed)
				continue;
			ck_assert_msg(k < (uint32_t)n, "only %d frames written",
				      n);
			ck_assert_uint_eq(got[k].len, lens[i]);
			ck_assert_msg(
				!memcmp(got[k].bytes, frames[i], lens[i]),
				"written frame %u is not crafted frame %u",
				k + 1, i + 1);
			k++;
		}
	ck_assert_int_eq(n, (int)k);
	capture_frames_free(got, (uint32_t)n);
}

static uint32_t allowed_count(void)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < NCRAFTED; i++)
		n += crafted[i].allowed;
	return n * LOOPS;
}

/* A shell command's first line of output as a number. */
static long command_number(const char *cmd)
{
	char line[64] = "";
	FILE *p = popen(cmd, "r");

	ck_assert_ptr_nonnull(p);
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	return strtol(line, NULL, 10);
}

START_TEST(fw_writes_what_the_rules_allow)
{
	char in[256], rules_path[256], out[256], log[256];

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	path_of(out, "out.pcap");
	write_inputs(in, rules_path);
	run_fw(in, rules_path, out);
	check_output(out);
	/* Only sim0 replays: nothing arrives on sim1. */
	path_of(log, "fw.log");
	ck_assert(log_says(log, "sim1       received 0,"));
}
END_TEST

START_TEST(fw_writes_the_same_file_every_run)
{
	char in[256], rules_path[256], a[256], b[256], cmd[1024];

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	path_of(a, "a.pcap");
	path_of(b, "b.pcap");
	write_inputs(in, rules_path);
	run_fw(in, rules_path, a);
	run_fw(in, rules_path, b);
	snprintf(cmd, sizeof(cmd), "cmp %s %s", a, b);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(real_tools_read_what_fw_writes)
{
	char in[256], rules_path[256], out[256], cmd[1024];

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	path_of(out, "out.pcap");
	write_inputs(in, rules_path);
	run_fw(in, rules_path, out);
	snprintf(cmd, sizeof(cmd), "tcpdump -nn -r %s 2>/dev/null | wc -l",
		 out);
	ck_assert_int_eq(command_number(cmd), allowed_count());
	/* The denied port 53 and 203.0.113.0/24 never appear. */
	snprintf(
		cmd, sizeof(cmd),
		"tcpdump -nn -r %s 'udp port 53 and not ip[6:2] & 0x1fff != 0 or net 203.0.113.0/24' 2>/dev/null | wc -l",
		out);
	ck_assert_int_eq(command_number(cmd), 0);
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -e frame.len 2>/dev/null | wc -l",
		 out);
	ck_assert_int_eq(command_number(cmd), allowed_count());
}
END_TEST

START_TEST(l2fwd_forwards_every_frame_unchanged)
{
	char in[256], out[256], log[256];
	char *argv[] = { XSKX_L2FWD_PATH, "--sim", "--pcap-in", in,
			 "--pcap-out",	  out,	   "--quiet",	"-d",
			 "120",		  NULL };
	static struct capture_frame got[MAX_OUT];
	int n;

	path_of(in, "in.pcap");
	path_of(out, "out.pcap");
	path_of(log, "l2fwd.log");
	write_inputs(in, log); /* the rules are not used */
	ck_assert_int_eq(run(argv, log), 0);
	ck_assert_msg(log_says(log, "(replayed)"), "see %s", log);
	n = capture_file_read(out, got, MAX_OUT);
	ck_assert_int_eq(n, (int)NCRAFTED);
	for (uint32_t i = 0; i < NCRAFTED; i++) {
		ck_assert_uint_eq(got[i].len, lens[i]);
		ck_assert(!memcmp(got[i].bytes, frames[i], lens[i]));
	}
	capture_frames_free(got, (uint32_t)n);
}
END_TEST

START_TEST(bad_captures_and_flags_are_refused)
{
	char in[256], rules_path[256], log[256];
	char *missing[] = { XSKX_FW_PATH, "--sim",     "-r",
			    rules_path,	  "--pcap-in", "/nonexistent.pcap",
			    "-d", "5", NULL };
	char *no_sim[] = { XSKX_FW_PATH, "-i",	     "a",	  "-o", "b",
			   "-r",	 rules_path, "--pcap-in", in,	NULL };
	char *no_in[] = { XSKX_FW_PATH,	  "--sim", "-r", rules_path,
			  "--pcap-loops", "2", "-d", "5", NULL };
	char *bad_pace[] = { XSKX_FW_PATH,  "--sim",	 "-r",
			     rules_path,    "--pcap-in", in,
			     "--pcap-pace", "fast", "-d", "5", NULL };

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	path_of(log, "bad.log");
	write_inputs(in, rules_path);
	ck_assert_int_eq(run(missing, log), 1);
	ck_assert(log_says(log, "capture /nonexistent.pcap"));
	ck_assert_int_eq(run(no_sim, log), 2);
	ck_assert(log_says(log, "xskx-bench --mode txonly --pcap-in"));
	ck_assert_int_eq(run(no_in, log), 2);
	ck_assert(log_says(log, "shape --pcap-in's replay"));
	ck_assert_int_eq(run(bad_pace, log), 2);
	ck_assert(log_says(log, "--pcap-pace fast: expected asap, recorded"));
}
END_TEST

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The time xskx-fw takes to replay in at pace; never less than the pace. */
static double timed_run(const char *in, const char *rules_path,
			const char *pace)
{
	char log[256];
	char *argv[] = { XSKX_FW_PATH, "--sim", "-r", (char *)rules_path,
			 "--pcap-in", (char *)in, "--pcap-pace", (char *)pace,
			 "--quiet", "-d", "120", NULL };
	double start = now_s();

	path_of(log, "paced.log");
	ck_assert_int_eq(run(argv, log), 0);
	ck_assert_msg(log_says(log, "(replayed)"), "see %s", log);
	return now_s() - start;
}

START_TEST(paces_are_kept)
{
	char in[256], rules_path[256];
	struct capture_frame out[NCRAFTED];
	double t;

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	write_inputs(in, rules_path);
	/* The same frames 100 ms apart: 0.9 s from the first to the last. */
	for (uint32_t i = 0; i < NCRAFTED; i++)
		out[i] = (struct capture_frame){ frames[i], lens[i], lens[i],
						 (uint64_t)i * 100000000 };
	ck_assert_int_eq(capture_file_write(in, CAPTURE_LINK_ETHERNET, out,
					    NCRAFTED),
			 0);
	t = timed_run(in, rules_path, "recorded");
	ck_assert_msg(t >= 0.9, "the recorded pace took %.3f s, under 0.9", t);
	/* 20 frames a second: the tenth 0.45 s after the first. */
	t = timed_run(in, rules_path, "20");
	ck_assert_msg(t >= 0.45, "20 pps took %.3f s, under 0.45", t);
}
END_TEST

/*
 * fwd_sim_replay_done() on a deterministic machine whose hook drops every
 * frame: done only once the source is finished, the counts the program
 * gives match the ports', and they held for three looks.
 */
static enum xskx_xdp_verdict drop_all(uint8_t *data, uint32_t len,
				      uint32_t queue, void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	(void)ctx;
	return XSKX_XDP_DROP;
}

START_TEST(replay_done_needs_every_stage)
{
	char in[256], rules_path[256];
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in);
	struct xskx_sim_port *ports[2];
	struct fwd_sim_replay r = { 0 }, wrong_rx = { 0 }, wrong_tx = { 0 };
	struct xskx_sim *sim;

	path_of(in, "in.pcap");
	path_of(rules_path, "fw.rules");
	write_inputs(in, rules_path);
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(xskx_sim_port_create(sim, NULL, &ports[i]), 0);
	ck_assert_int_eq(xskx_sim_port_set_xdp(ports[0], drop_all, NULL), 0);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(ports[0], &src), 0);
	for (int look = 0; look < 5; look++)
		ck_assert(!fwd_sim_replay_done(&r, sim, ports[0], ports[1], 0,
					       0));
	for (int i = 0; i < 100 && xskx_sim_sources_active(sim); i++)
		ck_assert_int_ge(xskx_sim_poll(sim), 0);
	for (int look = 0; look < 5; look++) {
		ck_assert(!fwd_sim_replay_done(&wrong_rx, sim, ports[0],
					       ports[1], 1, 0));
		ck_assert(!fwd_sim_replay_done(&wrong_tx, sim, ports[0],
					       ports[1], 0, 1));
	}
	ck_assert(!fwd_sim_replay_done(&r, sim, ports[0], ports[1], 0, 0));
	ck_assert(!fwd_sim_replay_done(&r, sim, ports[0], ports[1], 0, 0));
	ck_assert(fwd_sim_replay_done(&r, sim, ports[0], ports[1], 0, 0));
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);
}
END_TEST

static Suite *fw_capture_suite(void)
{
	Suite *s = suite_create("fw_capture");

	test_add_case(s, "fw_output", fw_writes_what_the_rules_allow);
	test_add_case(s, "fw_deterministic", fw_writes_the_same_file_every_run);
	test_add_case(s, "fw_real_tools", real_tools_read_what_fw_writes);
	test_add_case(s, "l2fwd_output", l2fwd_forwards_every_frame_unchanged);
	test_add_case(s, "refused", bad_captures_and_flags_are_refused);
	test_add_case(s, "paces", paces_are_kept);
	test_add_case(s, "replay_done", replay_done_needs_every_stage);
	return s;
}

int main(int argc, char **argv)
{
	char cmd[256];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = test_main(fw_capture_suite(), argc, argv);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return rc;
}
