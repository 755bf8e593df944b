/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The XDP program on an interface: xskx's own (embedded in the library) or
 * the caller's built on bpf/xskx_maps.bpf.h, attached through libxdp (its
 * dispatcher where the kernel allows it, the program alone where it does
 * not). Every socket of every xskx process on the interface shares it: a
 * later process joins the program an earlier one attached, and the last
 * process to leave detaches it. Its XSKMAP maps each RX queue to the
 * socket bound to it.
 */
#ifndef XSKX_KERNEL_XDP_PROG_H
#define XSKX_KERNEL_XDP_PROG_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/kernel.h>

#include "netdev.h"
#include "xdp_request.h"
#include "xskx_shared.h"

struct xskx_xdp_attachment;

/*
 * This process's attachment on dev: joins the xskx program another process
 * attached there (same program object, same mode), attaches one when there
 * is none, and replaces one whose users all died. Returns 0, or a negative
 * errno having logged why: -EOPNOTSUPP (no native XDP and no fallback
 * allowed), -EBUSY (another program holds the device, or the xskx program
 * there runs another object or mode than req asks for), -EINVAL (the
 * caller's object lacks xskx's maps), -EPERM.
 */
int xskx__xdp_acquire(const struct xskx_netdev *dev,
		      const struct xskx_xdp_request *req,
		      struct xskx_xdp_attachment **att);

/*
 * Drop a reference; the process's last one leaves the program, detaching it
 * when no other living process uses it.
 */
void xskx__xdp_release(struct xskx_xdp_attachment *att);

/*
 * Point queue's XSKMAP slot at socket fd (the newest socket on a queue
 * takes the slot). Returns 0 or a negative errno, logged.
 */
int xskx__xdp_add_socket(struct xskx_xdp_attachment *att, uint32_t queue,
			 int fd);

/*
 * Take socket fd out: its slot goes to the queue's next newest socket, or
 * is emptied so that the queue's packets pass to the stack.
 */
void xskx__xdp_remove_socket(struct xskx_xdp_attachment *att, uint32_t queue,
			     int fd);

/*
 * The living process whose socket serves queue (from the program's queue
 * owner map): 0, or -ENOENT when nobody's is recorded there.
 */
int xskx__xdp_queue_holder(const struct xskx_xdp_attachment *att,
			   uint32_t queue, struct xskx_prog_owner *holder);

/*
 * Packets per RX queue that the program found no socket for, summed over
 * CPUs, into packets[0..queues). -ENOENT: the program does not count them.
 */
int xskx__xdp_no_socket(const struct xskx_xdp_attachment *att,
			uint64_t *packets, uint32_t queues);

enum xskx_xdp_mode xskx__xdp_mode_of(const struct xskx_xdp_attachment *att);

/*
 * Whether the attached program is xskx's RX metadata program loaded
 * device-bound, its kfuncs answering (whoever attached it).
 */
bool xskx__xdp_rx_meta_bound(const struct xskx_xdp_attachment *att);

/* The attached program's fd, for finding its maps (xskx__prog_map_fd()). */
int xskx__xdp_prog_fd(const struct xskx_xdp_attachment *att);

#endif /* XSKX_KERNEL_XDP_PROG_H */
