// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Receive-side scaling: the flow hash that picks a port's queue, and that
 * RX metadata reports (sim_rx_meta.c). A flow is the IPv4 or IPv6 source
 * and destination plus, for TCP and UDP, the ports; frames that are not IP
 * (and IP fragments after the first) hash without ports or go to queue 0,
 * as a NIC's RSS does.
 */
#include <stdbool.h>
#include <stddef.h>
#include <xskx/rx_meta.h>

#include "sim_rss.h"

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t word_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t rotl(uint32_t x, int r)
{
	return x << r | x >> (32 - r);
}

/* One word into murmur3's state. */
static uint32_t mix(uint32_t h, uint32_t word)
{
	word *= 0xcc9e2d51u;
	word = rotl(word, 15);
	word *= 0x1b873593u;
	h = rotl(h ^ word, 13);
	return h * 5 + 0xe6546b64u;
}

/* murmur3's finalizer: every input bit reaches every output bit. */
static uint32_t finish(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

static uint32_t hash_words(uint32_t h, const uint8_t *p, uint32_t words)
{
	for (uint32_t i = 0; i < words; i++)
		h = mix(h, word_at(p + 4 * i));
	return h;
}

uint32_t xskx__sim_rss_hash(const uint8_t *frame, uint32_t len, uint32_t *rss_type)
{
	uint32_t off = 12, l4 = 0, h = 0x5eed;
	uint16_t type;
	uint8_t proto;

	*rss_type = 0;
	if (len < off + 2)
		return finish(h);
	type = be16_at(frame + off);
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) &&
	       len >= off + 6) {
		off += 4;
		type = be16_at(frame + off);
	}
	off += 2;
	if (type == ETH_P_IP && len >= off + 20) {
		const uint8_t *ip = frame + off;
		uint32_t ihl = (ip[0] & 0x0f) * 4u;
		bool later_fragment = be16_at(ip + 6) & 0x1fff;

		proto = ip[9];
		h = hash_words(h, ip + 12, 2);
		*rss_type = XSKX_RSS_L3_IPV4;
		if (ihl >= 20 && !later_fragment)
			l4 = off + ihl;
	} else if (type == ETH_P_IPV6 && len >= off + 40) {
		const uint8_t *ip6 = frame + off;

		proto = ip6[6];
		h = hash_words(h, ip6 + 8, 8);
		*rss_type = XSKX_RSS_L3_IPV6;
		l4 = off + 40;
	} else {
		return finish(h);
	}
	if (l4 && (proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_) &&
	    len >= l4 + 4) {
		h = mix(h, word_at(frame + l4));
		*rss_type |= XSKX_RSS_L4 | (proto == IPPROTO_TCP_ ?
						    XSKX_RSS_L4_TCP :
						    XSKX_RSS_L4_UDP);
	}
	return finish(mix(h, proto));
}

uint32_t xskx__sim_rss_queue(const uint8_t *frame, uint32_t len, uint32_t nqueues)
{
	uint32_t type, hash = xskx__sim_rss_hash(frame, len, &type);

	/* Frames that are not IP go to queue 0. */
	return nqueues > 1 && type ? hash % nqueues : 0;
}
