// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What the TX metadata tests share (tx_meta_helpers.h). */
#include <check.h>
#include <string.h>
#include <time.h>

#include "tx_meta_helpers.h"

#define IP_OFF 14
#define UDP_OFF UDP_FRAME_CSUM_START

static const uint8_t header[] = {
	/* Ethernet: to 02:00:00:00:00:02 from ...:01, IPv4 */
	0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
	/* IPv4: no options, TTL 64, UDP, 192.0.2.1 -> 192.0.2.2 */
	0x45, 0, 0, 0, 0, 0, 0, 0, 64, 17, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2,
	/* UDP: 12345 -> 8080 */
	0x30, 0x39, 0x1f, 0x90, 0, 0, 0, 0,
};

static uint32_t sum16(const uint8_t *p, uint32_t n, uint32_t sum)
{
	for (uint32_t i = 0; i < n; i++)
		sum += i & 1 ? p[i] : (uint32_t)p[i] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Source and destination, protocol and the UDP length. */
static uint32_t pseudo_sum(const uint8_t *frame)
{
	return sum16(frame + IP_OFF + 12, 8, 0) + 17 + get16(frame + UDP_OFF + 4);
}

uint32_t udp_frame_build(uint8_t *frame, uint32_t payload_len, uint8_t tag)
{
	uint32_t udp_len = 8 + payload_len;

	memcpy(frame, header, sizeof(header));
	for (uint32_t i = 0; i < payload_len; i++)
		frame[UDP_OFF + 8 + i] = (uint8_t)(tag + i);
	put16(frame + IP_OFF + 2, (uint16_t)(20 + udp_len));
	put16(frame + IP_OFF + 10, (uint16_t)~fold(sum16(frame + IP_OFF, 20, 0)));
	put16(frame + UDP_OFF + 4, (uint16_t)udp_len);
	put16(frame + UDP_OFF + 6, fold(pseudo_sum(frame)));
	return UDP_OFF + udp_len;
}

uint16_t udp_frame_csum_field(const uint8_t *frame)
{
	return get16(frame + UDP_OFF + 6);
}

uint16_t udp_frame_csum_seed(const uint8_t *frame)
{
	return fold(pseudo_sum(frame));
}

bool udp_frame_csum_ok(const uint8_t *frame, uint32_t len)
{
	uint32_t udp_len = get16(frame + UDP_OFF + 4);

	if (len < UDP_OFF + udp_len || !udp_frame_csum_field(frame))
		return false;
	return fold(sum16(frame + UDP_OFF, udp_len, pseudo_sum(frame))) ==
	       0xffff;
}

struct xskx_pkt udp_frame_pkt(struct xskx_umem *umem, uint32_t payload_len,
			      uint8_t tag)
{
	struct xskx_pkt p = { 0 };
	uint64_t frame;

	ck_assert_uint_eq(xskx_frame_alloc(umem, &frame, 1), 1);
	p.addr = xskx_umem_tx_addr(umem, frame);
	p.data = (uint8_t *)xskx_umem_area(umem) + p.addr;
	p.len = udp_frame_build(p.data, payload_len, tag);
	return p;
}

uint64_t test_tai_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_TAI, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static struct xsk_ring_cons *comp_of(struct xskx_socket *sock)
{
	struct xskx_rings rings;

	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	return rings.comp;
}

uint32_t test_comp_take(struct xskx_socket *sock, uint64_t addr)
{
	struct xsk_ring_cons *comp = comp_of(sock);
	uint32_t idx, n = xsk_ring_cons__peek(comp, comp->size, &idx);

	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(*xsk_ring_cons__comp_addr(comp, idx + i), addr);
	xsk_ring_cons__release(comp, n);
	return n;
}

uint32_t test_comp_free(struct xskx_socket *sock)
{
	struct xsk_ring_cons *comp = comp_of(sock);
	uint32_t idx, n = xsk_ring_cons__peek(comp, comp->size, &idx);

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(comp, idx + i);

		ck_assert_int_eq(xskx_frame_free(xskx_socket_umem(sock), &addr, 1),
				 0);
	}
	xsk_ring_cons__release(comp, n);
	return n;
}

uint32_t test_tx_consumed(struct xskx_socket *sock)
{
	struct xskx_rings rings;

	ck_assert_int_eq(xskx_socket_rings(sock, &rings), 0);
	return __atomic_load_n(rings.tx->consumer, __ATOMIC_ACQUIRE);
}
