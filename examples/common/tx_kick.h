/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The TX wakeup flags every program takes, --tx-kick-batch N and
 * --tx-kick-usec US (xskx_socket_opts.tx_kick_batch and tx_kick_usec):
 * one spelling, one range, one help text. The library checks how they
 * combine (a batch at most the TX ring, microseconds only with a batch)
 * when the socket opens; api_words.c puts its words in the flags'.
 */
#ifndef XSKX_EXAMPLES_TX_KICK_H
#define XSKX_EXAMPLES_TX_KICK_H

#include <stdbool.h>
#include <stdint.h>

bool tx_kick_parse_batch(const char *arg, uint32_t *batch);
bool tx_kick_parse_usec(const char *arg, uint32_t *usec);

/* The --help lines of both flags, for a usage text. */
#define TX_KICK_USAGE                                                        \
	"      --tx-kick-batch N  wake TX (a sendto() in copy mode) once N\n" \
	"                         packets wait on it, or when a burst queues\n" \
	"                         none (default 0: every burst that queued)\n" \
	"      --tx-kick-usec US  with --tx-kick-batch: or once the first\n"  \
	"                         waiting packet has waited US microseconds,\n" \
	"                         instead of when a burst queues none\n"

#endif /* XSKX_EXAMPLES_TX_KICK_H */
