/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Capturing off the data path: what xskx-l2fwd and xskx-fw forward
 * (--pcap-out on interfaces) and what xskx-fw drops (--pcap-drops).
 *
 *   forwarding thread k                      writer thread
 *   capture_ring_put(ring k, frame) ──▶ ring k ──▶ file (pcap or pcapng)
 *     copies the frame (snaplen bytes)           the only one who writes,
 *     into a free slot, or counts it             drains every ring, naps
 *     in queue_full when none is free            when all are empty
 *
 * One bounded single-producer, single-consumer ring per forwarding thread:
 * a put is a copy and a release store, with no lock, syscall or
 * allocation, and never waits for the disk; a frame that finds its ring
 * full is counted, not written. A write that fails (disk full) is reported
 * once, naming the file; the writer keeps draining, counting what it could
 * not write, so that the forwarders never stall on a broken file.
 *
 * Why here and not in the library: the queue and the thread are the
 * programs' way of owning a file beside their data path (a thread of their
 * own, their flags, their messages on stderr); lib/ never prints, starts
 * threads only for the simulated NIC, and keeps its ABI for what users
 * call from their own data path. Users copy it from here with the programs.
 *
 * Apart from xskx's headers, like capture_load.h: <pcap/pcap.h> and the
 * kernel's <linux/bpf.h> both define struct bpf_insn.
 */
#ifndef XSKX_EXAMPLES_CAPTURE_WRITER_H
#define XSKX_EXAMPLES_CAPTURE_WRITER_H

#include <stdint.h>

/* A whole frame at MTU 9000 with two VLAN tags: what jumbo runs forward. */
#define CAPTURE_DEFAULT_SNAPLEN 9216
#define CAPTURE_MAX_SNAPLEN 262144 /* libpcap's largest */
/* Frames a ring holds by default: ~9 MiB at the default snaplen. */
#define CAPTURE_DEFAULT_SLOTS 1024
#define CAPTURE_MAX_SLOTS (1u << 20)
/* A frame's comment (pcapng only), terminator included; longer ones cut. */
#define CAPTURE_NOTE_MAX 192

enum capture_format {
	CAPTURE_PCAP,	/* libpcap's dumper, as the simulated NIC writes */
	CAPTURE_PCAPNG, /* pcapng.c: with each frame's comment */
};

struct capture_writer_opts {
	const char *program; /* "xskx-fw": messages start with it */
	const char *flag;    /* "--pcap-drops": and name the flag */
	const char *path;
	enum capture_format format;
	uint32_t rings;	  /* one per producing thread, at least 1 */
	uint32_t slots;	  /* frames each ring holds, at least 1 */
	uint32_t snaplen; /* bytes kept of each frame, at least 1 */
};

struct capture_writer_stats {
	uint64_t written;    /* frames in the file */
	uint64_t queue_full; /* not written: their ring was full */
	uint64_t unwritten;  /* not written: a write had failed before */
};

struct capture_writer;
struct capture_ring;
struct xskx_pkt;

/*
 * Create the file (truncated), write its header and start the writer
 * thread. Returns 0, or a negative errno with a message on stderr naming
 * the program, the flag and the file.
 */
int capture_writer_open(struct capture_writer **w,
			const struct capture_writer_opts *o);

/*
 * The next ring nobody took yet, for one producing thread, or NULL when
 * all o->rings are taken. Setup only, on one thread.
 */
struct capture_ring *capture_writer_take_ring(struct capture_writer *w);

/*
 * On the ring's one producing thread: copy the packet made of the
 * fragments frags[0..n) (one unless a multi-buffer chain), at most the
 * snaplen's bytes of it, with note as its comment (NULL: none; pcapng
 * only), stamped with CLOCK_REALTIME; or count it in queue_full if the ring
 * has no free slot. Never blocks.
 */
void capture_ring_put(struct capture_ring *r, const struct xskx_pkt *frags,
		      uint32_t n, const char *note);

/*
 * Once every producer has stopped: write what the rings hold, stop the
 * thread, close the file and free w. *s gets the counts (may be NULL).
 * Returns 0, or a negative errno when a write or the close failed (the
 * message named the file).
 */
int capture_writer_close(struct capture_writer *w,
			 struct capture_writer_stats *s);

#endif /* XSKX_EXAMPLES_CAPTURE_WRITER_H */
