/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A socket request checked against the interface, before any AF_XDP syscall. */
#ifndef XSKX_KERNEL_REQUEST_CHECK_H
#define XSKX_KERNEL_REQUEST_CHECK_H

#include <xskx/socket.h>

#include "netdev.h"

struct xskx_peer_umem;

/*
 * The errors the kernel's bind would give, with a message that names the
 * interface and the fix: -EINVAL (queue out of range, MTU larger than a
 * frame holds without multi-buffer), -EOPNOTSUPP
 * (zero-copy forced on a device known to have none).
 */
int xskx__kernel_check_request(const struct xskx_netdev *dev,
			       const struct xskx_socket_opts *opts,
			       const struct xskx_peer_umem *umem);

#endif /* XSKX_KERNEL_REQUEST_CHECK_H */
