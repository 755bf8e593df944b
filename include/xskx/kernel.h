/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel backend's own reports: what XDP programs did with the packets,
 * and the interface's counters. Ports (xskx/port.h) attach the program;
 * these read any interface, whichever process attached it.
 */
#ifndef XSKX_KERNEL_H
#define XSKX_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/port.h>

#ifdef __cplusplus
extern "C" {
#endif

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
int xskx_xdp_prog_stats_sized(const char *ifname,
			      struct xskx_xdp_verdicts *verdicts,
			      size_t verdicts_size);
/* Sized as xskx_socket_stats() is (xskx/socket.h). */
#define xskx_xdp_prog_stats(ifname, verdicts)                                  \
	xskx_xdp_prog_stats_sized((ifname), (verdicts), sizeof(*(verdicts)))

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
int xskx_netdev_stats_sized(const char *ifname, struct xskx_netdev_stats *stats,
			    size_t stats_size);
/* Sized as xskx_socket_stats() is (xskx/socket.h). */
#define xskx_netdev_stats(ifname, stats)                                       \
	xskx_netdev_stats_sized((ifname), (stats), sizeof(*(stats)))

#ifdef __cplusplus
}
#endif

#endif /* XSKX_KERNEL_H */
