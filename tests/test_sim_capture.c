// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Captures on the simulated NIC: a capture replayed by a port's source and
 * sent back out of the port by its XDP hook (XDP_TX), written by the port's
 * capture, and read back with libpcap: the same frames, byte for byte, in
 * order, loop after loop; the timings' lower bounds; the bad captures
 * refused with the file and the frame named; tcpdump reads what is written.
 * The captures are made here with libpcap's writer (editcap converts one to
 * pcapng).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "capture_files.h"
#include "frames.h"
#include "helpers.h"

#define NFRAMES 7
#define POLL_ROUNDS 100000
#define POLL_BUDGET_NS (20ull * 1000000000ull)

static char dir[] = "/tmp/xskx-capture-XXXXXX";

struct frame {
	uint8_t bytes[1600];
	uint32_t len;
	uint64_t ts_ns;
};

static struct frame frames[NFRAMES];
/* Before the replay's first poll: no frame can go before it. */
static uint64_t replay_start_ns;
/* The replaying port's counters at the end of the last replay. */
static struct xskx_sim_port_stats replay_stats;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* UDP frames of sizes 64..1514, each with its index in the payload. */
static void make_frames(uint64_t gap_ns)
{
	static const uint32_t sizes[NFRAMES] = {
		64, 60, 128, 1514, 65, 1000, 14
	};

	for (int i = 0; i < NFRAMES; i++) {
		struct frame *f = &frames[i];

		memset(f->bytes, 0, sizeof(f->bytes));
		f->len = frame_udp_packet(f->bytes, "192.0.2.1", "198.51.100.7",
					  (uint16_t)(4000 + i));
		for (uint32_t b = f->len; b < sizes[i]; b++)
			f->bytes[b] = (uint8_t)(i * 31 + b);
		f->len = sizes[i];
		f->ts_ns = 1700000000ull * 1000000000u + (uint64_t)i * gap_ns;
	}
}

static void path_of(char *path, const char *name)
{
	snprintf(path, 256, "%s/%s", dir, name);
}

/* A capture of the frames; cut_frame (from 1) is cut to 40 bytes. */
static void write_capture(const char *path, enum capture_link link,
			  uint32_t cut_frame)
{
	struct capture_frame out[NFRAMES];

	for (uint32_t i = 0; i < NFRAMES; i++)
		out[i] = (struct capture_frame){
			frames[i].bytes, frames[i].len,
			i + 1 == cut_frame ? 40 : frames[i].len, frames[i].ts_ns
		};
	ck_assert_int_eq(capture_file_write(path, link, out, NFRAMES), 0);
}

static enum xskx_xdp_verdict send_back(uint8_t *data, uint32_t len,
				       uint32_t queue, void *ctx)
{
	uint64_t *arrived = ctx;

	(void)data;
	(void)len;
	(void)queue;
	if (arrived)
		arrived[arrived[0]++ + 1] = now_ns();
	return XSKX_XDP_TX;
}

struct replay {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
};

static void replay_open(struct replay *r, uint64_t *arrived)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "cap0", .queues = 2);

	ck_assert_int_eq(xskx_sim_create(&r->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(r->sim, &port_opts, &r->port), 0);
	ck_assert_int_eq(xskx_sim_port_set_xdp(r->port, send_back, arrived), 0);
}

/* Poll until every source is done, bounded in rounds and time. */
static void replay_run(struct replay *r)
{
	uint64_t deadline = now_ns() + POLL_BUDGET_NS;

	for (int i = 0; i < POLL_ROUNDS && xskx_sim_sources_active(r->sim) &&
			now_ns() < deadline;
	     i++)
		ck_assert_int_ge(xskx_sim_poll(r->sim), 0);
	ck_assert_msg(!xskx_sim_sources_active(r->sim),
		      "the replay did not finish");
}

static void replay_capture(const char *in, const char *out,
			   const struct xskx_sim_capture_source_opts *src,
			   uint64_t *arrived)
{
	XSKX_OPTS(xskx_sim_capture_opts, cap, .path = out,
		  .clock = XSKX_SIM_CAPTURE_CLOCK_COUNT);
	struct replay r;

	(void)in;
	replay_open(&r, arrived);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, src), 0);
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), 0);
	replay_start_ns = now_ns();
	replay_run(&r);
	ck_assert_int_eq(xskx_sim_port_stats(r.port, &replay_stats), 0);
	ck_assert_int_eq(xskx_sim_port_capture_close(r.port), 0);
	ck_assert_int_eq(xskx_sim_destroy(r.sim), 0);
}

