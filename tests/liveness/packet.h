/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The test packets: an Ethernet/IPv4/UDP frame whose payload starts with a
 * 64-bit big-endian sequence number (where the simulated NIC's sources put
 * theirs) followed by the verdict the test's XDP hook is to return. The
 * length follows from the sequence number, so that a receiver can tell a
 * packet that arrived whole from one that did not.
 */
#ifndef LV_PACKET_H
#define LV_PACKET_H

#include <stdint.h>
#include <string.h>
#include <xskx-sim/sim.h>

#define LV_SEQ_OFFSET (14 + 20 + 8)
#define LV_VERDICT_OFFSET (LV_SEQ_OFFSET + 8)
#define LV_MIN_LEN 60u
#define LV_LEN_SPREAD 61u
#define LV_MAX_LEN (LV_MIN_LEN + LV_LEN_SPREAD - 1)

static inline uint32_t lv_packet_len(uint64_t seq)
{
	return LV_MIN_LEN + (uint32_t)(seq % LV_LEN_SPREAD);
}

/* Write packet seq into buf (LV_MAX_LEN bytes); returns its length. */
static inline uint32_t lv_packet_build(uint8_t *buf, uint64_t seq,
				       enum xskx_xdp_verdict verdict)
{
	static const uint8_t head[14 + 20 + 8] = {
		0x02, 0,    0,	  0,	0,    0x02, 0x02, 0,	0, 0,
		0,    0x01, 0x08, 0x00, 0x45, 0,    0,	  0,	0, 0,
		0,    0,    64,	  17,	0,    0,    192,  0,	2, 1,
		192,  0,    2,	  2,	0x04, 0x00, 0x04, 0x01,
	};
	uint32_t len = lv_packet_len(seq);

	memset(buf, 0, len);
	memcpy(buf, head, sizeof(head));
	for (int i = 0; i < 8; i++)
		buf[LV_SEQ_OFFSET + i] = (uint8_t)(seq >> (56 - 8 * i));
	buf[LV_VERDICT_OFFSET] = (uint8_t)verdict;
	return len;
}

static inline uint64_t lv_packet_seq(const uint8_t *data)
{
	uint64_t seq = 0;

	for (int i = 0; i < 8; i++)
		seq = seq << 8 | data[LV_SEQ_OFFSET + i];
	return seq;
}

static inline enum xskx_xdp_verdict lv_packet_verdict(const uint8_t *data)
{
	return (enum xskx_xdp_verdict)data[LV_VERDICT_OFFSET];
}

#endif /* LV_PACKET_H */
