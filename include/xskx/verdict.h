/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The verdict batch: a filter's or a forwarder's whole decision on an RX
 * batch (xskx/batch.h) in one call, without leaving the batch API.
 *
 *   xskx_rx_peek()      a run of received packets, on the RX ring;
 *   (the application)   a verdict per packet, read where it lies;
 *   xskx_rx_verdict()   XSKX_PKT_PASS onto a TX ring of a socket on the same
 *                       UMEM, descriptor for descriptor; XSKX_PKT_DROP back to
 *                       FILL or the pool; XSKX_PKT_KEEP to the application as
 *                       held packets (struct xskx_pkt), released later
 *                       with xskx_rx_release() or sent with
 *                       xskx_tx_burst().
 *
 * Where xskx_rx_forward() and xskx_rx_recycle() take a batch from its
 * front, all or nothing, a verdict batch mixes them packet by packet in the
 * ring's order, so that a firewall's batch needs no reordering and no
 * second pass. The sockets must share one UMEM: a PASS hands the frame
 * itself to TX, and another UMEM is refused (-EINVAL) rather than copied;
 * copy into a frame of the other UMEM and use xskx_tx_burst() there.
 */
#ifndef XSKX_VERDICT_H
#define XSKX_VERDICT_H

#include <stdint.h>
#include <xskx/batch.h>
#include <xskx/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A packet's fate; one byte per batch entry. */
enum xskx_pkt_verdict {
	XSKX_PKT_DROP = 0,	/* its frames back to FILL (or the pool) */
	XSKX_PKT_PASS = 1,	/* onto out's TX ring */
	XSKX_PKT_KEEP = 2,	/* to the application, held, in res->keep */
};

/*
 * A passing packet that out's TX ring has no room for: by default the call
 * stops before it, and it stays in the batch with every entry after it
 * (res->held), to be judged again; with this flag its frames are recycled
 * and counted in res->tx_full_dropped, and the call goes on.
 */
#define XSKX_RX_VERDICT_TX_FULL_DROP (1u << 0)

/*
 * What one call did, in packets (a chain of fragments counts once), and
 * where kept packets go. Every packet the call took from the batch is in
 * exactly one of forwarded, dropped, tx_full_dropped and kept.
 */
struct xskx_rx_verdict_result {
	/* in: room for the kept packets' fragments, one entry each */
	struct xskx_pkt *keep;
	uint32_t keep_max;
	/* out */
	uint32_t forwarded;	  /* onto out's TX ring */
	uint32_t dropped;	  /* by their verdict */
	uint32_t tx_full_dropped; /* passing, TX full: XSKX_RX_VERDICT_TX_FULL_DROP */
	uint32_t kept;		  /* handed to the application */
	uint32_t keep_entries;	  /* entries of keep written */
	uint32_t held;		  /* entries left in the batch: TX was full */
};

/*
 * Apply verdicts[i] to entry i of the batch, in order, from entry 0. With
 * multi-buffer a chain is judged whole by the verdict of its first entry
 * (those of its other entries are not read), and a kept chain fills as
 * many entries of res->keep, in order, XDP_PKT_CONTD on all but its last.
 * out may be NULL, or the socket itself, when no entry passes; it needs a
 * TX ring otherwise. Reclaims out's completions first and kicks out by
 * xskx_tx_burst()'s rules; dropped frames go back to FILL by
 * xskx_rx_burst()'s refill rules. Returns the entries taken from the batch
 * (entry 0 is then the first one not taken; verdicts go on from
 * verdicts[returned]; the batch closes when none is left) and fills *res,
 * or a negative errno, having done nothing, with a message naming the
 * culprit: -EINVAL (NULL arguments, not sock's open batch, a verdict
 * other than the three or an unknown flag, named by its entry; kept
 * fragments beyond res->keep_max; a passing packet and out NULL, on
 * another UMEM, without a TX ring, or without multi-buffer for a chain),
 * -EBUSY (out's TX batch is open), or a failed kick as xskx_tx_burst()
 * returns it. No syscall unless out's peer asked for a kick.
 */
int xskx_rx_verdict(struct xskx_socket *sock, struct xskx_rx_batch *batch,
		    const uint8_t *verdicts, struct xskx_socket *out,
		    uint32_t flags, struct xskx_rx_verdict_result *res);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_VERDICT_H */
