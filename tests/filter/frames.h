/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Crafted Ethernet frames for the packet view and the deny list: each
 * builder writes one header at off and returns the offset after it, so a
 * test stacks exactly the headers (and defects) it means to.
 */
#ifndef XSKX_TESTS_FRAMES_H
#define XSKX_TESTS_FRAMES_H

#include <stdint.h>

#define FRAME_MAX 512

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_ARP 0x0806
#define TPID_8021Q 0x8100
#define TPID_8021AD 0x88a8

/* MACs, then one 4-byte tag per tpids[i] (VLAN id 1 + i), then ethertype. */
uint32_t frame_eth(uint8_t *b, const uint16_t *tpids, int ntags,
		   uint16_t ethertype);

/*
 * IPv4 header of ihl 32-bit words (options zero-filled, ihl < 5 writes a
 * 20-byte header that claims ihl), frag: the flags/fragment offset field.
 */
uint32_t frame_ipv4(uint8_t *b, uint32_t off, uint8_t proto, const char *src,
		    const char *dst, uint8_t ihl, uint16_t frag);
uint32_t frame_ipv6(uint8_t *b, uint32_t off, uint8_t next, const char *src,
		    const char *dst);
/*
 * Write the length field of the IP header at l3 (IPv4 total length, IPv6
 * payload length) for a datagram that ends at end. Returns end.
 */
uint32_t frame_ip_length(uint8_t *b, uint32_t l3, uint32_t end);
/* Hop-by-hop, routing or destination options: (len8 + 1) * 8 bytes. */
uint32_t frame_ipv6_ext(uint8_t *b, uint32_t off, uint8_t next, uint8_t len8);
/* Fragment header: offset in 8-byte units, more: the M flag. */
uint32_t frame_ipv6_frag(uint8_t *b, uint32_t off, uint8_t next,
			 uint16_t offset, int more);
uint32_t frame_udp(uint8_t *b, uint32_t off, uint16_t sport, uint16_t dport);
/* TCP header of doff 32-bit words (doff < 5 writes 20 bytes). */
uint32_t frame_tcp(uint8_t *b, uint32_t off, uint16_t sport, uint16_t dport,
		   uint8_t doff);
/* ICMP (8 bytes) or ICMPv6 (4 bytes) header. */
uint32_t frame_icmp(uint8_t *b, uint32_t off, uint8_t type, uint32_t hlen);

/*
 * A complete UDP packet from src to dst (IPv4 or IPv6 by the text), with
 * sport as the packet's id, padded to 64 bytes. Returns its length.
 */
uint32_t frame_udp_packet(uint8_t *b, const char *src, const char *dst,
			  uint16_t sport);

#endif /* XSKX_TESTS_FRAMES_H */
