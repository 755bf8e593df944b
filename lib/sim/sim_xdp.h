/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The XDP hook as the simulated NIC runs it, on a packet in a driver
 * buffer (sim_rx_driver.c) or in the hardware ring's frames (sim_napi.c),
 * and the packet as a resizing hook sees it (sim_xdp_tail.c).
 */
#ifndef XSKX_SIM_XDP_H
#define XSKX_SIM_XDP_H

#include <stdint.h>
#include <xskx-sim/sim.h>

#include "sim_internal.h"
#include "sim_rx_meta.h"

/*
 * A packet as a resizing hook sees it (buff), and what the hook cannot see
 * but xskx_sim_xdp_adjust_tail() changes (sim_xdp_tail.c): a zero-copy
 * chain's fragments after its first buffer, each in a frame of frag_room
 * data bytes. Zero fragments: a linear packet, which may end anywhere from
 * an Ethernet header in to end, its buffer's end. The hardware slots stay
 * as they arrived until the driver applies what the hook left.
 */
struct sim_xdp {
	struct xskx_sim_xdp_buff buff; /* first: the hook's pointer is ours */
	uint32_t end;		/* linear: data to the buffer's end */
	uint32_t head_len;	/* chain: the first buffer's, which the hook may not set */
	uint32_t nr_frags;
	uint32_t frag_room;
	uint8_t *frag_data[SIM_MAX_FRAGS - 1];
	uint32_t frag_len[SIM_MAX_FRAGS - 1];
};

/* A linear packet of len bytes in a buffer with tailroom bytes after it. */
static inline void sim_xdp_init(struct sim_xdp *x, const struct sim_queue *q,
				uint8_t *data, uint32_t len, uint32_t tailroom)
{
	x->buff = (struct xskx_sim_xdp_buff){ data, len, tailroom, q->index,
					      0 };
	x->end = len + tailroom;
	x->head_len = len;
	x->nr_frags = 0;
}

/* The whole packet: bpf_xdp_get_buff_len(). */
static inline uint32_t sim_xdp_len(const struct sim_xdp *x)
{
	uint32_t len = x->buff.len;

	for (uint32_t f = 0; f < x->nr_frags; f++)
		len += x->frag_len[f];
	return len;
}

/*
 * The port's XDP hook, or the default: redirect when a socket is bound. A
 * resizing hook may change a linear packet's len within
 * [XSKX_SIM_XDP_MIN_LEN, its buffer's end], a chain's only through
 * xskx_sim_xdp_adjust_tail(), and put meta_len bytes of metadata in front
 * of data (a multiple of 4, at most XSKX_XDP_META_MAX:
 * bpf_xdp_adjust_meta()'s rules); outside them the verdict is
 * XSKX_XDP_ABORTED. x->buff.len is the first buffer's length after it.
 */
static inline enum xskx_xdp_verdict sim_run_xdp(struct sim_queue *q,
						struct sim_xdp *x,
						uint32_t *meta_len)
{
	const struct xskx_sim_port *port = q->port;
	struct xskx_sim_xdp_buff *xdp = &x->buff;
	enum xskx_xdp_verdict verdict;

	*meta_len = 0;
	if (port->xdp) {
		verdict = port->xdp(xdp->data, xdp->len, q->index,
				    port->xdp_ctx);
		/* The deny list's hook passes what it lets through there. */
		if (verdict == XSKX_XDP_PASS && !port->xdp_yours &&
		    !q->rx_target)
			sim_count(&q->no_socket, 1);
		return verdict;
	}
	if (!port->xdp_buff) {
		/* xskx's program: to the socket, with RX metadata if asked. */
		if (!q->rx_target) {
			sim_count(&q->no_socket, 1);
			return XSKX_XDP_PASS;
		}
		if (port->rx_meta) {
			xskx__sim_rx_meta_fill(xdp->data, xdp->len);
			*meta_len = XSKX_XDP_META_MAX;
		}
		return XSKX_XDP_REDIRECT;
	}
	verdict = port->xdp_buff(xdp, port->xdp_ctx);
	if (xdp->meta_len % 4 || xdp->meta_len > XSKX_XDP_META_MAX)
		return XSKX_XDP_ABORTED;
	if (x->nr_frags ? xdp->len != x->head_len :
			  xdp->len < XSKX_SIM_XDP_MIN_LEN || xdp->len > x->end)
		return XSKX_XDP_ABORTED;
	*meta_len = xdp->meta_len;
	return verdict;
}

#endif /* XSKX_SIM_XDP_H */
