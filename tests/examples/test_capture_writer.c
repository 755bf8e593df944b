// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture writer of the programs (examples/common/capture_writer.c):
 * frames put on its rings come out in the file, in each ring's order, byte
 * for byte, as libpcap and tshark read them (pcap, and pcapng with each
 * frame's comment); a snapshot length cuts frames and chains; a ring that
 * is full counts the frame instead of waiting (the writer held up on a
 * FIFO nobody reads yet); an unwritable path is refused naming the file;
 * a disk that fails (/dev/full) is reported, the frames counted, and
 * closing does not stall. Every put is either written or counted.
 */
#define _GNU_SOURCE /* F_GETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture_files.h"
#include "capture_ring.h"
#include "helpers.h"

#define MAX_READ 4096

static char dir[] = "/tmp/xskx-capture-writer-XXXXXX";

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Frame i: 60 to 1059 bytes, its bytes derived from i. */
static uint32_t frame_len(uint32_t i)
{
	return 60 + (i * 37) % 1000;
}

static void fill_frame(uint8_t *buf, uint32_t i)
{
	for (uint32_t k = 0; k < frame_len(i); k++)
		buf[k] = (uint8_t)(i * 7 + k);
}

static void put_frame(struct capture_ring *r, uint32_t i, const char *note)
{
	uint8_t buf[2048];
	struct xskx_pkt p = { .data = buf, .len = frame_len(i) };

	fill_frame(buf, i);
	capture_ring_put(r, &p, 1, note);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * Wait (5 s at most) until r has a free slot: a writer that never frees
 * one fails the test instead of counting the frame in queue_full.
 */
static void wait_for_room(struct capture_ring *r)
{
	double give_up = now_s() + 5;

	for (uint32_t i = 0; i < 1000000 && now_s() < give_up; i++) {
		if (r->prod - __atomic_load_n(&r->cons, __ATOMIC_ACQUIRE) <
		    r->nslots)
			return;
		usleep(100);
	}
	ck_abort_msg("the writer freed no slot of its ring in 5 s");
}

static struct capture_writer *open_writer(const char *path,
					  enum capture_format format,
					  uint32_t rings, uint32_t slots,
					  uint32_t snaplen)
{
	const struct capture_writer_opts o = {
		.program = "test",
		.flag = "--pcap-out",
		.path = path,
		.format = format,
		.rings = rings,
		.slots = slots,
		.snaplen = snaplen,
	};
	struct capture_writer *w;
	int err = capture_writer_open(&w, &o);

	ck_assert_msg(!err, "capture_writer_open(%s): %s", path,
		      strerror(-err));
	return w;
}

/* f is frame i, whole, byte for byte. */
static bool matches(const struct capture_frame *f, uint32_t i)
{
	uint8_t want[2048];

	fill_frame(want, i);
	return f->len == frame_len(i) && f->caplen == f->len &&
	       !memcmp(f->bytes, want, f->len);
}

/*
 * Two rings of 8 slots, 300 frames each, each put waiting for room: the
 * writer frees the slots it wrote, and the file holds ring 0's and ring
 * 1's frames in order.
 */
static void write_and_read(enum capture_format format, const char *name)
{
	static struct capture_frame got[MAX_READ];
	struct capture_writer_stats s;
	struct capture_ring *r[2];
	struct capture_writer *w;
	uint32_t next[2] = { 0, 0 };
	char path[128];
	int n;

	make_dir();
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = open_writer(path, format, 2, 8, CAPTURE_DEFAULT_SNAPLEN);
	r[0] = capture_writer_take_ring(w);
	r[1] = capture_writer_take_ring(w);
	ck_assert_ptr_nonnull(r[1]);
	ck_assert_ptr_null(capture_writer_take_ring(w));
	for (uint32_t i = 0; i < 300; i++) {
		wait_for_room(r[0]);
		put_frame(r[0], i, NULL);
		wait_for_room(r[1]);
		put_frame(r[1], 1000 + i, NULL);
	}
	ck_assert_int_eq(capture_writer_close(w, &s), 0);
	ck_assert_uint_eq(s.written, 600);
	ck_assert_uint_eq(s.queue_full + s.unwritten, 0);
	n = capture_file_read(path, got, MAX_READ);
	ck_assert_int_eq(n, 600);
	for (int k = 0; k < n; k++) {
		/* Ring 0's next frame, or else ring 1's. */
		uint32_t ring = next[0] < 300 && matches(&got[k], next[0]) ? 0 :
									     1;

		ck_assert_msg(
			next[ring] < 300 &&
				matches(&got[k], ring * 1000 + next[ring]),
			"frame %d of the file is neither ring's next", k + 1);
		next[ring]++;
	}
	ck_assert_uint_eq(next[0], 300);
	ck_assert_uint_eq(next[1], 300);
	capture_frames_free(got, (uint32_t)n);
	remove_dir();
}

START_TEST(pcap_frames_in_order)
{
	write_and_read(CAPTURE_PCAP, "out.pcap");
}
END_TEST

START_TEST(pcapng_frames_in_order)
{
	write_and_read(CAPTURE_PCAPNG, "out.pcapng");
}
END_TEST

/* Run cmd, its stdout in out; returns its exit status. */
static int run_cmd(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t got;

	ck_assert_ptr_nonnull(p);
	got = fread(out, 1, size - 1, p);
	out[got] = '\0';
	return pclose(p);
}

/* pcapng: each frame's comment as tshark shows it; tcpdump reads it. */
START_TEST(pcapng_comments_read_by_tshark)
{
	static const char *const notes[] = {
		"line 3: deny src 198.51.100.0/24",
		"default deny: not IP",
		"", /* none */
		"line 12: deny proto udp port 9999",
	};
	struct capture_writer *w;
	struct capture_ring *r;
	char path[128], cmd[512], out[4096], want[1024] = "";
	int status;

	make_dir();
	snprintf(path, sizeof(path), "%s/drops.pcapng", dir);
	w = open_writer(path, CAPTURE_PCAPNG, 1, 64, CAPTURE_DEFAULT_SNAPLEN);
	r = capture_writer_take_ring(w);
	for (uint32_t i = 0; i < 4; i++) {
		put_frame(r, i, notes[i][0] ? notes[i] : NULL);
		strcat(want, notes[i]);
		strcat(want, "\n");
	}
	ck_assert_int_eq(capture_writer_close(w, NULL), 0);
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -e frame.comment 2>/dev/null", path);
	status = run_cmd(cmd, out, sizeof(out));
	ck_assert_msg(status == 0, "tshark -r %s: status %d", path, status);
	ck_assert_str_eq(out, want);
	snprintf(cmd, sizeof(cmd),
		 "tcpdump -r %s -nn -xx 2>/dev/null | grep -vc '^[[:space:]]'",
		 path);
	ck_assert_int_eq(run_cmd(cmd, out, sizeof(out)), 0);
	ck_assert_int_eq(atoi(out), 4);
	remove_dir();
}
END_TEST

/* A snapshot length cuts a frame, and a chain across its fragments. */
START_TEST(snaplen_cuts_frames_and_chains)
{
	static struct capture_frame got[4];
	uint8_t a[300], b[300], whole[600];
	struct xskx_pkt chain[2] = { { .data = a, .len = 100 },
				     { .data = b, .len = 200 } };
	struct capture_writer *w;
	struct capture_ring *r;
	char path[128];

	for (uint32_t k = 0; k < 300; k++) {
		a[k] = (uint8_t)k;
		b[k] = (uint8_t)(255 - k);
	}
	memcpy(whole, a, 100);
	memcpy(whole + 100, b, 200);
	make_dir();
	snprintf(path, sizeof(path), "%s/cut.pcap", dir);
	w = open_writer(path, CAPTURE_PCAP, 1, 8, 128);
	r = capture_writer_take_ring(w);
	capture_ring_put(r, chain, 2, NULL);	 /* 300 bytes, cut at 128 */
	capture_ring_put(r, chain + 1, 1, NULL); /* 200 bytes, cut at 128 */
	chain[0].len = 64;
	capture_ring_put(r, chain, 1, NULL); /* 64 bytes, whole */
	ck_assert_int_eq(capture_writer_close(w, NULL), 0);
	ck_assert_int_eq(capture_file_read(path, got, 4), 3);
	ck_assert_uint_eq(got[0].len, 300);
	ck_assert_uint_eq(got[0].caplen, 128);
	ck_assert(!memcmp(got[0].bytes, whole, 128));
	ck_assert_uint_eq(got[1].len, 200);
	ck_assert_uint_eq(got[1].caplen, 128);
	ck_assert(!memcmp(got[1].bytes, b, 128));
	ck_assert_uint_eq(got[2].len, 64);
	ck_assert_uint_eq(got[2].caplen, 64);
	ck_assert(!memcmp(got[2].bytes, a, 64));
	capture_frames_free(got, 3);
	remove_dir();
}
END_TEST

/* Reads a FIFO to its end, counting the bytes. */
struct fifo_reader {
	int fd;
	uint64_t bytes;
};

static void *read_fifo(void *arg)
{
	struct fifo_reader *f = arg;
	char buf[65536];
	ssize_t got;
	int flags = fcntl(f->fd, F_GETFL);

	fcntl(f->fd, F_SETFL, flags & ~O_NONBLOCK);
	while ((got = read(f->fd, buf, sizeof(buf))) > 0)
		f->bytes += (uint64_t)got;
	return NULL;
}

/* Fill the pipe behind fd (non-blocking) to the brim; the bytes written. */
static uint64_t fill_pipe(int fd)
{
	static const char junk[4096];
	uint64_t bytes = 0;
	ssize_t put;

	while ((put = write(fd, junk, sizeof(junk))) > 0)
		bytes += (uint64_t)put;
	ck_assert_int_eq(errno, EAGAIN);
	return bytes;
}

/*
 * The writer writes to a FIFO whose pipe is full and nobody reads yet:
 * each frame (9000 bytes) is more than stdio's buffer (st_blksize, a page
 * for a pipe) takes, so the writer blocks writing the first frame it took,
 * before it frees any slot. (A frame that fit the buffer would be taken and
 * its slot freed before the writer blocked on the next one, and the count
 * would depend on whether the writer woke before the puts ended.) The
 * 4-slot ring then takes exactly 4 frames and counts the other 96 in
 * queue_full, none of the puts waiting. Then a reader drains the FIFO and
 * close writes what the ring held: exactly the 4.
 */
START_TEST(full_ring_counts_and_never_waits)
{
	const uint32_t puts = 100, slots = 4, frame = 9000;
	struct fifo_reader reader = { 0 };
	struct capture_writer_stats s;
	struct capture_writer *w;
	struct capture_ring *r;
	uint64_t prefilled, full;
	pthread_t thread;
	char path[128];
	static uint8_t buf[9000];
	struct xskx_pkt p = { .data = buf, .len = frame };
	int fill_fd, err;

	memset(buf, 0xa5, sizeof(buf));
	make_dir();
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	/* A reader end first, so that the writer's open does not block. */
	reader.fd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(reader.fd, 0);
	fill_fd = open(path, O_WRONLY | O_NONBLOCK);
	ck_assert_int_ge(fill_fd, 0);
	prefilled = fill_pipe(fill_fd);
	close(fill_fd);
	w = open_writer(path, CAPTURE_PCAP, 1, slots, frame);
	r = capture_writer_take_ring(w);
	for (uint32_t i = 0; i < puts; i++)
		capture_ring_put(r, &p, 1, NULL);
	full = __atomic_load_n(&r->queue_full, __ATOMIC_RELAXED);
	/*
	 * The writer is blocked holding its FILE's lock: unblock and close it
	 * before any assertion can end the test, whose exit would flush that
	 * FILE and wait for the lock for ever.
	 */
	ck_assert_int_eq(pthread_create(&thread, NULL, read_fifo, &reader), 0);
	err = capture_writer_close(w, &s);
	pthread_join(thread, NULL);
	close(reader.fd);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(full, puts - slots);
	ck_assert_uint_eq(s.written, slots);
	ck_assert_uint_eq(s.queue_full, puts - slots);
	ck_assert_uint_eq(s.unwritten, 0);
	ck_assert_uint_eq(reader.bytes,
			  prefilled + 24 + s.written * (16 + frame));
	remove_dir();
}
END_TEST

START_TEST(unwritable_path_refused)
{
	const struct capture_writer_opts o = {
		.program = "test",
		.flag = "--pcap-out",
		.path = "/nonexistent-xskx-dir/out.pcap",
		.format = CAPTURE_PCAP,
		.rings = 1,
		.slots = 4,
		.snaplen = 128,
	};
	struct capture_writer_opts ng = o;
	struct capture_writer *w = (struct capture_writer *)1;

	ck_assert_int_eq(capture_writer_open(&w, &o), -ENOENT);
	ck_assert_ptr_null(w);
	ng.format = CAPTURE_PCAPNG;
	ck_assert_int_eq(capture_writer_open(&w, &ng), -ENOENT);
	ck_assert_ptr_null(w);
}
END_TEST

/*
 * /dev/full: every write fails with ENOSPC once stdio's buffer is flushed.
 * The writer reports it and counts the rest; close returns the error, and
 * every put is written, unwritten or counted full.
 */
static void disk_full(enum capture_format format)
{
	const uint32_t puts = 200;
	struct capture_writer_stats s;
	struct capture_writer *w;
	struct capture_ring *r;

	w = open_writer("/dev/full", format, 1, 1024, 2048);
	r = capture_writer_take_ring(w);
	for (uint32_t i = 0; i < puts; i++)
		put_frame(r, i, "a note");
	ck_assert_int_eq(capture_writer_close(w, &s), -ENOSPC);
	ck_assert_uint_gt(s.unwritten, 0);
	ck_assert_uint_eq(s.written + s.unwritten + s.queue_full, puts);
}

START_TEST(disk_full_pcap)
{
	disk_full(CAPTURE_PCAP);
}
END_TEST

START_TEST(disk_full_pcapng)
{
	disk_full(CAPTURE_PCAPNG);
}
END_TEST

/* Two small frames sit in stdio's buffer: the failure comes at close. */
START_TEST(disk_full_at_close)
{
	struct capture_writer_stats s;
	struct capture_writer *w;
	struct capture_ring *r;

	w = open_writer("/dev/full", CAPTURE_PCAP, 1, 8, 128);
	r = capture_writer_take_ring(w);
	put_frame(r, 0, NULL);
	put_frame(r, 1, NULL);
	ck_assert_int_eq(capture_writer_close(w, &s), -ENOSPC);
	ck_assert_uint_eq(s.written + s.unwritten, 2);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("capture_writer");

	test_add_case(s, "pcap_frames_in_order", pcap_frames_in_order);
	test_add_case(s, "pcapng_frames_in_order", pcapng_frames_in_order);
	test_add_case(s, "pcapng_comments_read_by_tshark",
		      pcapng_comments_read_by_tshark);
	test_add_case(s, "snaplen_cuts_frames_and_chains",
		      snaplen_cuts_frames_and_chains);
	test_add_case(s, "full_ring_counts_and_never_waits",
		      full_ring_counts_and_never_waits);
	test_add_case(s, "unwritable_path_refused", unwritable_path_refused);
	test_add_case(s, "disk_full_pcap", disk_full_pcap);
	test_add_case(s, "disk_full_pcapng", disk_full_pcapng);
	test_add_case(s, "disk_full_at_close", disk_full_at_close);
	return test_main(s, argc, argv);
}
