/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Test packets and the stream a scenario sends.
 *
 * A test packet is an Ethernet frame (local experimental EtherType 0x88B5)
 * whose payload starts with a 32-bit sequence number followed by bytes that
 * depend on the sequence number and their position, so that a receiver can
 * tell order, loss, truncation and corruption apart.
 */
#ifndef XSKX_TEST_STREAM_H
#define XSKX_TEST_STREAM_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel selftests' MIN_PKT_SIZE and DEFAULT_PKT_CNT. */
#define TEST_PKT_LEN 64u
#define TEST_PKT_COUNT 4096u

/* Ethernet header + sequence number: no test packet is shorter. */
#define TEST_PKT_HDR_LEN 18u

/* The selftests' MAX_ETH_JUMBO_SIZE: the jumbo scenarios' MTU and packet. */
#define TEST_JUMBO_LEN 9000u
/* The longest test packet: a chain of 32 fragments of 2048-byte frames. */
#define TEST_PKT_MAX_LEN 65536u

/*
 * What a scenario sends, by sequence number: each packet's length and
 * whether it should reach the receiving socket (an XDP program or the peer
 * may drop some on purpose).
 */
struct test_stream {
	uint32_t count;
	uint32_t arriving; /* packets with arrives[] set */
	uint32_t *len;
	bool *arrives;
};

/* count packets of len bytes that all arrive. 0 or -ENOMEM. */
int stream_init(struct test_stream *s, uint32_t count, uint32_t len);

void stream_set(struct test_stream *s, uint32_t seq, uint32_t len,
		bool arrives);

/* Every odd-numbered packet gets len and does not arrive. */
void stream_odd_packets(struct test_stream *s, uint32_t len);

void stream_free(struct test_stream *s);

/* Write test packet seq of len bytes (len >= TEST_PKT_HDR_LEN) at data. */
void pkt_write(uint8_t *data, uint32_t seq, uint32_t len);

/*
 * Read the sequence number of the test packet at data. False when len is too
 * short or the Ethernet header is not ours.
 */
bool pkt_seq(const uint8_t *data, uint32_t len, uint32_t *seq);

/*
 * True when every byte after the header is what pkt_write(seq) put there;
 * otherwise false with the offset of the first wrong byte.
 */
bool pkt_intact(const uint8_t *data, uint32_t len, uint32_t seq,
		uint32_t *bad_offset);

#endif /* XSKX_TEST_STREAM_H */
