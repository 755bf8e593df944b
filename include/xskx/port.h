/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Ports: one network interface, as this process uses it.
 *
 * A port is opened once per interface and process, from an interface name
 * (xskx_port_open(): the kernel backend, real AF_XDP sockets) or from a
 * simulated NIC's port (xskx_port_open_sim() of libxskx-sim, in
 * xskx-sim/sim.h). It owns what belongs to the interface rather than to
 * one queue: the XDP program that feeds the sockets (its attach mode and fallback, or your own program),
 * its XSKMAP and deny list (xskx/filter.h), busy polling. Sockets
 * (xskx/socket.h) are opened on one queue of a port; every socket on the
 * port shares these settings.
 *
 * On the kernel backend the port attaches its XDP program when its first
 * socket with an RX ring opens and leaves it when its last one closes.
 * Several processes can serve one interface, each on its own queues: a
 * later process's port joins the program an earlier one attached (the same
 * object, in a mode it accepts; otherwise -EBUSY says what differs and
 * whose the program is), the last process to leave detaches it, and a
 * program whose processes all died (kill -9) is replaced by the next one.
 * A queue serves one process: a socket on another process's queue is
 * refused with -EBUSY naming that process.
 */
#ifndef XSKX_PORT_H
#define XSKX_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/opts.h>
#include <xskx/rx_meta.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_port;

/* opts.xdp_mode: where the XDP program runs (kernel backend). */
enum xskx_xdp_mode {
	/*
	 * In the driver (XDP_FLAGS_DRV_MODE). A driver without native XDP
	 * fails the first receiving socket's open with -EOPNOTSUPP, unless
	 * opts.xdp_fallback allows generic mode instead (logged at warn).
	 */
	XSKX_XDP_NATIVE = 0,
	/* After the skb is built (XDP_FLAGS_SKB_MODE): any device, slower. */
	XSKX_XDP_GENERIC,
};

/* opts.flags */
/*
 * Busy polling: every socket of the port sets SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL (busy_poll_usec) and SO_BUSY_POLL_BUDGET (busy_poll_budget),
 * and the burst API kicks whenever a burst would wait, flags or not. On the
 * simulated NIC only the kicking applies.
 */
#define XSKX_PORT_BUSY_POLL (1u << 0)
/*
 * Leave copy-mode TX at the kernel's default of 32 descriptors per
 * sendto(). By default each socket with a TX ring asks for its whole ring
 * (XDP_MAX_TX_SKB_BUDGET, kernel 6.17+; an older kernel keeps 32, logged),
 * so that one kick sends a whole burst. The simulated NIC follows the
 * kernel either way.
 */
#define XSKX_PORT_KERNEL_TX_BUDGET (1u << 1)
/*
 * Apply the napi_* settings below to the NAPI instance of each receiving
 * socket's queue when the socket opens (netdev netlink napi-set, kernel
 * 6.13+; threaded 6.17+), and restore what was found when it closes.
 * Kernel backend only.
 */
#define XSKX_PORT_NAPI (1u << 2)
/*
 * RX metadata (xskx/rx_meta.h): xskx's XDP program puts a struct
 * xskx_rx_meta, filled from the device's RX metadata kfuncs, in front of
 * every packet it redirects, loaded device-bound where the device and mode
 * allow (native mode, a device with the kfuncs; otherwise a program
 * without the kfunc calls, valid 0, and the port logs why once); the
 * simulated NIC fills it from the simulated port. Not with xdp_obj (-EINVAL: your program fills what
 * it wants). Every process sharing the interface's program must ask the
 * same (-EBUSY otherwise). Read with xskx_pkt_rx_meta().
 */
#define XSKX_PORT_RX_METADATA (1u << 3)

/*
 * Use the XSKMAP in opts.xskmap_fd: see xskmap_fd below. Kernel backend
 * only.
 */
#define XSKX_PORT_XSKMAP_FD (1u << 4)

/*
 * Where the AF_XDP device plugin for Kubernetes puts, inside a pod, its
 * Unix socket (for opts.xskmap_uds) and its pinned XSKMAP (for
 * opts.xskmap_pin) for interface IF: XSKX_DEVICE_PLUGIN_DIR "/IF/afxdp.sock"
 * and XSKX_DEVICE_PLUGIN_DIR "/IF/xsks_map" (docs/CONTAINERS.md).
 */
#define XSKX_DEVICE_PLUGIN_DIR "/tmp/afxdp_dp"