/* The written capture holds the frames loops times over, k at k µs. */
static void check_written(const char *path, uint32_t loops)
{
	struct capture_frame got[4 * NFRAMES];
	int n = capture_file_read(path, got, 4 * NFRAMES);

	ck_assert_int_eq(n, (int)(loops * NFRAMES));
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		const struct frame *f = &frames[k % NFRAMES];

		ck_assert_uint_eq(got[k].caplen, f->len);
		ck_assert_uint_eq(got[k].len, f->len);
		ck_assert_msg(!memcmp(got[k].bytes, f->bytes, f->len),
			      "frame %u differs", k + 1);
		ck_assert_uint_eq(got[k].ts_ns, (uint64_t)k * 1000);
	}
	capture_frames_free(got, (uint32_t)n);
}

START_TEST(replayed_frames_are_written_back_byte_for_byte)
{
	char in[256], out[256];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in, .loops = 3);

	make_frames(1000);
	path_of(in, "in.pcap");
	path_of(out, "out.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	replay_capture(in, out, &src, NULL);
	check_written(out, 3);
	ck_assert_uint_eq(replay_stats.source_packets, 3 * NFRAMES);
	ck_assert_uint_eq(replay_stats.xdp_tx, 3 * NFRAMES);
	ck_assert_uint_eq(replay_stats.capture_frames, 3 * NFRAMES);
}
END_TEST

START_TEST(pcapng_is_replayed_like_pcap)
{
	char in[256], ng[256], out[256], cmd[1024];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = ng);

	make_frames(1000);
	path_of(in, "in.pcap");
	path_of(ng, "in.pcapng");
	path_of(out, "out.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	snprintf(cmd, sizeof(cmd), "editcap -F pcapng %s %s", in, ng);
	ck_assert_int_eq(system(cmd), 0);
	replay_capture(ng, out, &src, NULL);
	check_written(out, 1);
}
END_TEST

START_TEST(the_same_replay_writes_the_same_file)
{
	char in[256], a[256], b[256], cmd[1024];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in, .loops = 2);

	make_frames(1000);
	path_of(in, "in.pcap");
	path_of(a, "a.pcap");
	path_of(b, "b.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	replay_capture(in, a, &src, NULL);
	replay_capture(in, b, &src, NULL);
	snprintf(cmd, sizeof(cmd), "cmp %s %s", a, b);
	ck_assert_int_eq(system(cmd), 0);
	/* A real tool reads it: tcpdump counts every frame. */
	snprintf(cmd, sizeof(cmd),
		 "test \"$(tcpdump -nn -r %s 2>/dev/null | wc -l)\" = %d", a,
		 2 * NFRAMES);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * Frame k went no earlier than the schedule says, counted from before the
 * replay began (never assert lateness: the machine may be loaded).
 */
static void check_not_early(const uint64_t *arrived, const uint64_t *due_ns,
			    uint32_t n)
{
	ck_assert_uint_eq(arrived[0], n);
	for (uint32_t k = 1; k < n; k++)
		ck_assert_msg(
			arrived[k + 1] - replay_start_ns >= due_ns[k],
			"frame %u went %llu ns after the start, due at %llu",
			k + 1,
			(unsigned long long)(arrived[k + 1] - replay_start_ns),
			(unsigned long long)due_ns[k]);
}

START_TEST(recorded_timing_keeps_the_gaps)
{
	char in[256], out[256];
	uint64_t arrived[2 * NFRAMES + 1] = { 0 }, due[2 * NFRAMES];
	const uint64_t gap = 3000000; /* 3 ms */
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in, .loops = 2,
		  .timing = XSKX_SIM_CAPTURE_RECORDED);

	make_frames(gap);
	path_of(in, "in.pcap");
	path_of(out, "out.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	replay_capture(in, out, &src, arrived);
	/* The second loop starts where the first ended. */
	for (uint32_t k = 0; k < 2 * NFRAMES; k++)
		due[k] = (k / NFRAMES) * (NFRAMES - 1) * gap +
			 (k % NFRAMES) * gap;
	check_not_early(arrived, due, 2 * NFRAMES);
}
END_TEST

START_TEST(rate_timing_spaces_the_frames)
{
	char in[256], out[256];
	uint64_t arrived[NFRAMES + 1] = { 0 }, due[NFRAMES];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in,
		  .timing = XSKX_SIM_CAPTURE_RATE, .rate_pps = 500);

	make_frames(0);
	path_of(in, "in.pcap");
	path_of(out, "out.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	replay_capture(in, out, &src, arrived);
	for (uint32_t k = 0; k < NFRAMES; k++)
		due[k] = k * 2000000ull; /* 2 ms apart */
	check_not_early(arrived, due, NFRAMES);
}
END_TEST

/* XDP_PASS packets are written only when the capture asks for them. */
static int capture_passed(const char *in, const char *out, bool stack)
{
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = in);
	XSKX_OPTS(xskx_sim_capture_opts, cap, .path = out, .stack = stack,
		  .clock = XSKX_SIM_CAPTURE_CLOCK_COUNT);
	struct capture_frame got[NFRAMES];
	struct replay r;
	int n;

	replay_open(&r, NULL);
	ck_assert_int_eq(xskx_sim_port_set_xdp(r.port, test_xdp_pass, NULL), 0);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, &src), 0);
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), 0);
	replay_run(&r);
	ck_assert_int_eq(xskx_sim_port_capture_close(r.port), 0);
	ck_assert_int_eq(xskx_sim_destroy(r.sim), 0);
	n = capture_file_read(out, got, NFRAMES);
	ck_assert_int_ge(n, 0);
	capture_frames_free(got, (uint32_t)n);
	return n;
}

