/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where packets were lost, stage by stage, without counting one twice, so
 * that a user can check  offered = delivered + filtered + lost.
 *
 * Each stage reads the counters the library exposes:
 *
 *   nic_rx        the interface dropped it on receive: the simulated port's
 *                 rx_missed (no hardware buffer); on the kernel, the link's
 *                 rx_dropped + rx_missed_errors (xskx_netdev_stats) less
 *                 what the socket counted too (below)
 *   xdp_passed    the XDP program handed it to the kernel stack: no socket
 *                 on its queue (which queues: no_socket below)
 *   xdp_redirect_failed  kernel: the program's redirect found no socket and
 *                 fell back to the stack; sim: redirected to a queue with no
 *                 socket bound
 *   rx_dropped    the socket had no free frame for it, or it was too large
 *   rx_ring_full  the socket's RX ring was full: dropped
 *   app           the program gave it up (a full TX ring, refused by TX,
 *                 held at exit)
 *   tx_invalid    the peer refused its TX descriptor (tx_invalid_descs)
 *   nic_tx        the interface dropped it on transmit: the link's
 *                 tx_dropped; the simulated port's wire_drops
 *
 * What the kernel counts where (net/xdp/xsk.c, drivers/net/veth.c), and so
 * what the sum leaves out:
 *
 * - xsk_rcv_check() and __xsk_rcv() count a packet that fails either in
 *   rx_dropped (too large, no frame) or in rx_queue_full (reported as
 *   rx_ring_full), never both: the two add.
 * - rx_fill_ring_empty_descs is not a packet count: in copy mode the frame
 *   allocation that finds FILL empty counts it and __xsk_rcv() then counts
 *   the same packet in rx_dropped; in zero-copy mode it counts the driver's
 *   refill attempts. Left out. So is rx_invalid_descs (FILL entries, not
 *   packets).
 * - A redirect that fails after the program returned (the socket's drops
 *   above) is invisible to the program: its redirect_failed counts only
 *   bpf_redirect_map() finding no socket, and such a packet goes to the
 *   stack (XDP_PASS fallback), not to the socket. The two add.
 * - veth in native mode counts every failed xdp_do_redirect() in its
 *   rx_drops, part of the link's rx_dropped: there the socket's drops are
 *   taken out of the link's (xskx_netdev_stats says which drivers do so).
 *   Generic XDP frees such packets uncounted.
 * - A frame veth could not queue on its peer is counted in the sender's
 *   tx_dropped, not in the receiver's rx_dropped: a sender on the peer
 *   sees it as a failed send (ENOBUFS), xskx's own TX as nic_tx.
 * - On the simulated NIC, xdp_redirect_err counts every redirect that did
 *   not reach the RX ring, those the socket counted included, and a full
 *   RX ring that stops the poll (napi_stops) leaves the packet in the NIC
 *   for the next poll: it is counted in rx_ring_full and xdp_redirect_err
 *   but not lost. Both are taken out.
 */
#ifndef XSKX_EXAMPLES_LOSS_H
#define XSKX_EXAMPLES_LOSS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

/* The queues whose no-socket counts a port's losses name. */
#define LOSS_QUEUES 64

struct loss {
	uint64_t nic_rx;
	uint64_t xdp_passed;
	uint64_t xdp_redirect_failed;
	uint64_t rx_dropped;
	uint64_t rx_ring_full;
	uint64_t app;
	uint64_t tx_invalid;
	uint64_t nic_tx;
	/*
	 * Not a stage: of xdp_passed, the packets of each RX queue where no
	 * socket listened (xskx_port_rx_no_socket()), for one port as
	 * loss_port_read() read it; the sums and differences above leave it
	 * at 0.
	 */
	uint64_t no_socket[LOSS_QUEUES];
};

/* The sum of every stage: the packets lost. */
uint64_t loss_total(const struct loss *l);

/*
 * Of the packets a program handed to its TX rings, those that left: less
 * the ones the TX stages lost.
 */
uint64_t loss_delivered(uint64_t sent, const struct loss *l);

/* a += b, stage by stage. */
void loss_add(struct loss *a, const struct loss *b);

/* now - before, stage by stage (the losses of an interval). */
void loss_since(struct loss *d, const struct loss *now,
		const struct loss *before);

/*
 * The socket counters the arithmetic needs. A thread that does not own the
 * socket must not call xskx_socket_stats() (the library's counters are
 * plain); the owner publishes these with loss_sock_publish() and any
 * thread reads them with loss_sock_read().
 */
struct loss_sock {
	uint64_t rx_dropped;
	uint64_t rx_ring_full;
	uint64_t tx_invalid_descs;
};

/* Read sock's statistics (a syscall on the kernel) into dst, atomically per field. */
int loss_sock_publish(struct loss_sock *dst, struct xskx_socket *sock);
void loss_sock_read(const struct loss_sock *src, struct loss_sock *out);
/* sum += what loss_sock_read() reads of src (a port's queues summed). */
void loss_sock_read_add(const struct loss_sock *src, struct loss_sock *sum);
/* sum += the counters of s (several queues of one port). */
void loss_sock_add(struct loss_sock *sum, const struct xskx_stats *s);

/*
 * One port (interface or simulated port) whose losses are counted, from
 * the moment loss_port_begin() took its baseline: the kernel's link and XDP
 * counters run since the device and the program exist.
 */
struct loss_port {
	const char *ifname;		   /* kernel backend */
	const struct xskx_sim_port *sim;   /* simulated NIC */
	bool native;			   /* kernel: XDP in native mode */
	bool have_xdp, have_dev;
	struct xskx_xdp_verdicts xdp0;
	struct xskx_netdev_stats dev0;
	const struct xskx_port *port;	   /* the library's, for no_socket */
	bool have_no_socket;
	uint64_t no_socket0[LOSS_QUEUES];
};

/*
 * Take the baseline. port: the library's port (for the XDP mode on the
 * kernel), once its sockets are open. A counter the kernel will not give (no program yet, an old
 * kernel) is left out of the sums rather than failing the run.
 */
void loss_port_begin(struct loss_port *p, const char *ifname,
		     const struct xskx_sim_port *sim,
		     const struct xskx_port *port);

/*
 * The port's losses since the baseline. sock: its sockets' counters summed;
 * app: what the program itself gave up of the packets received on it.
 * Syscalls on the kernel: a netlink query and a few bpf() calls.
 */
void loss_port_read(const struct loss_port *p, const struct loss_sock *sock,
		    uint64_t app, struct loss *l);

/*
 * The packets that arrived at a simulated port (from its source or the
 * wire), or 0 with false on the kernel, where only the sender knows.
 */
bool loss_port_offered(const struct loss_port *p, uint64_t *offered);

/*
 * "lost N (nic_rx A, xdp_passed B, ...)" with only the stages that moved:
 * counts, or with seconds > 0 per second over that interval; then, for a
 * port's losses, "; no socket on queue 2: B2, queue 3: B3" where packets
 * found none.
 */
void loss_print_text(FILE *f, const struct loss *l, double seconds);

/*
 * The line per second's: "lost R pps (stage R, ...), T pkts": the
 * interval's losses per second, then the total since the start.
 */
void loss_print_interval(FILE *f, const struct loss *interval,
			 const struct loss *total, double seconds);

/*
 * The member KEY: {"nic_rx": A, ..., "total": N, "no_socket": [{"queue": 2,
 * "packets": B2}, ...]} (json.h), no_socket listing the queues that have
 * any.
 */
struct json;
void loss_json(struct json *j, const char *key, const struct loss *l);

#endif /* XSKX_EXAMPLES_LOSS_H */
