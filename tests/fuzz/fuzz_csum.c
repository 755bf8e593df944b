// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx_pkt_csum_partial() and xskx_pkt_csum_complete() on any bytes, as
 * one frame or a chain of up to three fragments, each a heap block of
 * exactly its length (ASan: nothing is read or written past one).
 *
 * Input: byte 0 says how many cuts (bits 0-1, at most 2) and whether to
 * make the checksum partial first (bit 7: the harness writes the
 * pseudo-header's sum into the field of a TCP/UDP packet, as a local
 * stack does, so that the completion runs); bytes 1-2 and 3-4 are the
 * cuts (big-endian, modulo the frame's length); the frame follows.
 *
 * Properties: the verdicts are 0 or 1 and agree; completing writes the
 * checksum field's two bytes and nothing else, and leaves a packet whose
 * L4 segment, pseudo-header included, sums to all ones (what the receiver
 * checks); completing again changes nothing.
 */
#include <netinet/in.h>
#include <sys/socket.h>
#include <xskx/packet.h>
#include <xskx/socket.h>

#include "fuzz.h"
#include "inet_csum.h"

#define MAX_FRAGS 3

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* L4 segment [l4, end) of a parsed TCP/UDP packet, and its pseudo-sum. */
static bool segment(const uint8_t *f, uint32_t len, uint32_t *l4,
		    uint32_t *end, uint16_t *pseudo, uint32_t *field)
{
	struct xskx_pkt_view v;
	uint32_t alen;

	if (xskx_pkt_parse(f, len, &v) != XSKX_PKT_L4 ||
	    (v.l4_proto != IPPROTO_TCP && v.l4_proto != IPPROTO_UDP))
		return false;
	*l4 = v.l4_off;
	*end = v.family == AF_INET ? v.l3_off + get16(f + v.l3_off + 2) :
				     v.l3_off + 40u + get16(f + v.l3_off + 4);
	*field = v.l4_off + (v.l4_proto == IPPROTO_TCP ? 16 : 6);
	alen = v.family == AF_INET ? 4 : 16;
	*pseudo = inet_csum_fold(inet_csum_add(0, v.src, 2 * alen) + v.l4_proto +
			 (*end - *l4));
	return true;
}

static void make_partial(uint8_t *f, uint32_t len)
{
	uint32_t l4, end, field;
	uint16_t pseudo;

	if (!segment(f, len, &l4, &end, &pseudo, &field))
		return;
	if (field == l4 + 6) { /* UDP: its length must be the segment's */
		f[l4 + 4] = (uint8_t)((end - l4) >> 8);
		f[l4 + 5] = (uint8_t)(end - l4);
	}
	f[field] = (uint8_t)(pseudo >> 8);
	f[field + 1] = (uint8_t)pseudo;
}

struct chain {
	struct xskx_pkt pkts[MAX_FRAGS];
	uint32_t frags;
};

static bool chain_make(struct chain *c, const uint8_t *f, uint32_t len,
		       const uint32_t *cuts, uint32_t ncuts)
{
	uint32_t from = 0;

	c->frags = 0;
	for (uint32_t i = 0; i <= ncuts; i++) {
		uint32_t to = i < ncuts ? cuts[i] : len;

		if (to < from)
			to = from;
		c->pkts[i] = (struct xskx_pkt){ .len = to - from,
						.options = i < ncuts ?
								   XDP_PKT_CONTD :
								   0 };
		c->pkts[i].data = malloc(to - from ? to - from : 1);
		if (!c->pkts[i].data)
			return false;
		memcpy(c->pkts[i].data, f + from, to - from);
		c->frags++;
		from = to;
	}
	return true;
}

static void chain_take(struct chain *c, uint8_t *f)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < c->frags; i++) {
		if (f)
			memcpy(f + off, c->pkts[i].data, c->pkts[i].len);
		off += c->pkts[i].len;
		free(c->pkts[i].data);
	}
	c->frags = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t cuts[2], ncuts, len, l4, end, field;
	uint8_t *frame, *before;
	struct xskx_pkt_csum where;
	struct chain c = { .frags = 0 };
	int partial, completed;
	uint16_t pseudo;

	if (size < 5)
		return 0;
	len = size - 5 > 65535 ? 65535 : (uint32_t)(size - 5);
	ncuts = (data[0] & 3) % 3;
	cuts[0] = len ? get16(data + 1) % (len + 1) : 0;
	cuts[1] = len ? get16(data + 3) % (len + 1) : 0;
	if (cuts[1] < cuts[0]) {
		uint32_t t = cuts[0];

		cuts[0] = cuts[1];
		cuts[1] = t;
	}
	frame = malloc(len + 1);
	before = malloc(len + 1);
	if (!frame || !before)
		goto out;
	memcpy(frame, data + 5, len);
	if (data[0] & 0x80)
		make_partial(frame, len);
	memcpy(before, frame, len);

	if (!chain_make(&c, frame, len, cuts, ncuts))
		goto out;
	partial = xskx_pkt_csum_partial(c.pkts, c.frags, &where);
	completed = xskx_pkt_csum_complete(c.pkts, c.frags);
	chain_take(&c, frame);
	FUZZ_CHECK(partial == 0 || partial == 1, "partial %d", partial);
	FUZZ_CHECK(completed == partial, "partial %d, completed %d", partial,
		   completed);
	if (!completed) {
		FUZZ_CHECK(!memcmp(before, frame, len), "changed, none partial");
		goto out;
	}
	FUZZ_CHECK(segment(frame, len, &l4, &end, &pseudo, &field),
		   "completed a packet that is not TCP/UDP");
	FUZZ_CHECK(where.start == l4 && where.start + where.offset == field,
		   "where %u+%u, field at %u", where.start, where.offset, field);
	memcpy(before + field, frame + field, 2);
	FUZZ_CHECK(!memcmp(before, frame, len), "bytes besides the field changed");
	FUZZ_CHECK(inet_csum_fold(inet_csum_add(pseudo, frame + l4, end - l4)) == 0xffff,
		   "the completed checksum 0x%04x does not verify",
		   get16(frame + field));

	/* Again: at most the same value is written. */
	if (!chain_make(&c, frame, len, cuts, ncuts))
		goto out;
	xskx_pkt_csum_complete(c.pkts, c.frags);
	chain_take(&c, frame);
	FUZZ_CHECK(!memcmp(before, frame, len), "completing twice changed it");
out:
	chain_take(&c, NULL);
	free(frame);
	free(before);
	return 0;
}
