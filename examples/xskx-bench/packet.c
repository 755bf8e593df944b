// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the packet txonly sends. A valid Ethernet/IPv4/UDP frame, so
 * that a receiver on the other end of a veth pair counts it rather than
 * discarding it as garbage.
 */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <string.h>

#include "bench.h"

static uint16_t ipv4_checksum(const void *hdr, size_t len)
{
	const uint8_t *p = hdr;
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

void bench_build_udp_frame(uint8_t *frame, uint32_t len)
{
	static const uint8_t dst[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
	static const uint8_t src[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	struct ether_header eth = { .ether_type = htons(ETHERTYPE_IP) };
	struct iphdr ip = {
		.version = 4,
		.ihl = sizeof(ip) / 4,
		.tot_len = htons((uint16_t)(len - sizeof(eth))),
		.ttl = 64,
		.protocol = IPPROTO_UDP,
		.saddr = htonl(0x0a000001), /* 10.0.0.1 */
		.daddr = htonl(0x0a000002), /* 10.0.0.2 */
	};
	/* A zero UDP checksum means "none" over IPv4. */
	struct udphdr udp = {
		.source = htons(4096),
		.dest = htons(4096),
		.len = htons((uint16_t)(len - sizeof(eth) - sizeof(ip))),
	};
	size_t off = 0;

	memcpy(eth.ether_dhost, dst, ETH_ALEN);
	memcpy(eth.ether_shost, src, ETH_ALEN);
	ip.check = ipv4_checksum(&ip, sizeof(ip));
	memcpy(frame + off, &eth, sizeof(eth));
	off += sizeof(eth);
	memcpy(frame + off, &ip, sizeof(ip));
	off += sizeof(ip);
	memcpy(frame + off, &udp, sizeof(udp));
	off += sizeof(udp);
	for (uint32_t i = 0; off + i < len; i++)
		frame[off + i] = (uint8_t)i;
}
