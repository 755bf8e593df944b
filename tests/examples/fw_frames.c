// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Crafted frames for xskx-fw's tests (fw_frames.h). */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "fw_frames.h"

void fw_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Ethernet (and VLAN tags); returns the L3 offset. */
uint32_t fw_frame_eth(uint8_t *p, uint16_t type, uint32_t vlans)
{
	uint32_t off = 12;

	memcpy(p, (uint8_t[]){ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 }, 12);
	for (uint32_t i = 0; i < vlans; i++, off += 4) {
		fw_put16(p + off, i == 0 && vlans == 2 ? 0x88a8 : 0x8100);
		fw_put16(p + off + 2, (uint16_t)(100 + i));
	}
	fw_put16(p + off, type);
	return off + 2;
}


/* An L4 header for proto with dport, then a little payload. */
static uint32_t l4(uint8_t *p, uint8_t proto, uint16_t dport)
{
	uint32_t hdr = proto == IPPROTO_TCP ? 20 : 8;

	memset(p, 0, hdr + 12);
	if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
		fw_put16(p, 40000);
		fw_put16(p + 2, dport);
		if (proto == IPPROTO_TCP)
			p[12] = 5 << 4;
		else
			fw_put16(p + 4, (uint16_t)(hdr + 12));
	} else {
		p[0] = proto == IPPROTO_ICMP ? 8 : 128; /* echo request */
	}
	memset(p + hdr, 0xa5, 12);
	return hdr + 12;
}

uint32_t fw_frame_build(uint8_t *p, const struct ip_spec *s)
{
	bool v6 = strchr(s->src, ':') != NULL;
	uint32_t l3 = fw_frame_eth(p, v6 ? 0x86dd : 0x0800, s->vlans), l4_off, n;

	if (!v6) {
		uint32_t ihl = 20 + s->ipv4_options;

		memset(p + l3, 0, ihl);
		p[l3] = (uint8_t)(0x40 | ihl / 4);
		fw_put16(p + l3 + 6, (uint16_t)((s->more_fragments ? 0x2000 : 0) |
					     s->frag_offset));
		p[l3 + 8] = 64;
		p[l3 + 9] = s->proto;
		ck_assert_int_eq(inet_pton(AF_INET, s->src, p + l3 + 12), 1);
		ck_assert_int_eq(inet_pton(AF_INET, s->dst, p + l3 + 16), 1);
		for (uint32_t i = 20; i < ihl; i++)
			p[l3 + i] = 1; /* NOP options */
		l4_off = l3 + ihl;
		n = l4(p + l4_off, s->proto, s->dport);
		fw_put16(p + l3 + 2, (uint16_t)(ihl + n));
	} else {
		uint8_t next = s->proto;
		uint32_t ext = 0;

		memset(p + l3, 0, 40);
		p[l3] = 0x60;
		p[l3 + 7] = 64;
		ck_assert_int_eq(inet_pton(AF_INET6, s->src, p + l3 + 8), 1);
		ck_assert_int_eq(inet_pton(AF_INET6, s->dst, p + l3 + 24), 1);
		if (s->ipv6_ext) {
			/* hop-by-hop (8 bytes) -> destination options (16) */
			memset(p + l3 + 40, 0, 24);
			p[l3 + 40] = 60;
			p[l3 + 41] = 0;
			p[l3 + 48] = next;
			p[l3 + 49] = 1;
			next = 0;
			ext = 24;
		}
		if (s->more_fragments || s->frag_offset) {
			uint8_t *f = p + l3 + 40 + ext;

			memset(f, 0, 8);
			f[0] = s->ipv6_ext ? 0 : next;
			fw_put16(f + 2, (uint16_t)(s->frag_offset << 3 |
						(s->more_fragments ? 1 : 0)));
			if (!s->ipv6_ext)
				next = 44;
			ext += 8;
		}
		p[l3 + 6] = next;
		l4_off = l3 + 40 + ext;
		n = l4(p + l4_off, s->proto, s->dport);
		fw_put16(p + l3 + 4, (uint16_t)(ext + n));
	}
	return l4_off + n - s->cut;
}