START_TEST(stack_packets_only_when_asked)
{
	char in[256], out[256];

	make_frames(1000);
	path_of(in, "in.pcap");
	path_of(out, "out.pcap");
	write_capture(in, CAPTURE_LINK_ETHERNET, 0);
	ck_assert_int_eq(capture_passed(in, out, false), 0);
	ck_assert_int_eq(capture_passed(in, out, true), NFRAMES);
}
END_TEST

/* add_capture_source refuses path with err, the log naming what. */
static void check_refused(const char *path, int err, const char *what)
{
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = path);
	struct replay r;

	replay_open(&r, NULL);
	test_log_reset();
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, &src), err);
	ck_assert_msg(strstr(test_log_last(), path) &&
			      strstr(test_log_last(), what),
		      "the message names neither %s nor '%s': %s", path, what,
		      test_log_last());
	ck_assert(!xskx_sim_sources_active(r.sim));
	ck_assert_int_eq(xskx_sim_destroy(r.sim), 0);
}

START_TEST(bad_captures_are_refused_naming_the_frame)
{
	char path[256], cmd[1024];
	FILE *f;

	make_frames(1000);
	path_of(path, "missing.pcap");
	check_refused(path, -ENOENT, "No such file");

	path_of(path, "text.pcap");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("not a capture at all, just some text\n", f);
	fclose(f);
	check_refused(path, -EINVAL, "pcap or pcapng");

	path_of(path, "raw.pcap");
	write_capture(path, CAPTURE_LINK_RAW_IP, 0);
	check_refused(path, -EINVAL, "link type RAW");

	path_of(path, "snaplen.pcap");
	write_capture(path, CAPTURE_LINK_ETHERNET, 3);
	check_refused(path, -EINVAL, "frame 3: 40 of its 128 bytes");

	/* Cut in the middle of the fifth frame's bytes. */
	path_of(path, "truncated.pcap");
	write_capture(path, CAPTURE_LINK_ETHERNET, 0);
	snprintf(cmd, sizeof(cmd), "truncate -s %u %s",
		 24 + 16 * 4 + 64 + 60 + 128 + 1514 + 16 + 10, path);
	ck_assert_int_eq(system(cmd), 0);
	check_refused(path, -EINVAL, "frame 5: truncated");

	/* Only the global header: no frame. */
	snprintf(cmd, sizeof(cmd), "truncate -s 24 %s", path);
	ck_assert_int_eq(system(cmd), 0);
	check_refused(path, -EINVAL, "holds no frame");
}
END_TEST

