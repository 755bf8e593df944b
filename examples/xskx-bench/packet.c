// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the packet txonly sends. A valid Ethernet[/802.1Q]/IPv4/UDP
 * frame, so that a receiver on the other end of a veth pair counts it rather
 * than discarding it as garbage; its MACs, VLAN tag and payload pattern are
 * xdpsock's -G, -H, -V, -J, -K and -P, and -y adds a pktgen header that
 * bench_packet_stamp() fills as the packet leaves. With --tx-checksum its
 * UDP checksum field holds the pseudo-header's sum, for the peer to finish
 * (bench_packet_csum_start()).
 */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stddef.h>
#include <string.h>

#include "bench.h"

/* pktgen's header (net/core/pktgen.c), which its receivers recognise. */
#define PKTGEN_MAGIC 0xbe9be955u
struct pktgen_hdr {
	uint32_t magic, seq, tv_sec, tv_usec;
};

#define VLAN_TAG_LEN 4

static uint32_t l2_len(const struct bench_packet_opts *p)
{
	return ETH_HLEN + (p->vlan ? VLAN_TAG_LEN : 0);
}

static uint32_t udp_payload_offset(const struct bench_packet_opts *p)
{
	return l2_len(p) + sizeof(struct iphdr) + sizeof(struct udphdr);
}

uint32_t bench_packet_min_size(const struct bench_packet_opts *p)
{
	uint32_t headers = udp_payload_offset(p) +
			   (p->timestamp ? sizeof(struct pktgen_hdr) : 0);

	/* The shortest Ethernet frame without its FCS. */
	return headers > ETH_ZLEN ? headers : ETH_ZLEN;
}

uint32_t bench_packet_l2_overhead(const struct bench_packet_opts *p)
{
	return l2_len(p);
}

uint32_t bench_packet_csum_start(const struct bench_packet_opts *p)
{
	return l2_len(p) + sizeof(struct iphdr);
}

/* The ones' complement sum of len bytes (even), folded to 16 bits. */
static uint16_t sum16(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static uint16_t ipv4_checksum(const void *hdr, size_t len)
{
	return htons((uint16_t)~sum16(hdr, len, 0));
}

/* The UDP pseudo-header's sum: addresses, protocol, length. */
static uint16_t udp_pseudo_sum(const struct iphdr *ip, const struct udphdr *udp)
{
	return htons(sum16(&ip->saddr, 8, IPPROTO_UDP + ntohs(udp->len)));
}

static size_t put(uint8_t *frame, size_t off, const void *src, size_t len)
{
	memcpy(frame + off, src, len);
	return off + len;
}

void bench_build_udp_frame(uint8_t *frame, uint32_t len,
			   const struct bench_packet_opts *p)
{
	uint32_t l3_len = len - l2_len(p);
	uint16_t ip_type = htons(ETHERTYPE_IP);
	struct iphdr ip = {
		.version = 4,
		.ihl = sizeof(ip) / 4,
		.tot_len = htons((uint16_t)l3_len),
		.ttl = 64,
		.protocol = IPPROTO_UDP,
		.saddr = htonl(0xc0000201), /* 192.0.2.1 */
		.daddr = htonl(0xc0000202), /* 192.0.2.2 */
	};
	/* A zero UDP checksum means "none" over IPv4. */
	struct udphdr udp = {
		.source = htons(4096),
		.dest = htons(4096),
		.len = htons((uint16_t)(l3_len - sizeof(ip))),
	};
	uint32_t pattern = htonl(p->fill_pattern);
	size_t off = 0;

	if (p->tx_checksum)
		udp.check = udp_pseudo_sum(&ip, &udp);

	off = put(frame, off, p->dst_mac, ETH_ALEN);
	off = put(frame, off, p->src_mac, ETH_ALEN);
	if (p->vlan) {
		uint16_t tpid = htons(ETHERTYPE_VLAN);
		uint16_t tci = htons((uint16_t)(p->vlan_pcp << 13 | p->vlan_id));

		off = put(frame, off, &tpid, sizeof(tpid));
		off = put(frame, off, &tci, sizeof(tci));
	}
	off = put(frame, off, &ip_type, sizeof(ip_type));
	ip.check = ipv4_checksum(&ip, sizeof(ip));
	off = put(frame, off, &ip, sizeof(ip));
	off = put(frame, off, &udp, sizeof(udp));
	for (uint32_t i = 0; off + i < len; i++)
		frame[off + i] = ((const uint8_t *)&pattern)[i % 4];
	if (p->timestamp) {
		uint32_t magic = htonl(PKTGEN_MAGIC);

		put(frame, off, &magic, sizeof(magic));
	}
}

void bench_packet_stamp(uint8_t *frame, const struct bench_packet_opts *p,
			uint32_t seq, const struct timespec *now)
{
	/* The header is only 2-byte aligned in the frame: bytes, not a struct. */
	uint8_t *seq_at = frame + udp_payload_offset(p) +
			  offsetof(struct pktgen_hdr, seq);
	uint32_t fields[3] = { htonl(seq), htonl((uint32_t)now->tv_sec),
			       htonl((uint32_t)(now->tv_nsec / 1000)) };

	memcpy(seq_at, fields, sizeof(fields));
}
