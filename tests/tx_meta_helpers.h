/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the TX metadata tests share, on the simulated NIC and on veth: a
 * UDP/IPv4 test frame (192.0.2.1:12345 -> 192.0.2.2:8080, documentation
 * addresses) whose UDP checksum field holds the pseudo-header's sum, as a
 * checksum offload (CHECKSUM_PARTIAL) wants it, for the peer to finish
 * from UDP_FRAME_CSUM_START; and the raw ring work of the cases that put
 * descriptors past the library's checks.
 */
#ifndef XSKX_TESTS_TX_META_HELPERS_H
#define XSKX_TESTS_TX_META_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/xskx.h>

#define UDP_FRAME_CSUM_START 34 /* the UDP header: 14 + 20 */
#define UDP_FRAME_CSUM_OFFSET 6 /* its checksum field */

/* Write the frame, payload_len bytes of payload tagged with tag; its length. */
uint32_t udp_frame_build(uint8_t *frame, uint32_t payload_len, uint8_t tag);

/* The UDP checksum field as it is (host order). */
uint16_t udp_frame_csum_field(const uint8_t *frame);

/* The pseudo-header's sum that udp_frame_build() put there. */
uint16_t udp_frame_csum_seed(const uint8_t *frame);

/* Whether the UDP checksum is complete and right. */
bool udp_frame_csum_ok(const uint8_t *frame, uint32_t len);

/* The frame built in a fresh frame of umem, at xskx_umem_tx_addr(). */
struct xskx_pkt udp_frame_pkt(struct xskx_umem *umem, uint32_t payload_len,
			      uint8_t tag);

/* CLOCK_TAI now, in ns: what copy-mode TX timestamps are taken on. */
uint64_t test_tai_ns(void);

/* Take COMPLETION's entries, each of which must be addr; how many. */
uint32_t test_comp_take(struct xskx_socket *sock, uint64_t addr);

/* Free what COMPLETION holds, as the application that sent it raw. */
uint32_t test_comp_free(struct xskx_socket *sock);

/* The TX ring's consumer index: descriptors the peer took so far. */
uint32_t test_tx_consumed(struct xskx_socket *sock);

#endif /* XSKX_TESTS_TX_META_HELPERS_H */
