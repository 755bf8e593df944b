// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

static const uint8_t dst_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };
static const uint8_t src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a };
static const uint8_t ethertype[2] = { 0x88, 0xb5 };

int stream_init(struct test_stream *s, uint32_t count, uint32_t len)
{
	s->count = count;
	s->arriving = count;
	s->len = calloc(count, sizeof(*s->len));
	s->arrives = calloc(count, sizeof(*s->arrives));
	if (!s->len || !s->arrives) {
		stream_free(s);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < count; i++) {
		s->len[i] = len;
		s->arrives[i] = true;
	}
	return 0;
}

void stream_set(struct test_stream *s, uint32_t seq, uint32_t len, bool arrives)
{
	s->arriving += (uint32_t)arrives - (uint32_t)s->arrives[seq];
	s->len[seq] = len;
	s->arrives[seq] = arrives;
}

void stream_odd_packets(struct test_stream *s, uint32_t len)
{
	for (uint32_t seq = 1; seq < s->count; seq += 2)
		stream_set(s, seq, len, false);
}

void stream_free(struct test_stream *s)
{
	free(s->len);
	free(s->arrives);
	s->len = NULL;
	s->arrives = NULL;
	s->count = 0;
	s->arriving = 0;
}

static uint8_t payload_byte(uint32_t seq, uint32_t offset)
{
	return (uint8_t)(seq * 7u + offset * 13u + (offset >> 8));
}

void pkt_write(uint8_t *data, uint32_t seq, uint32_t len)
{
	memcpy(data, dst_mac, 6);
	memcpy(data + 6, src_mac, 6);
	memcpy(data + 12, ethertype, 2);
	data[14] = (uint8_t)(seq >> 24);
	data[15] = (uint8_t)(seq >> 16);
	data[16] = (uint8_t)(seq >> 8);
	data[17] = (uint8_t)seq;
	for (uint32_t off = TEST_PKT_HDR_LEN; off < len; off++)
		data[off] = payload_byte(seq, off);
}

bool pkt_seq(const uint8_t *data, uint32_t len, uint32_t *seq)
{
	if (len < TEST_PKT_HDR_LEN || memcmp(data, dst_mac, 6) ||
	    memcmp(data + 6, src_mac, 6) || memcmp(data + 12, ethertype, 2))
		return false;
	*seq = (uint32_t)data[14] << 24 | (uint32_t)data[15] << 16 |
	       (uint32_t)data[16] << 8 | data[17];
	return true;
}

bool pkt_intact(const uint8_t *data, uint32_t len, uint32_t seq,
		uint32_t *bad_offset)
{
	for (uint32_t off = TEST_PKT_HDR_LEN; off < len; off++) {
		if (data[off] != payload_byte(seq, off)) {
			*bad_offset = off;
			return false;
		}
	}
	return true;
}
