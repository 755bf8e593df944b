// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Ports: the core's half. The process's ports are listed so that a second
 * port on the same device is refused: everything per interface (the XDP
 * program, its XSKMAP, the deny list) must have exactly one owner in the
 * process.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "backend.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "port_internal.h"
#include "port_no_socket.h"

#define XSKX_PORT_ALL_FLAGS                                                    \
	(XSKX_PORT_BUSY_POLL | XSKX_PORT_KERNEL_TX_BUDGET | XSKX_PORT_NAPI |  \
	 XSKX_PORT_RX_METADATA | XSKX_PORT_XSKMAP_FD)

static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xskx_port *ports; /* published and being made */

/*
 * An XSKMAP of someone else's program: one way of giving it, and nothing
 * that only xskx's own program can do.
 */
static int check_external_xskmap(const struct xskx_port_opts *o)
{
	int ways = !!(o->flags & XSKX_PORT_XSKMAP_FD) + !!o->xskmap_pin +
		   !!o->xskmap_uds;

	if (!ways)
		return 0;
	if (ways > 1)
		return xskx__fail(
			-EINVAL,
			"port: give the XSKMAP one way: XSKX_PORT_XSKMAP_FD with xskmap_fd, xskmap_pin or xskmap_uds");
	if ((o->flags & XSKX_PORT_XSKMAP_FD) && o->xskmap_fd < 0)
		return xskx__fail(-EBADF, "port: xskmap_fd %d is not a file descriptor",
				  o->xskmap_fd);
	if (o->xdp_obj || (o->flags & XSKX_PORT_RX_METADATA))
		return xskx__fail(
			-EINVAL,
			"port: %s needs xskx's own XDP program, and an XSKMAP given in xskmap_fd, _pin or _uds belongs to a program someone else attached: drop one of the two",
			o->xdp_obj ? "xdp_obj" : "XSKX_PORT_RX_METADATA");
	return 0;
}

static int check_opts(const struct xskx_port_opts *o)
{
	if (o->flags & ~XSKX_PORT_ALL_FLAGS)
		return xskx__fail(-EINVAL, "port: unknown flags 0x%x",
				  o->flags & ~XSKX_PORT_ALL_FLAGS);
	if (o->xdp_mode != XSKX_XDP_NATIVE && o->xdp_mode != XSKX_XDP_GENERIC)
		return xskx__fail(
			-EINVAL,
			"port: xdp_mode %d unknown: use XSKX_XDP_NATIVE or XSKX_XDP_GENERIC",
			(int)o->xdp_mode);
	if (o->napi_threaded > XSKX_NAPI_THREADED_OFF)
		return xskx__fail(
			-EINVAL,
			"port: napi_threaded %d unknown: use XSKX_NAPI_THREADED_KEEP, _ON or _OFF",
			(int)o->napi_threaded);
	if (o->napi_defer_hard_irqs > INT32_MAX)
		return xskx__fail(
			-EINVAL,
			"port: napi_defer_hard_irqs %u is above the kernel's limit of %d",
			o->napi_defer_hard_irqs, INT32_MAX);
	if (!o->xdp_obj != !o->xdp_obj_size)
		return xskx__fail(
			-EINVAL,
			"port: xdp_obj and xdp_obj_size go together: give both, or neither for xskx's own program");
	if ((o->flags & XSKX_PORT_RX_METADATA) && o->xdp_obj)
		return xskx__fail(
			-EINVAL,
			"port: XSKX_PORT_RX_METADATA has xskx's own XDP program fill the RX metadata; with xdp_obj your program puts what it wants in front of the data (xskx_pkt_meta()): drop one of the two");
	return check_external_xskmap(o);
}

static struct xskx_port *find_port(const struct xskx_device_id *id)
{
	for (struct xskx_port *p = ports; p; p = p->next)
		if (p->id.space == id->space && p->id.index == id->index)
			return p;
	return NULL;
}

XSKX_BACKEND_API int xskx__port_new(struct xskx_port **portp,
				    const struct xskx_backend_ops *ops,
				    const struct xskx_device_id *id,
				    const char *name,
				    const struct xskx_port_opts *opts)
{
	struct xskx_port *port = calloc(1, sizeof(*port));
	int err;

	if (!port)
		return xskx__fail(-ENOMEM, "port: out of memory");
	err = XSKX_OPTS_COPY(&port->opts, opts, xskx_port_opts);
	if (!err)
		err = check_opts(&port->opts);
	if (err) {
		free(port);
		return err;
	}
	port->ops = ops;
	port->id = *id;
	snprintf(port->name, sizeof(port->name), "%s", name);

	pthread_mutex_lock(&ports_lock);
	if (find_port(id)) {
		pthread_mutex_unlock(&ports_lock);
		free(port);
		return xskx__fail(
			-EBUSY,
			"port: '%s' is open in this process already; open its sockets on that port",
			name);
	}
	port->next = ports;
	ports = port;
	pthread_mutex_unlock(&ports_lock);
	*portp = port;
	return 0;
}

XSKX_BACKEND_API void xskx__port_discard(struct xskx_port *port)
{
	pthread_mutex_lock(&ports_lock);
	for (struct xskx_port **p = &ports; *p; p = &(*p)->next)
		if (*p == port) {
			*p = port->next;
			break;
		}
	pthread_mutex_unlock(&ports_lock);
	free(port);
}

XSKX_API int xskx_port_close(struct xskx_port *port)
{
	if (!port)
		return 0;
	if (port->sockets)
		return xskx__fail(
			-EBUSY,
			"port '%s' still has %u open socket%s: close them first",
			port->name, port->sockets,
			port->sockets == 1 ? "" : "s");
	port->ops->port_close(port);
	xskx__port_discard(port);
	return 0;
}

XSKX_API int xskx_port_info_sized(const struct xskx_port *port,
				  struct xskx_port_info *info, size_t info_size)
{
	struct xskx_port_info full = { 0 };

	if (!port || !info || !info_size)
		return xskx__fail(
			-EINVAL,
			"xskx_port_info: port and info must not be NULL, info_size not 0");
	full.backend = port->ops->name;
	memcpy(full.name, port->name, sizeof(full.name));
	full.sockets = port->sockets;
	port->ops->port_info(port, &full);
	full.rx_no_socket = xskx__port_no_socket_check(port);
	xskx__out_copy(info, info_size, &full, sizeof(full));
	return 0;
}
