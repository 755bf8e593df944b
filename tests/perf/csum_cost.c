// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What handling partial checksums costs a packet, for scripts/csum-cost.sh
 * to count with callgrind: csum_cost_step() runs one way over packets
 * crafted in a UMEM's frames, one call per packet, and callgrind counts
 * its instructions (--toggle-collect=csum_cost_step).
 *
 *   parse     xskx_pkt_parse() alone: what any forwarder that looks at
 *             headers pays anyway
 *   complete  xskx_pkt_csum_complete() on packets whose checksum is
 *             already complete (the common case: nothing to do)
 *   software  xskx_pkt_csum_complete() on partial ones: completed here
 *   txmeta    xskx_pkt_csum_partial() on partial ones, and the request
 *             for the device to complete it written with xskx_tx_meta()
 *             (XSKX_TX_META_CHECKSUM; the checksum itself is then summed
 *             by the kernel in copy mode, by the NIC in zero-copy mode:
 *             not counted here)
 *
 * Usage: csum_cost CASE PROTO SIZE [PACKETS]
 *   PROTO udp4, tcp4 or tcp6; SIZE the frame's length (64..1514; at
 *   least 74 for tcp6, whose headers take that much).
 * It checks what it did (every packet completed, none, or every request
 * written) and exits 1 if not: the CTest runs it that way.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xskx/xskx.h>

#include "frames.h"

#define MAX_PACKETS 4096

enum cost_case { CASE_PARSE, CASE_COMPLETE, CASE_SOFTWARE, CASE_TXMETA };

static const char *const case_names[] = { "parse", "complete", "software",
					  "txmeta" };

/* One packet per case: returns 1 when it did what the case is about. */
__attribute__((noinline)) int csum_cost_step(enum cost_case c,
					     struct xskx_umem *umem,
					     struct xskx_pkt *pkt)
{
	struct xskx_pkt_csum where;
	struct xsk_tx_metadata *meta;
	struct xskx_pkt_view v;

	switch (c) {
	case CASE_PARSE:
		return xskx_pkt_parse(pkt->data, pkt->len, &v) == XSKX_PKT_L4;
	case CASE_COMPLETE:
	case CASE_SOFTWARE:
		return xskx_pkt_csum_complete(pkt, 1);
	case CASE_TXMETA:
		if (xskx_pkt_csum_partial(pkt, 1, &where) != 1)
			return 0;
		meta = xskx_tx_meta(umem, pkt);
		if (!meta)
			return 0;
		meta->flags = XDP_TXMD_FLAGS_CHECKSUM;
		meta->request.csum_start = where.start;
		meta->request.csum_offset = where.offset;
		return 1;
	}
	return 0;
}

/* A packet of size bytes at b, its checksum field holding the pseudo sum. */
static void craft_partial(uint8_t *b, const char *proto, uint32_t size,
			  uint32_t seed)
{
	bool v6 = !strcmp(proto, "tcp6"), tcp = strncmp(proto, "udp", 3);
	uint32_t l3, l4, off, field;
	uint32_t acc = 0;
	uint16_t p;

	l3 = frame_eth(b, NULL, 0, v6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4);
	if (v6)
		off = frame_ipv6(b, l3, tcp ? IPPROTO_TCP : IPPROTO_UDP,
				 "2001:db8::1", "2001:db8::2");
	else
		off = frame_ipv4(b, l3, tcp ? IPPROTO_TCP : IPPROTO_UDP,
				 "192.0.2.1", "198.51.100.2", 5, 0x4000);
	l4 = off;
	off = tcp ? frame_tcp(b, off, 40000, 5201, 5) :
		    frame_udp(b, off, 40000, 5201);
	for (uint32_t i = off; i < size; i++)
		b[i] = (uint8_t)(i * 13 + seed);
	frame_ip_length(b, l3, size);
	if (!tcp) {
		b[l4 + 4] = (uint8_t)((size - l4) >> 8);
		b[l4 + 5] = (uint8_t)(size - l4);
	}
	/* The pseudo-header's sum, as a stack leaves it for the device. */
	for (uint32_t i = 0; i < (v6 ? 32u : 8u); i += 2) {
		uint32_t src = l3 + (v6 ? 8 : 12);

		acc += (uint32_t)(b[src + i] << 8 | b[src + i + 1]);
	}
	acc += (tcp ? IPPROTO_TCP : IPPROTO_UDP) + (size - l4);
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	p = (uint16_t)acc;
	field = l4 + (tcp ? 16 : 6);
	b[field] = (uint8_t)(p >> 8);
	b[field + 1] = (uint8_t)p;
}

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_count = MAX_PACKETS,
		  .tx_metadata_len = sizeof(struct xsk_tx_metadata));
	static struct xskx_pkt pkts[MAX_PACKETS];
	static uint64_t addrs[MAX_PACKETS];
	struct xskx_umem *umem;
	uint32_t size, n = MAX_PACKETS, did = 0, want;
	enum cost_case c = CASE_PARSE;
	bool known = false;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: csum_cost parse|complete|software|txmeta udp4|tcp4|tcp6 SIZE [PACKETS]\n");
		return 2;
	}
	for (int i = 0; i < 4; i++)
		if (!strcmp(argv[1], case_names[i])) {
			c = (enum cost_case)i;
			known = true;
		}
	size = (uint32_t)atoi(argv[3]);
	if (argc == 5)
		n = (uint32_t)atoi(argv[4]);
	if (!known || size < (strcmp(argv[2], "tcp6") ? 64u : 74u) ||
	    size > 1514 || !n || n > MAX_PACKETS ||
	    (strcmp(argv[2], "udp4") && strcmp(argv[2], "tcp4") &&
	     strcmp(argv[2], "tcp6"))) {
		fprintf(stderr, "csum_cost: bad arguments (see the usage)\n");
		return 2;
	}
	if (xskx_umem_create(&umem, &opts) ||
	    xskx_frame_alloc(umem, addrs, n) != n) {
		fprintf(stderr, "csum_cost: %s\n", xskx_last_error());
		return 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		pkts[i].addr = xskx_umem_tx_addr(umem, addrs[i]);
		pkts[i].len = size;
		pkts[i].data = (uint8_t *)xskx_umem_area(umem) + pkts[i].addr;
		craft_partial(pkts[i].data, argv[2], size, i);
		if (c == CASE_COMPLETE)
			xskx_pkt_csum_complete(&pkts[i], 1);
	}
	for (uint32_t i = 0; i < n; i++)
		did += (uint32_t)csum_cost_step(c, umem, &pkts[i]);
	/*
	 * A complete checksum equal to its pseudo-header sum would be
	 * "completed" again (xskx/packet.h): these packets have none.
	 */
	want = c == CASE_COMPLETE ? 0 : n;
	printf("%s %s %u bytes: %u of %u packets\n", case_names[c], argv[2],
	       size, did, n);
	xskx_frame_free(umem, addrs, n);
	xskx_umem_destroy(umem);
	return did == want ? 0 : 1;
}
