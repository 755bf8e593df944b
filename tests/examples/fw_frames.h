/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Crafted frames for xskx-fw's tests, on the simulated NIC (test_fw_sim.c)
 * and on veth (test_fw_veth.c): Ethernet (optionally VLAN-tagged), IPv4 or
 * IPv6 by the source address, then TCP, UDP, ICMP or ICMPv6 and 12 bytes
 * of payload. Destination MAC 02:00:00:00:00:02, source ...:01.
 */
#ifndef XSKX_TESTS_FW_FRAMES_H
#define XSKX_TESTS_FW_FRAMES_H

#include <stdbool.h>
#include <stdint.h>

#define FW_FRAME_MAX 256u /* what fw_frame_build() writes at most */

struct ip_spec {
	const char *src, *dst;
	uint8_t proto;
	uint16_t dport;
	uint32_t vlans;
	uint32_t ipv4_options;	/* bytes, a multiple of 4 */
	uint16_t frag_offset;	/* in 8-byte units */
	bool more_fragments;
	bool ipv6_ext;		/* hop-by-hop and destination options */
	uint32_t cut;		/* bytes cut off the end: truncated */
};

/* Big-endian 16 bits at p. */
void fw_put16(uint8_t *p, uint16_t v);
/* The Ethernet header (and VLAN tags) of an EtherType; returns the L3 offset. */
uint32_t fw_frame_eth(uint8_t *p, uint16_t type, uint32_t vlans);
/* Write the frame s describes into p; returns its length. */
uint32_t fw_frame_build(uint8_t *p, const struct ip_spec *s);

#endif /* XSKX_TESTS_FW_FRAMES_H */
