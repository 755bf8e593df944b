/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the kernel says about a network interface, asked over netlink
 * (libnl-route-3 for the link, libnl-genl-3 for the ethtool and netdev
 * families), in the calling thread's network namespace.
 */
#ifndef XSKX_KERNEL_NETDEV_H
#define XSKX_KERNEL_NETDEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

/* NETDEV_XDP_ACT_XSK_ZEROCOPY of the netdev family (uapi linux/netdev.h, 6.3+). */
#define XSKX_NETDEV_XDP_ACT_XSK_ZEROCOPY (1ull << 3)

struct xskx_netdev {
	int ifindex;
	char name[IF_NAMESIZE];
	uint32_t mtu;
	bool up;      /* administratively up (IFF_UP) */
	bool running; /* operationally up (IFF_RUNNING) */
	/*
	 * Queues a socket can bind to: the active channels where the driver
	 * reports them through ethtool, else the queues the device has.
	 */
	uint32_t rx_queues;
	uint32_t tx_queues;
	/* false on kernels without the netdev family: features unknown. */
	bool xdp_features_known;
	uint64_t xdp_features; /* NETDEV_XDP_ACT_* bits */
	/*
	 * Buffers of one multi-buffer packet the driver takes in zero-copy
	 * mode (xdp_zc_max_segs); 0 when the kernel does not say (before 6.6).
	 */
	uint32_t zc_max_segs;
	/* NETDEV_XDP_RX_METADATA_* bits (6.3+); 0 when the kernel does not say. */
	uint64_t xdp_rx_metadata;
	/*
	 * The TX metadata a zero-copy socket gets (NETDEV_XSK_FLAGS_TX_*,
	 * 6.8+, the values of XDP_TXMD_FLAGS_*); 0 when the kernel does not say.
	 */
	uint64_t xsk_features;
};

/*
 * Look the interface up. Returns 0, -ENODEV (logged, naming ifname) when
 * there is no such interface, or another negative errno (logged). Opens,
 * uses and closes two netlink sockets.
 */
int xskx__netdev_query(const char *ifname, struct xskx_netdev *dev);

/*
 * Buffers of one multi-buffer packet a copy-mode socket may send: the
 * kernel builds an skb of one linear part and net.core.max_skb_frags
 * fragments (18 with the default of 17, which is also the value when the
 * sysctl cannot be read).
 */
uint32_t xskx__copy_max_frags(void);

/* True when the device is known to do AF_XDP zero-copy. */
static inline bool xskx_netdev_zero_copy(const struct xskx_netdev *dev)
{
	return dev->xdp_features_known &&
	       (dev->xdp_features & XSKX_NETDEV_XDP_ACT_XSK_ZEROCOPY);
}

/*
 * True when the device can do zero-copy or may (features unknown): the
 * kernel's bind answers for sure.
 */
static inline bool xskx_netdev_may_zero_copy(const struct xskx_netdev *dev)
{
	return !dev->xdp_features_known || xskx_netdev_zero_copy(dev);
}

/*
 * False when the device is known to take one buffer per packet in
 * zero-copy mode (xdp_zc_max_segs 1: virtio_net on 7.3, for one), where
 * the kernel refuses XDP_USE_SG with XDP_ZEROCOPY; true when it takes
 * more or does not say.
 */
static inline bool
xskx_netdev_zero_copy_multi_buffer(const struct xskx_netdev *dev)
{
	return dev->zc_max_segs != 1;
}

#endif /* XSKX_KERNEL_NETDEV_H */
