/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A capture file loaded whole for a program to send (xskx-bench txonly
 * --pcap-in), read with libpcap and checked frame by frame as the
 * simulated NIC's replay checks it (lib/sim/sim_capture_read.c): Ethernet
 * only, whole frames, none shorter than an Ethernet header or longer than
 * the program can send. Apart from xskx's headers: <pcap/pcap.h> and the
 * kernel's <linux/bpf.h> both define struct bpf_insn.
 */
#ifndef XSKX_EXAMPLES_CAPTURE_LOAD_H
#define XSKX_EXAMPLES_CAPTURE_LOAD_H

#include <stdint.h>

struct capture_load {
	uint8_t *bytes;
	uint64_t *offset; /* frame k's bytes start at bytes + offset[k] */
	uint32_t *len;
	/* since the first frame, never less than the frame before's */
	uint64_t *due_ns;
	uint32_t n;
};

/*
 * Load path, every frame at most max_len bytes. Returns 0, or -1 with a
 * message on stderr naming program, the file and the frame (from 1).
 */
int capture_load(const char *program, const char *path, uint32_t max_len,
		 struct capture_load *c);
void capture_load_free(struct capture_load *c);

/*
 * When frame k of a replay looping over c is due after the first: its time
 * in its loop, each loop as long as the capture.
 */
uint64_t capture_load_due_ns(const struct capture_load *c, uint64_t k);

#endif /* XSKX_EXAMPLES_CAPTURE_LOAD_H */
