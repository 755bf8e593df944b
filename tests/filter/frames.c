// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "frames.h"

#define MIN_FRAME 64

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

uint32_t frame_eth(uint8_t *b, const uint16_t *tpids, int ntags,
		   uint16_t ethertype)
{
	uint32_t off = 12;

	memset(b, 0, FRAME_MAX);
	memcpy(b, (const uint8_t[]){ 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 }, 12);
	for (int i = 0; i < ntags; i++) {
		put16(b + off, tpids[i]);
		put16(b + off + 2, (uint16_t)(1 + i));
		off += 4;
	}
	put16(b + off, ethertype);
	return off + 2;
}

uint32_t frame_ipv4(uint8_t *b, uint32_t off, uint8_t proto, const char *src,
		    const char *dst, uint8_t ihl, uint16_t frag)
{
	uint8_t *ip = b + off;
	uint32_t hlen = ihl < 5 ? 20 : (uint32_t)ihl * 4;

	memset(ip, 0, hlen);
	ip[0] = (uint8_t)(0x40 | (ihl & 0x0f));
	ip[8] = 64;
	ip[9] = proto;
	put16(ip + 6, frag);
	inet_pton(AF_INET, src, ip + 12);
	inet_pton(AF_INET, dst, ip + 16);
	return off + hlen;
}

uint32_t frame_ipv6(uint8_t *b, uint32_t off, uint8_t next, const char *src,
		    const char *dst)
{
	uint8_t *ip = b + off;

	memset(ip, 0, 40);
	ip[0] = 0x60;
	ip[6] = next;
	ip[7] = 64;
	inet_pton(AF_INET6, src, ip + 8);
	inet_pton(AF_INET6, dst, ip + 24);
	return off + 40;
}

uint32_t frame_ip_length(uint8_t *b, uint32_t l3, uint32_t end)
{
	if ((b[l3] >> 4) == 6)
		put16(b + l3 + 4, (uint16_t)(end - l3 - 40));
	else
		put16(b + l3 + 2, (uint16_t)(end - l3));
	return end;
}

uint32_t frame_ipv6_ext(uint8_t *b, uint32_t off, uint8_t next, uint8_t len8)
{
	uint32_t hlen = ((uint32_t)len8 + 1) * 8;

	memset(b + off, 0, hlen);
	b[off] = next;
	b[off + 1] = len8;
	return off + hlen;
}

uint32_t frame_ipv6_frag(uint8_t *b, uint32_t off, uint8_t next,
			 uint16_t offset, int more)
{
	memset(b + off, 0, 8);
	b[off] = next;
	put16(b + off + 2, (uint16_t)(offset << 3 | (more ? 1 : 0)));
	b[off + 7] = 42; /* identification */
	return off + 8;
}

uint32_t frame_udp(uint8_t *b, uint32_t off, uint16_t sport, uint16_t dport)
{
	memset(b + off, 0, 8);
	put16(b + off, sport);
	put16(b + off + 2, dport);
	put16(b + off + 4, 8);
	return off + 8;
}

uint32_t frame_tcp(uint8_t *b, uint32_t off, uint16_t sport, uint16_t dport,
		   uint8_t doff)
{
	uint32_t hlen = doff < 5 ? 20 : (uint32_t)doff * 4;

	memset(b + off, 0, hlen);
	put16(b + off, sport);
	put16(b + off + 2, dport);
	b[off + 12] = (uint8_t)(doff << 4);
	return off + hlen;
}

uint32_t frame_icmp(uint8_t *b, uint32_t off, uint8_t type, uint32_t hlen)
{
	memset(b + off, 0, hlen);
	b[off] = type;
	return off + hlen;
}

uint32_t frame_udp_packet(uint8_t *b, const char *src, const char *dst,
			  uint16_t sport)
{
	uint32_t off, l3;

	if (strchr(src, ':')) {
		off = frame_eth(b, NULL, 0, ETHERTYPE_IPV6);
		l3 = off;
		off = frame_ipv6(b, off, IPPROTO_UDP, src, dst);
	} else {
		off = frame_eth(b, NULL, 0, ETHERTYPE_IPV4);
		l3 = off;
		off = frame_ipv4(b, off, IPPROTO_UDP, src, dst, 5, 0);
	}
	off = frame_ip_length(b, l3, frame_udp(b, off, sport, 9));
	return off < MIN_FRAME ? MIN_FRAME : off;
}
