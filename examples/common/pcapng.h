/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The pcapng blocks xskx-fw's drops capture needs and libpcap cannot write
 * (its dumper writes pcap only): a section header, one Ethernet interface
 * with nanosecond timestamps, and enhanced packet blocks that may carry a
 * comment (opt_comment), which tshark shows as frame.comment and Wireshark
 * beside the packet. Blocks are in the host's byte order, which the section
 * header's magic tells readers. The format: the IETF's pcapng draft
 * (draft-ietf-opsawg-pcapng), sections 4.1, 4.2 and 4.3.
 */
#ifndef XSKX_EXAMPLES_PCAPNG_H
#define XSKX_EXAMPLES_PCAPNG_H

#include <stdint.h>
#include <stdio.h>

/* The section header and interface 0 (link type Ethernet). 0 or -errno. */
int pcapng_write_header(FILE *f, uint32_t snaplen);

/*
 * An enhanced packet block on interface 0: caplen bytes of data kept of a
 * frame of len, at ts_ns since the epoch, with comment unless it is NULL or
 * "". Returns 0, or -errno (-EIO when stdio gives none) when a write failed.
 */
int pcapng_write_packet(FILE *f, uint64_t ts_ns, const uint8_t *data,
			uint32_t caplen, uint32_t len, const char *comment);

#endif /* XSKX_EXAMPLES_PCAPNG_H */
