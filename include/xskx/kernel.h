/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel backend's own knobs: how xskx's XDP program is attached, and
 * what it did with the packets.
 *
 * A socket opened with opts.ifname is a real AF_XDP socket. Its traffic
 * comes from xskx's XDP program (carried inside the library), which
 * drops what the deny list denies (xskx/filter.h), redirects each other
 * packet to the socket bound to the packet's RX queue and hands packets of
 * queues without a socket to the kernel stack. The
 * program is attached when the first socket with an RX ring opens on an
 * interface and detached when the last one closes. Several processes can
 * serve one interface, each on its own queues: a later process's sockets
 * join the program the first one attached (same program object, same
 * mode; otherwise -EBUSY says what differs), and the program is detached
 * when the last of them closes its last socket there. A queue serves one
 * process: opening another process's queue fails with -EBUSY naming that
 * process. A program whose processes all died (kill -9) is detected and
 * replaced by the next one.
 */
#ifndef XSKX_KERNEL_H
#define XSKX_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_socket;

/* opts.xdp_mode: where the XDP program runs. */
enum xskx_xdp_mode {
	/*
	 * In the driver (XDP_FLAGS_DRV_MODE). A driver without native XDP
	 * fails the open with -EOPNOTSUPP, unless opts.xdp_fallback allows
	 * generic mode instead (logged at warn).
	 */
	XSKX_XDP_NATIVE = 0,
	/* After the skb is built (XDP_FLAGS_SKB_MODE): any device, slower. */
	XSKX_XDP_GENERIC,
};

/*
 * The mode the socket's interface actually runs its XDP program in. Returns
 * 0, -ENOENT for a socket without an RX ring (it needs no program), or
 * -EOPNOTSUPP on the simulated NIC. No syscall.
 */
int xskx_socket_xdp_mode(const struct xskx_socket *sock,
			 enum xskx_xdp_mode *mode);

/* What XDP programs with xskx's counters did, summed over CPUs. */
struct xskx_xdp_verdicts {
	uint64_t redirected; /* handed to the queue's AF_XDP socket */
	uint64_t passed;     /* no socket on the queue: to the stack */
	uint64_t dropped;    /* dropped by the program (xskx's: deny list) */
	uint64_t redirect_failed; /* socket left between lookup and redirect */
};

/*
 * Read the verdict counters of the XDP programs on interface ifname that
 * carry xskx's counter map (xskx's own program, whichever process attached
 * it, and programs built on bpf/xskx_maps.bpf.h). A redirected packet can
 * still be dropped by the socket: see rx_ring_full and rx_dropped in
 * xskx_socket_stats(). Returns 0, -ENODEV (no such interface), -ENOENT (no
 * such program on it) or another negative errno. Syscalls: a netlink query
 * and a few bpf() calls; needs CAP_BPF or CAP_SYS_ADMIN.
 */
int xskx_xdp_prog_stats(const char *ifname, struct xskx_xdp_verdicts *verdicts);

/*
 * The interface's own packet counters, as the kernel keeps them for every
 * device (struct rtnl_link_stats64), since the device was created.
 */
struct xskx_netdev_stats {
	uint64_t rx_packets;
	uint64_t tx_packets;
	uint64_t rx_dropped; /* dropped by the driver or the stack */
	uint64_t rx_missed;  /* rx_missed_errors: the NIC had no buffer */
	uint64_t tx_dropped;
	/*
	 * The driver counts in rx_dropped every packet its native XDP program
	 * redirected where the redirect then failed, which includes each
	 * packet an AF_XDP socket counted in rx_dropped or rx_ring_full (veth
	 * does: drivers/net/veth.c). Only in native mode; generic XDP frees
	 * such packets uncounted.
	 */
	bool rx_dropped_has_redirect_errors;
};

/*
 * Read the counters of interface ifname. Returns 0, -ENODEV (no such
 * interface in this network namespace) or another negative errno. Syscalls:
 * one rtnetlink query (a socket opened and closed); no privilege needed.
 */
int xskx_netdev_stats(const char *ifname, struct xskx_netdev_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_KERNEL_H */
