/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The packet view's parser, for packets longer than the bytes it reads. */
#ifndef XSKX_PACKET_INTERNAL_H
#define XSKX_PACKET_INTERNAL_H

#include <xskx/packet.h>

/* The header fields and sizes the packet view reads. */
#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8
#define IPV4_MIN_HLEN 20
#define IPV6_HLEN 40
#define IPV6_FRAG_HLEN 8
#define TCP_MIN_HLEN 20
#define UDP_HLEN 8

/*
 * xskx_pkt_parse() of a packet of span bytes whose first len bytes are at
 * data (a multi-buffer chain's first fragment): the IP length field is
 * checked against span, the headers are read from data[0..len) only. A
 * header that runs past len inside the datagram is MALFORMED here (it is
 * not in the first fragment). span == len is xskx_pkt_parse().
 */
enum xskx_pkt_class xskx__pkt_parse_span(const uint8_t *data, uint32_t len,
					 uint32_t span,
					 struct xskx_pkt_view *view);

#endif /* XSKX_PACKET_INTERNAL_H */
