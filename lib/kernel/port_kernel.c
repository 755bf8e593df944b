// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Opening a port on an interface: the kernel backend's constructor. The
 * device is named by the caller but known by its network namespace and
 * ifindex, which survive a rename; what the port reports is asked of the
 * kernel each time.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xskx/kernel.h>

#include "api.h"
#include "backend.h"
#include "filter_kernel.h"
#include "kernel_port.h"
#include "log_internal.h"
#include "netdev.h"
#include "rings/tx_meta.h"
#include "veth_peer.h"
#include "xdp_prog.h"
#include "xskmap_external.h"

/*
 * Say once, at open, what the info reports in peer_tx_csum: the cause of
 * "TCP and UDP do not pass, ping does" is invisible otherwise.
 */
static void log_veth_peer(const char *ifname)
{
	struct xskx_veth_peer peer;

	xskx__veth_peer_query(ifname, &peer);
	if (peer.tx_csum != XSKX_PEER_TX_CSUM_ON)
		return;
	xskx_info(
		"port %s: its veth peer %s (ifindex %u%s) offloads TX checksums: TCP and UDP packets its stack sends arrive with partial checksums; complete them with xskx_pkt_csum_complete() before sending them on (xskx-l2fwd and xskx-fw do), or run 'ethtool -K %s tx off' on the peer",
		ifname, peer.name, peer.ifindex,
		peer.other_netns ? " in another network namespace" : "",
		peer.name);
}

/* The calling thread's network namespace, as the kernel numbers it. */
static int netns_id(uint64_t *id)
{
	struct stat st;

	if (stat("/proc/thread-self/ns/net", &st))
		return xskx__fail(
			-errno,
			"port: reading /proc/thread-self/ns/net: %s (is /proc mounted?)",
			xskx_strerror(errno));
	*id = (uint64_t)st.st_dev << 32 ^ st.st_ino;
	return 0;
}

XSKX_API int xskx_port_open(struct xskx_port **portp, const char *ifname,
			    const struct xskx_port_opts *opts)
{
	struct xskx_device_id id;
	struct kernel_port *kp;
	struct xskx_netdev dev;
	struct xskx_port *port;
	int err;

	if (!portp || !ifname || !*ifname)
		return xskx__fail(
			-EINVAL,
			"xskx_port_open: port and ifname must be given");
	err = xskx__netdev_query(ifname, &dev);
	if (!err)
		err = netns_id(&id.space);
	if (err)
		return err;
	id.index = (uint64_t)dev.ifindex;
	kp = calloc(1, sizeof(*kp));
	if (!kp)
		return xskx__fail(-ENOMEM, "port: out of memory");
	kp->ifindex = dev.ifindex;
	kp->xskmap_fd = -1;
	err = xskx__port_new(&port, &xskx__backend_kernel, &id, dev.name, opts);
	if (err) {
		free(kp);
		return err;
	}
	if (xskx__xskmap_external_asked(&port->opts)) {
		err = xskx__xskmap_external_open(&port->opts, dev.name,
						 &kp->xskmap_fd,
						 &kp->xskmap_entries);
		if (err) {
			xskx__port_discard(port);
			free(kp);
			return err;
		}
		xskx_info(
			"port '%s': sockets go into an XSKMAP of %u entries that another program redirects with; xskx attaches no program",
			dev.name, kp->xskmap_entries);
	}
	port->backend = kp;
	*portp = port;
	log_veth_peer(dev.name);
	return 0;
}

void xskx__kernel_port_close(struct xskx_port *port)
{
	struct kernel_port *kp = xskx__kernel_port(port);

	if (kp->xskmap_fd >= 0)
		close(kp->xskmap_fd);
	free(port->backend);
	port->backend = NULL;
}

void xskx__kernel_port_info(const struct xskx_port *port,
			    struct xskx_port_info *info)
{
	struct kernel_port *kp = xskx__kernel_port(port);
	struct xskx_veth_peer peer;
	struct xskx_netdev dev;

	info->ifindex = (uint32_t)kp->ifindex;
	if (!xskx__netdev_query(port->name, &dev)) {
		info->rx_queues = dev.rx_queues;
		info->tx_queues = dev.tx_queues;
		info->zero_copy = xskx_netdev_zero_copy(&dev);
		/* The fields xskx documents; a newer kernel may report more. */
		info->rx_metadata = (uint32_t)dev.xdp_rx_metadata &
				    (XSKX_RX_META_TIMESTAMP |
				     XSKX_RX_META_HASH | XSKX_RX_META_VLAN_TAG);
		info->tx_metadata = (uint32_t)dev.xsk_features &
				    XSKX_TX_META_ALL;
	}
	xskx__veth_peer_query(port->name, &peer);
	info->peer_tx_csum = peer.tx_csum;
	info->peer_ifindex = peer.ifindex;
	info->xskmap_external = kp->xskmap_fd >= 0;
	info->xdp_attached = kp->xdp != NULL;
	if (kp->xdp)
		info->xdp_mode = xskx__xdp_mode_of(kp->xdp);
	if (kp->xdp && xskx__xdp_rx_meta_bound(kp->xdp))
		info->rx_meta_bound = info->rx_metadata;
}

int xskx__kernel_port_rx_no_socket(const struct xskx_port *port,
				   uint64_t *packets, uint32_t queues)
{
	struct kernel_port *kp = xskx__kernel_port(port);
	struct xskx_netdev dev;
	int err;

	if (!kp->xdp)
		return -ENOENT;
	err = xskx__netdev_query(port->name, &dev);
	if (err)
		return err;
	if (queues > dev.rx_queues)
		queues = dev.rx_queues;
	err = xskx__xdp_no_socket(kp->xdp, packets, queues);
	return err ? err : (int)dev.rx_queues;
}

int xskx__kernel_port_filter_begin(struct xskx_port *port,
				   struct xskx_filter_dev *dev)
{
	if (xskx__kernel_port(port)->xskmap_fd >= 0)
		return xskx__fail(
			-EOPNOTSUPP,
			"filter: port '%s' uses the XSKMAP of a program someone else attached, which has no xskx deny list: filter there (that program's maps), or in your code (xskx_pkt_parse())",
			port->name);
	return xskx__filter_kernel_begin(xskx__kernel_port(port)->xdp,
					 port->name, dev);
}
