/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Capture files for the tests, written and read with libpcap. Apart from
 * the tests' other code: <pcap/pcap.h> and the kernel's <linux/bpf.h>
 * (which xskx's headers include) both define struct bpf_insn.
 */
#ifndef XSKX_TESTS_CAPTURE_FILES_H
#define XSKX_TESTS_CAPTURE_FILES_H

#include <stdint.h>

enum capture_link {
	CAPTURE_LINK_ETHERNET,
	CAPTURE_LINK_RAW_IP, /* what 'tcpdump -i any' and tun devices record */
};

struct capture_frame {
	const uint8_t *bytes;
	uint32_t len;	 /* on the wire */
	uint32_t caplen; /* recorded: len, or less as a snapshot length cuts */
	uint64_t ts_ns;
};

/* Write a pcap file (nanosecond timestamps); 0 or -1 with a message. */
int capture_file_write(const char *path, enum capture_link link,
		       const struct capture_frame *frames, uint32_t n);

/*
 * Read a pcap or pcapng file of link type Ethernet into frames[] (at most
 * max; the bytes are malloc()ed: capture_frames_free()). Returns the
 * number of frames, or -1 with a message on stderr.
 */
int capture_file_read(const char *path, struct capture_frame *frames,
		      uint32_t max);
void capture_frames_free(struct capture_frame *frames, uint32_t n);

#endif /* XSKX_TESTS_CAPTURE_FILES_H */