/* opts.napi_threaded */
enum xskx_napi_threaded {
	XSKX_NAPI_THREADED_KEEP = 0,	/* as the queue's NAPI is */
	XSKX_NAPI_THREADED_ON,		/* polled by a kernel thread of its own */
	XSKX_NAPI_THREADED_OFF,		/* polled in softirq context */
};

struct xskx_port_opts {
	size_t sz;
	uint32_t flags; /* XSKX_PORT_* */
	/* Kernel backend only; the simulated NIC ignores them. */
	enum xskx_xdp_mode xdp_mode; /* where the XDP program runs */
	bool xdp_fallback; /* native unsupported: generic instead, logged */
	/*
	 * Your own XDP program instead of xskx's: a BPF ELF object in memory
	 * whose first program uses the maps of bpf/xskx_maps.bpf.h. The
	 * library manages it as its own (attach, XSKMAP, counters, detach).
	 * NULL: xskx's redirect program.
	 */
	const void *xdp_obj;
	size_t xdp_obj_size;
	/* With XSKX_PORT_BUSY_POLL: SO_BUSY_POLL (us; 0: 20) and budget (0: 64). */
	uint32_t busy_poll_usec;
	uint32_t busy_poll_budget;
	/* With XSKX_PORT_NAPI: the queue's NAPI settings (0: 0, as napi-set). */
	uint32_t napi_defer_hard_irqs;
	uint64_t napi_gro_flush_timeout_ns;
	uint64_t napi_irq_suspend_timeout_ns;
	enum xskx_napi_threaded napi_threaded;
	/*
	 * An XDP program someone else attached (a node agent, the AF_XDP
	 * device plugin): instead of loading and attaching xskx's, the port
	 * puts each receiving socket into the XSKMAP that program redirects
	 * with, at the socket's queue, and takes it out when the socket
	 * closes; it never attaches or detaches a program. The map comes as
	 * one of: a file descriptor (xskmap_fd, with XSKX_PORT_XSKMAP_FD; the
	 * port keeps a duplicate), the path of the map pinned in a bpffs
	 * (xskmap_pin), or the path of the device plugin's Unix socket
	 * (xskmap_uds: its handshake hands over the map). Needs CAP_NET_RAW
	 * for the sockets and nothing more on kernel 6.5+ (see
	 * docs/CONTAINERS.md). The deny list, RX metadata (XSKX_PORT_RX_METADATA,
	 * refused: -EINVAL), xdp_obj (refused), xdp_mode and xdp_fallback
	 * (ignored) belong to whoever attached the program:
	 * xskx_filter_set() and the like fail with -EOPNOTSUPP, and
	 * xskx_port_rx_no_socket() with -ENOENT.
	 */
	int xskmap_fd;
	const char *xskmap_pin;
	const char *xskmap_uds;
};
#define xskx_port_opts__last_field xskmap_uds

/*
 * Open the port of interface ifname (in the calling thread's network
 * namespace) on the kernel backend. Attaches nothing yet. Returns 0, or a
 * negative errno with a message naming the culprit: -ENODEV (no such
 * interface), -EINVAL (unknown flag or xdp_mode), -EBUSY (this process has
 * the interface open already: use that port).
 * Syscalls: a few netlink queries.
 */
int xskx_port_open(struct xskx_port **port, const char *ifname,
		   const struct xskx_port_opts *opts);

/*
 * Close a port whose sockets are all closed: -EBUSY, naming how many are
 * still open, otherwise. NULL is a no-op. Returns 0 or a negative errno.
 */
int xskx_port_close(struct xskx_port *port);

/*
 * Whether the peer of a veth offloads TX checksums (ethtool -k PEER:
 * tx-checksumming). When it does, TCP and UDP packets its stack sends
 * arrive with the checksum field holding only the pseudo-header sum
 * (CHECKSUM_PARTIAL), which XDP and AF_XDP pass on as they are: a program
 * that forwards them must complete them (xskx_pkt_csum_complete()) or the
 * receiver drops them. Packets the peer forwards, rather than sends, are
 * not affected.
 */
enum xskx_peer_tx_csum {
	XSKX_PEER_TX_CSUM_UNKNOWN = 0, /* no veth, or its peer out of sight */
	XSKX_PEER_TX_CSUM_OFF = 1,
	XSKX_PEER_TX_CSUM_ON = 2,
};

