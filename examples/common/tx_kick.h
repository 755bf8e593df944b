/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The TX wakeup flags every program takes, --tx-kick-batch N and
 * --tx-kick-usec US (xskx_socket_opts.tx_kick_batch and tx_kick_usec):
 * one spelling, one range, one help text. The library checks how they
 * combine (a batch at most the TX ring, microseconds only with a batch)
 * when the socket opens; api_words.c puts its words in the flags'.
 *
 * The defaults, the same in all three programs, coalesce: a wakeup per 64
 * packets or once the first has waited 50 us. Against a wakeup per burst
 * they raised real clients' TCP goodput through xskx-l2fwd from 0.45x to
 * 0.58x a bridge's and cut the pings' p99 from the bridge's + 199 us to
 * + 129 us, and xskx-bench l2fwd from 0.89x to 1.04x xdpsock's
 * (docs/PERFORMANCE.md, "The TX wakeup defaults").
 */
#ifndef XSKX_EXAMPLES_TX_KICK_H
#define XSKX_EXAMPLES_TX_KICK_H

#include <stdbool.h>
#include <stdint.h>

#define TX_KICK_DEFAULT_BATCH 64
#define TX_KICK_DEFAULT_USEC 50
/* A flag not given, until tx_kick_resolve() puts its default in. */
#define TX_KICK_UNSET UINT32_MAX

bool tx_kick_parse_batch(const char *arg, uint32_t *batch);
bool tx_kick_parse_usec(const char *arg, uint32_t *usec);

/*
 * The defaults of the flags not given: the batch TX_KICK_DEFAULT_BATCH, or
 * the whole TX ring (tx_size entries, 0: the library's default) where that
 * is smaller; the microseconds TX_KICK_DEFAULT_USEC, or 0 where the batch
 * is 0 (a wakeup per burst, which takes no time limit).
 */
void tx_kick_resolve(uint32_t tx_size, uint32_t *batch, uint32_t *usec);

/* The --help lines of both flags, for a usage text. */
#define TX_KICK_USAGE                                                        \
	"      --tx-kick-batch N  wake TX (a sendto() in copy mode) once N\n" \
	"                         packets wait on it (default 64; 0: every\n" \
	"                         burst that queued)\n"                         \
	"      --tx-kick-usec US  or once the first waiting packet has waited\n" \
	"                         US microseconds (default 50; 0: when a\n"    \
	"                         burst queues none)\n"

#endif /* XSKX_EXAMPLES_TX_KICK_H */
