/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the peers that run as user nobody (unpriv_peer.c, handover_peer.c)
 * share: checking their own credentials, ending with the reason on
 * stderr, checking a refusal, and forwarding what a socket receives back
 * out as it came. A peer exits 1 on the first thing that does not hold,
 * its reason prefixed with the program's name; the test reads the verdict
 * from its exit status.
 */
#ifndef XSKX_TESTS_VETH_UNPRIV_FORWARD_H
#define XSKX_TESTS_VETH_UNPRIV_FORWARD_H

#include <stdint.h>
#include <xskx/xskx.h>

/*
 * The test means nothing unless this runs as a user other than root with
 * exactly the effective capabilities capeff, as /proc/self/status spells
 * CapEff (16 hex digits); exit 1 saying what it runs as otherwise.
 */
void peer_check_credentials(const char *capeff);

/* Say what failed, its errno-style err and xskx's last error; exit 1. */
void peer_fail(const char *what, int err) __attribute__((noreturn));

/*
 * err must be want, with xskx's last error naming word (the culprit or
 * the way around it); exit 1 saying what came instead otherwise.
 */
void peer_expect_refused(const char *what, int err, int want, const char *word);

/* Called with each burst received, before it is sent back. */
typedef void (*peer_rx_check)(const struct xskx_pkt *pkts, int n, void *ctx);

/*
 * Receive on sock and send every packet back out in the order it came,
 * until count are forwarded or ms have passed; a burst TX cannot take at
 * once is retried until it can (exit 1 past the deadline). check, unless
 * NULL, sees each burst first. When short of count, says on stderr what
 * the socket's counters and umem's census show. Then waits, up to a
 * second, until TX has completed, so that closing the socket loses
 * nothing. Returns how many packets were forwarded.
 */
uint32_t peer_forward(struct xskx_socket *sock, struct xskx_umem *umem,
		      uint32_t count, int ms, peer_rx_check check, void *ctx);

#endif /* XSKX_TESTS_VETH_UNPRIV_FORWARD_H */