START_TEST(frames_over_the_mtu_or_runts_are_refused)
{
	char path[256];
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "small", .mtu = 1000);
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = path);
	struct xskx_sim *sim;
	struct xskx_sim_port *port;

	make_frames(1000);
	path_of(path, "big.pcap");
	write_capture(path, CAPTURE_LINK_ETHERNET, 0);
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &port), 0);
	test_log_reset();
	ck_assert_int_eq(xskx_sim_port_add_capture_source(port, &src),
			 -EMSGSIZE);
	ck_assert_ptr_nonnull(strstr(test_log_last(), "frame 4: 1514 bytes"));
	ck_assert_ptr_nonnull(strstr(test_log_last(), "port small"));
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);

	/* At MTU 1492 the 1514-byte frame is the longest a port takes. */
	port_opts.mtu = 1492;
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, &port_opts, &port), 0);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(port, &src), 0);
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);

	/* Frame 7 is 14 bytes: an Ethernet header and nothing more passes. */
	frames[6].len = 13;
	path_of(path, "runt.pcap");
	write_capture(path, CAPTURE_LINK_ETHERNET, 0);
	check_refused(path, -EINVAL, "frame 7: 13 bytes is shorter");
}
END_TEST

START_TEST(bad_options_are_refused)
{
	char path[256];
	XSKX_OPTS(xskx_sim_capture_source_opts, src, .path = path,
		  .timing = XSKX_SIM_CAPTURE_RATE);
	XSKX_OPTS(xskx_sim_capture_opts, cap, .path = path);
	struct xskx_sim_port *peer;
	XSKX_OPTS(xskx_sim_port_opts, peer_opts, .name = "peer");
	struct replay r;

	make_frames(1000);
	path_of(path, "in.pcap");
	write_capture(path, CAPTURE_LINK_ETHERNET, 0);
	replay_open(&r, NULL);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, &src),
			 -EINVAL);
	src.timing = XSKX_SIM_CAPTURE_RECORDED;
	src.rate_pps = 10;
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, &src),
			 -EINVAL);
	src.timing = (enum xskx_sim_capture_timing)7;
	src.rate_pps = 0;
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, &src),
			 -EINVAL);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(r.port, NULL),
			 -EINVAL);
	ck_assert_int_eq(xskx_sim_port_add_capture_source(NULL, &src), -EINVAL);

	ck_assert_int_eq(xskx_sim_port_capture_close(r.port), -ENOENT);
	cap.clock = (enum xskx_sim_capture_clock)9;
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), -EINVAL);
	cap.clock = XSKX_SIM_CAPTURE_CLOCK_COUNT;
	cap.path = "/nonexistent-dir/out.pcap";
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), -ENOENT);
	path_of(path, "out.pcap");
	cap.path = path;
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), 0);
	ck_assert_int_eq(xskx_sim_port_capture_open(r.port, &cap), -EINVAL);
	/* Left open: destroy closes it. */
	ck_assert_int_eq(xskx_sim_port_create(r.sim, &peer_opts, &peer), 0);
	ck_assert_int_eq(xskx_sim_wire(peer, r.port), -EBUSY);
	ck_assert_int_eq(xskx_sim_destroy(r.sim), 0);
}
END_TEST

static void cleanup(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

static Suite *capture_suite(void)
{
	Suite *s = suite_create("sim_capture");

	test_add_case(s, "round_trip",
		      replayed_frames_are_written_back_byte_for_byte);
	test_add_case(s, "pcapng", pcapng_is_replayed_like_pcap);
	test_add_case(s, "deterministic", the_same_replay_writes_the_same_file);
	test_add_case(s, "recorded_timing", recorded_timing_keeps_the_gaps);
	test_add_case(s, "rate_timing", rate_timing_spaces_the_frames);
	test_add_case(s, "bad_captures",
		      bad_captures_are_refused_naming_the_frame);
	test_add_case(s, "bad_frames",
		      frames_over_the_mtu_or_runts_are_refused);
	test_add_case(s, "bad_options", bad_options_are_refused);
	test_add_case(s, "stack", stack_packets_only_when_asked);
	return s;
}

int main(int argc, char **argv)
{
	int rc;

	if (!mkdtemp(dir))
		return 1;
	test_log_capture();
	rc = test_main(capture_suite(), argc, argv);
	cleanup();
	return rc;
}
