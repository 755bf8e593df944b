// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Packets that arrived on an RX queue where no socket listens. RSS spreads
 * a NIC's traffic over all its queues; a program with sockets on some of
 * them sees part of the traffic, or none, and the kernel says nothing: the
 * packets go to the stack. xskx's XDP program (and the simulated NIC's)
 * counts them per queue; this reads the counts and says once, per port,
 * which queues they were and what to do about it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "port_no_socket.h"

/* Queues named in the message; the rest are summed as "and N more". */
#define NAMED_QUEUES 16

/* "2 (120 packets), 3 (7 packets)" for the queues that have any. */
static void name_queues(const uint64_t *packets, uint32_t n, char *buf,
			size_t size)
{
	uint32_t named = 0, more = 0;
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t q = 0; q < n; q++) {
		if (!packets[q])
			continue;
		if (named == NAMED_QUEUES) {
			more++;
			continue;
		}
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
					"%s%u (%llu packets)",
					named ? ", " : "", q,
					(unsigned long long)packets[q]);
		named++;
	}
	if (more && len < size)
		snprintf(buf + len, size - len, " and %u more", more);
}

static void warn_once(struct xskx_port *port, const uint64_t *packets,
		      uint32_t n)
{
	char queues[512];
	uint64_t total = 0;

	for (uint32_t q = 0; q < n; q++)
		total += packets[q];
	if (!total || __atomic_exchange_n(&port->no_socket_warned, true,
					  __ATOMIC_RELAXED))
		return;
	name_queues(packets, n, queues, sizeof(queues));
	xskx_warn(
		"'%s': packets arrived on RX queues where no xskx socket listens, and went to the kernel stack: queue %s. Open sockets on those queues, or send the traffic to yours: 'ethtool -L %s combined N' for fewer queues, 'ethtool -X %s equal N' to spread RSS over the first N only, 'ethtool -N %s flow-type ... action Q' to steer a flow to queue Q",
		port->name, queues, port->name, port->name, port->name);
}

/*
 * The port's counts into a buffer of its own size: the number of queues,
 * or a negative errno (not logged: info calls this too).
 */
static int read_counts(const struct xskx_port *port, uint64_t **packets)
{
	int n = port->ops->rx_no_socket(port, NULL, 0);

	if (n < 0)
		return n;
	*packets = calloc(n ? (size_t)n : 1, sizeof(**packets));
	if (!*packets)
		return -ENOMEM;
	n = port->ops->rx_no_socket(port, *packets, (uint32_t)n);
	if (n < 0)
		free(*packets);
	return n;
}

uint64_t xskx__port_no_socket_check(const struct xskx_port *port)
{
	uint64_t *packets, total = 0;
	int n = read_counts(port, &packets);

	if (n < 0)
		return 0;
	for (int q = 0; q < n; q++)
		total += packets[q];
	/* Logging state, not the port's value: info and close report too. */
	warn_once((struct xskx_port *)port, packets, (uint32_t)n);
	free(packets);
	return total;
}

XSKX_API int xskx_port_rx_no_socket(const struct xskx_port *port,
				    uint64_t *packets, uint32_t queues)
{
	int n;

	if (!port || (!packets && queues))
		return xskx__fail(
			-EINVAL,
			"xskx_port_rx_no_socket: port must not be NULL, nor packets with queues > 0");
	n = port->ops->rx_no_socket(port, packets, queues);
	if (n == -ENOENT)
		return xskx__fail(
			n,
			"xskx_port_rx_no_socket: '%s' has no XDP program of xskx's that counts them (open a socket with an RX ring first; a program given in opts.xdp_obj counts them only with xskx_count_no_socket() of bpf/xskx_maps.bpf.h)",
			port->name);
	if (n < 0)
		return xskx__fail(
			n,
			"xskx_port_rx_no_socket: reading the counts of '%s': %s",
			port->name, xskx_strerror(-n));
	xskx__port_no_socket_check(port);
	return n;
}