struct xskx_port_info {
	const char *backend; /* "kernel" or "sim" */
	char name[16];	     /* the interface's, or "sim" */
	uint32_t ifindex;    /* 0 on the simulated NIC */
	uint32_t rx_queues;
	uint32_t tx_queues;
	bool zero_copy;	   /* the driver advertises AF_XDP zero-copy */
	bool xdp_attached; /* the port's XDP program is on the interface */
	enum xskx_xdp_mode xdp_mode; /* where it runs, when attached */
	uint32_t sockets;	     /* open on the port */
	/*
	 * The RX metadata the device gives XDP programs through the kernel's
	 * kfuncs (bpf_xdp_metadata_rx_timestamp, _rx_hash, _rx_vlan_tag):
	 * XSKX_RX_META_* bits, as the kernel's netdev family reports them
	 * (6.3+; 0 where the kernel does not say). On the simulated NIC the
	 * timestamp and the hash, which it fills from the simulated port (it
	 * strips no VLAN tag).
	 */
	uint32_t rx_metadata;
	/*
	 * With XSKX_PORT_RX_METADATA, the XSKX_RX_META_* fields the port's
	 * program can deliver: on the kernel backend rx_metadata while the
	 * program is attached device-bound, 0 while it runs unbound (generic
	 * mode, or a device without the kfuncs) or is not attached; on the
	 * simulated NIC its rx_metadata. 0 without the flag.
	 */
	uint32_t rx_meta_bound;
	/*
	 * The TX metadata the driver honours for zero-copy sockets
	 * (XSKX_TX_META_*), as the netdev family's xsk-features says (6.8+;
	 * 0 where the kernel does not say). Copy-mode sockets get TIMESTAMP
	 * and CHECKSUM from the kernel whatever this says
	 * (xskx_socket_info's tx_metadata_supported). The simulated NIC:
	 * TIMESTAMP and CHECKSUM.
	 */
	uint32_t tx_metadata;
	/*
	 * The kernel backend on a veth: its peer's TX checksum offload, and
	 * the peer's ifindex in its own network namespace. Looking into
	 * another namespace takes CAP_SYS_ADMIN and a process or a
	 * /run/netns entry that holds it; otherwise UNKNOWN. UNKNOWN and 0 on
	 * other devices and on the simulated NIC, which sends complete
	 * checksums.
	 */
	enum xskx_peer_tx_csum peer_tx_csum;
	uint32_t peer_ifindex;
	/*
	 * Packets that arrived on RX queues where no socket listened, summed
	 * over the queues (xskx_port_rx_no_socket() has them per queue); 0
	 * where nothing counts them.
	 */
	uint64_t rx_no_socket;
	/*
	 * The port uses an XSKMAP someone else's program redirects with
	 * (opts.xskmap_fd, _pin or _uds): xdp_attached stays false, for the
	 * port attached nothing.
	 */
	bool xskmap_external;
};

/*
 * What the port is. The info structure may grow: the library fills
 * info_size bytes of it (older callers pass the smaller size they know) and
 * zeroes what it does not know. Use the xskx_port_info() macro, which
 * passes sizeof(*info). Returns 0 or -EINVAL (NULL arguments, info_size 0).
 */
int xskx_port_info_sized(const struct xskx_port *port,
			 struct xskx_port_info *info, size_t info_size);
#define xskx_port_info(port, info)                                             \
	xskx_port_info_sized((port), (info), sizeof(*(info)))

/*
 * Packets that arrived on RX queues where no xskx socket listened, and
 * went to the kernel stack: RSS spreads traffic over every queue of a NIC,
 * and a socket sees only its own queue's. packets[q] gets queue q's count
 * for q < queues; returns the port's RX queue count (which may be more than
 * queues: call again with a larger array), or a negative errno: -EINVAL
 * (NULL port, or NULL packets with queues > 0), -ENOENT (nothing counts
 * them: on the kernel backend, no socket with an RX ring is open on the
 * port, or your program (opts.xdp_obj) does not call
 * xskx_count_no_socket()). The first time any queue has a count, the
 * library logs at warn the queues and the fix (fewer queues with ethtool -L,
 * RSS spread over yours with ethtool -X, a flow steered with ethtool -N, or
 * sockets on those queues); xskx_port_info() and closing a receiving socket
 * check too, so a program that never asks is told.
 *
 * The kernel counts in xskx's XDP program (per CPU, summed here) since it
 * was attached, whichever process attached it; the simulated NIC in its
 * default XDP hook (and the deny list's), since the simulated port was
 * created. A hook of yours (xskx_sim_port_set_xdp()) counts nothing.
 * Syscalls on the kernel: a netlink query and one bpf() per queue.
 */
int xskx_port_rx_no_socket(const struct xskx_port *port, uint64_t *packets,
			   uint32_t queues);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_PORT_H */
