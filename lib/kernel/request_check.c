// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>

#include "backend.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "request_check.h"

static int check_queue(const struct xskx_netdev *dev,
		       const struct xskx_socket_opts *o)
{
	bool rx = !(o->flags & XSKX_SOCKET_NO_RX);
	bool tx = !(o->flags & XSKX_SOCKET_NO_TX);

	/* The kernel's bind checks each ring's direction on its own. */
	if (rx && o->queue_id >= dev->rx_queues)
		return xskx__fail(
			-EINVAL,
			"queue %u is out of range: '%s' has %u RX queue%s (0..%u)",
			o->queue_id, dev->name, dev->rx_queues,
			dev->rx_queues == 1 ? "" : "s",
			dev->rx_queues ? dev->rx_queues - 1 : 0);
	if (tx && o->queue_id >= dev->tx_queues)
		return xskx__fail(
			-EINVAL,
			"queue %u is out of range: '%s' has %u TX queue%s (0..%u)",
			o->queue_id, dev->name, dev->tx_queues,
			dev->tx_queues == 1 ? "" : "s",
			dev->tx_queues ? dev->tx_queues - 1 : 0);
	return 0;
}

static int check_frame(const struct xskx_netdev *dev,
		       const struct xskx_socket_opts *o,
		       const struct xskx_peer_umem *umem)
{
	uint32_t max_mtu = xskx_frame_max_mtu(umem->frame_size, umem->headroom);

	/* Multi-buffer packets span frames: any MTU fits. */
	if (o->flags & XSKX_SOCKET_MULTI_BUFFER)
		return 0;
	if (dev->mtu > max_mtu)
		return xskx__fail(
			-EINVAL,
			"MTU %u of '%s' is larger than a frame of %u bytes holds (MTU %u at most with headroom %u): use XSKX_SOCKET_MULTI_BUFFER, or lower the MTU",
			dev->mtu, dev->name, umem->frame_size, max_mtu,
			umem->headroom);
	return 0;
}

static int check_zero_copy(const struct xskx_netdev *dev,
			   const struct xskx_socket_opts *o)
{
	if (o->copy_mode != XSKX_ZEROCOPY_FORCE)
		return 0;
	if (!xskx_netdev_may_zero_copy(dev))
		return xskx__fail(
			-EOPNOTSUPP,
			"'%s' has no AF_XDP zero-copy support (its driver does not advertise it): use copy_mode XSKX_COPY_AUTO or XSKX_COPY_FORCE",
			dev->name);
	/* The kernel answers such a bind EOPNOTSUPP too (xp_assign_dev()). */
	if ((o->flags & XSKX_SOCKET_MULTI_BUFFER) &&
	    !xskx_netdev_zero_copy_multi_buffer(dev))
		return xskx__fail(
			-EOPNOTSUPP,
			"'%s' has AF_XDP zero-copy but not for multi-buffer (its driver's xdp_zc_max_segs is 1): open the socket without XSKX_SOCKET_MULTI_BUFFER, or in copy mode (copy_mode XSKX_COPY_AUTO or XSKX_COPY_FORCE)",
			dev->name);
	return 0;
}

int xskx__kernel_check_request(const struct xskx_netdev *dev,
			       const struct xskx_socket_opts *o,
			       const struct xskx_peer_umem *umem)
{
	int err = check_queue(dev, o);

	if (!err)
		err = check_frame(dev, o, umem);
	if (!err)
		err = check_zero_copy(dev, o);
	if (!err && !dev->up)
		xskx_warn(
			"'%s' is down: the socket binds, but no packet moves until the link is up",
			dev->name);
	else if (!err && !dev->running)
		xskx_warn(
			"'%s' has no carrier: the socket binds, but no packet moves until it has",
			dev->name);
	return err;
}
