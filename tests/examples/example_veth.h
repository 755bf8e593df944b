/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the veth tests of the example programs (test_l2fwd_veth.c,
 * test_fw_veth.c) share: two veth pairs around the program under test,
 *
 *   outerA <-> inA  [program]  inB <-> outB
 *
 * AF_PACKET sockets on the outer ends, the time budget, and the check that
 * the program left no XDP program behind. Failures fail the running test.
 */
#ifndef XSKX_TESTS_EXAMPLE_VETH_H
#define XSKX_TESTS_EXAMPLE_VETH_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <xskx/xskx.h>

/* Create the pairs outer_a <-> in_a and outer_b <-> in_b. */
void example_veth_pairs_create(const char *outer_a, const char *in_a,
			       const char *outer_b, const char *in_b);
/* The same with queues RX and TX queues on every end. */
void example_veth_pairs_create_queues(const char *outer_a, const char *in_a,
				      const char *outer_b, const char *in_b,
				      uint32_t queues);
/* A non-blocking AF_PACKET socket on ifname for EtherType ethertype. */
int example_raw_socket(const char *ifname, uint16_t ethertype);
/*
 * One non-blocking read of raw socket fd into buf: the length of a frame
 * that arrived, 0 for the copy of a frame the socket sent itself (skip it),
 * -1 when none waits.
 */
ssize_t example_raw_recv(int fd, uint8_t *buf, size_t size);
/* A CLOCK_MONOTONIC deadline seconds from now, and whether it passed. */
struct timespec example_deadline(time_t seconds);
bool example_past(const struct timespec *deadline);
void example_assert_no_xdp_program(const char *ifname);
/* The library's ports on interfaces names[0..n), XDP in mode; asserts. */
void example_ports_open(struct xskx_port *ports[], const char *const names[],
			uint32_t n, enum xskx_xdp_mode mode);
/* Close ports[0..n) (their sockets closed); asserts. */
void example_ports_close(struct xskx_port *ports[], uint32_t n);
/* A test case of its own with a timeout of timeout_s. */
void example_add_case(Suite *s, const char *name, const TTest *test,
		      double timeout_s);

#endif /* XSKX_TESTS_EXAMPLE_VETH_H */
