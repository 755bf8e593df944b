// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Ports: their queues, the wire between two of them, the XDP hook and the
 * sink, faults, counters, and the way a packet arrives at one (RSS picks
 * the queue). The way it leaves one is the wire's (sim_wire.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "sim_capture_write.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_napi.h"
#include "sim_port.h"
#include "sim_ring.h"
#include "sim_rss.h"
#include "sim_source.h"
#include "sim_wire.h"

#define SIM_MAX_QUEUES 256
#define SIM_MIN_MTU 68
#define SIM_MAX_MTU 65535

struct xskx_sim *xskx__sim_xsk_port_machine(const struct xskx_sim_port *port)
{
	return port ? port->sim : NULL;
}

static uint32_t or_default(uint32_t value, uint32_t def)
{
	return value ? value : def;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Fill port from opts (defaults applied), or fail naming the field. */
static int port_settings(struct xskx_sim_port *port,
			 const struct xskx_sim_port_opts *o)
{
	port->nqueues = or_default(o->queues, 1);
	port->mtu = or_default(o->mtu, 1500);
	port->hw_ring_size = or_default(o->hw_ring_size, 2048);
	port->hw_tx_ring_size = or_default(o->hw_tx_ring_size, 256);
	port->napi_budget = or_default(o->napi_budget, 64);
	/* Defaults shrink to fit small rings; chosen values must fit. */
	port->refill_batch =
		or_default(o->refill_batch, min_u32(32, port->hw_ring_size));
	port->max_frags = or_default(
		o->max_frags, min_u32(18, min_u32(port->hw_ring_size,
						  port->hw_tx_ring_size)));
	port->rx_full_policy = o->rx_full_policy;
	port->no_zero_copy = o->no_zero_copy;

	if (port->nqueues > SIM_MAX_QUEUES)
		return xskx__fail(-EINVAL, "port %s: queues %u is more than %u",
				  port->name, port->nqueues, SIM_MAX_QUEUES);
	if (port->mtu < SIM_MIN_MTU || port->mtu > SIM_MAX_MTU)
		return xskx__fail(-EINVAL, "port %s: mtu %u is outside [%u, %u]",
				  port->name, port->mtu, SIM_MIN_MTU,
				  SIM_MAX_MTU);
	if (port->hw_ring_size > XSKX_SIM_MAX_HW_RING ||
	    port->hw_tx_ring_size > XSKX_SIM_MAX_HW_RING)
		return xskx__fail(
			-EINVAL,
			"port %s: hw_ring_size %u / hw_tx_ring_size %u: at most XSKX_SIM_MAX_HW_RING (%u) descriptors",
			port->name, port->hw_ring_size, port->hw_tx_ring_size,
			XSKX_SIM_MAX_HW_RING);
	if (port->refill_batch > port->hw_ring_size)
		return xskx__fail(
			-EINVAL,
			"port %s: refill_batch %u is larger than hw_ring_size %u, so the ring would never be refilled",
			port->name, port->refill_batch, port->hw_ring_size);
	if (port->max_frags > SIM_MAX_FRAGS ||
	    port->max_frags > port->hw_ring_size ||
	    port->max_frags > port->hw_tx_ring_size)
		return xskx__fail(
			-EINVAL,
			"port %s: max_frags %u must not exceed %u, hw_ring_size (%u) or hw_tx_ring_size (%u)",
			port->name, port->max_frags, SIM_MAX_FRAGS,
			port->hw_ring_size, port->hw_tx_ring_size);
	if (port->rx_full_policy != XSKX_SIM_RX_FULL_STOP &&
	    port->rx_full_policy != XSKX_SIM_RX_FULL_DROP)
		return xskx__fail(
			-EINVAL,
			"port %s: rx_full_policy %d is neither XSKX_SIM_RX_FULL_STOP nor XSKX_SIM_RX_FULL_DROP",
			port->name, (int)port->rx_full_policy);
	return 0;
}

static int port_alloc(struct xskx_sim_port *port)
{
	uint32_t frags = port->max_frags > SIM_COPY_MAX_FRAGS ?
				 port->max_frags :
				 SIM_COPY_MAX_FRAGS;
	uint8_t *buf;

	/* The largest packet: a full chain of page-sized chunks. */
	port->scratch_size = frags * (uint32_t)sysconf(_SC_PAGESIZE);
	buf = malloc(XSKX_XDP_PACKET_HEADROOM + port->scratch_size);
	port->scratch = buf ? buf + XSKX_XDP_PACKET_HEADROOM : NULL;
	/* Aligned for the kick word's cache line. */
	if (!port->scratch ||
	    posix_memalign((void **)&port->queues, SIM_CACHE_LINE,
			   port->nqueues * sizeof(*port->queues))) {
		port->queues = NULL;
		return -ENOMEM;
	}
	memset(port->queues, 0, port->nqueues * sizeof(*port->queues));
	for (uint32_t i = 0; i < port->nqueues; i++) {
		struct sim_queue *q = &port->queues[i];

		q->port = port;
		q->index = i;
		q->hw_size = port->hw_ring_size;
		q->hw = calloc(q->hw_size, sizeof(*q->hw));
		q->spare = calloc(q->hw_size, sizeof(*q->spare));
		if (!q->hw || !q->spare)
			return -ENOMEM;
	}
	return 0;
}

void xskx__sim_port_destroy(struct xskx_sim_port *port)
{
	if (port->queues)
		for (uint32_t i = 0; i < port->nqueues; i++) {
			free(port->queues[i].hw);
			free(port->queues[i].spare);
		}
	xskx__sim_sources_free(port);
	xskx__sim_capture_drop(port);
	free(port->queues);
	if (port->scratch)
		free(port->scratch - XSKX_XDP_PACKET_HEADROOM);
	free(port->name);
	free(port);
}

/*
 * A packet arrives from the wire, or is injected; false when it was
 * dropped. The port's receive (sim_internal.h): the wire's other end calls
 * it through the pointer.
 */
static bool port_receive(struct xskx_sim_port *port, const struct sim_pkt *pkt)
{
	const struct sim_seg *first = &pkt->segs[0];

	/* A down link takes nothing; a frame over the MTU is dropped, as veth does. */
	if (xskx__sim_port_link_down(port) || pkt->len > port->mtu + XSKX_L2_OVERHEAD)
		return false;
	return xskx__sim_queue_receive(
		&port->queues[xskx__sim_rss_queue(first->data, first->len,
						  port->nqueues)],
		pkt);
}

XSKX_API int xskx_sim_port_create(struct xskx_sim *sim,
				  const struct xskx_sim_port_opts *opts,
				  struct xskx_sim_port **portp)
{
	struct xskx_sim_port_opts o;
	struct xskx_sim_port *port;
	char name[32];
	int err;

	if (!sim || !portp)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_create: sim and port must not be NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_sim_port_opts);
	if (err)
		return err;
	port = calloc(1, sizeof(*port));
	if (!port)
		return -ENOMEM;
	xskx__sim_lock(sim);
	snprintf(name, sizeof(name), "sim%u", sim->nports);
	port->sim = sim;
	port->receive = port_receive;
	port->name = strdup(o.name ? o.name : name);
	err = port->name ? port_settings(port, &o) : -ENOMEM;
	if (!err)
		err = port_alloc(port);
	if (err) {
		xskx__sim_unlock(sim);
		xskx__sim_port_destroy(port);
		return err;
	}
	/* Appended, so that rounds visit ports in creation order. */
	for (struct xskx_sim_port **p = &sim->ports;; p = &(*p)->next)
		if (!*p) {
			*p = port;
			break;
		}
	sim->nports++;
	xskx__sim_unlock(sim);
	*portp = port;
	return 0;
}

XSKX_API int xskx_sim_wire(struct xskx_sim_port *a, struct xskx_sim_port *b)
{
	int err = 0;

	if (!a || !b || a == b || a->sim != b->sim)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_wire: needs two different ports of one machine");
	xskx__sim_lock(a->sim);
	if (a->peer || b->peer)
		err = xskx__fail(-EBUSY,
				 "xskx_sim_wire: port %s already has a wire",
				 a->peer ? a->name : b->name);
	else if (a->capture || b->capture)
		err = xskx__fail(
			-EBUSY,
			"xskx_sim_wire: port %s writes a capture of what it sends, which a wire would take; close it first (xskx_sim_port_capture_close)",
			a->capture ? a->name : b->name);
	else {
		a->peer = b;
		b->peer = a;
	}
	xskx__sim_unlock(a->sim);
	return err;
}

/* A port has one XDP hook, of either kind: setting one clears the other. */
static int set_xdp_hook(struct xskx_sim_port *port, const char *caller,
			xskx_sim_xdp_fn fn, xskx_sim_xdp_buff_fn buff_fn,
			void *ctx, bool yours)
{
	if (!port)
		return xskx__fail(-EINVAL, "%s: port is NULL", caller);
	xskx__sim_lock(port->sim);
	if ((fn || buff_fn) && port->rx_meta) {
		xskx__sim_unlock(port->sim);
		return xskx__fail(
			-EBUSY,
			"%s: port '%s' is open with XSKX_PORT_RX_METADATA, which has xskx's program fill every packet's RX metadata: close that port, or open it without the flag",
			caller, port->name ? port->name : "sim");
	}
	port->xdp = fn;
	port->xdp_buff = buff_fn;
	port->xdp_ctx = ctx;
	port->xdp_yours = yours;
	xskx__sim_unlock(port->sim);
	return 0;
}

XSKX_API int xskx_sim_port_set_xdp(struct xskx_sim_port *port,
				   xskx_sim_xdp_fn fn, void *ctx)
{
	return set_xdp_hook(port, __func__, fn, NULL, ctx, fn != NULL);
}

int xskx__sim_port_set_xskx_xdp(struct xskx_sim_port *port,
				xskx_sim_xdp_fn fn, void *ctx)
{
	return set_xdp_hook(port, __func__, fn, NULL, ctx, false);
}

XSKX_API int xskx_sim_port_set_xdp_buff(struct xskx_sim_port *port,
					xskx_sim_xdp_buff_fn fn, void *ctx)
{
	return set_xdp_hook(port, __func__, NULL, fn, ctx, fn != NULL);
}

XSKX_API int xskx_sim_port_set_sink(struct xskx_sim_port *port,
				    xskx_sim_sink_fn fn, void *ctx)
{
	if (!port)
		return xskx__fail(-EINVAL,
				  "xskx_sim_port_set_sink: port is NULL");
	xskx__sim_lock(port->sim);
	port->sink = fn;
	port->sink_ctx = ctx;
	xskx__sim_unlock(port->sim);
	return 0;
}

XSKX_API int xskx_sim_port_set_faults(struct xskx_sim_port *port,
				      const struct xskx_sim_faults *faults)
{
	if (!port || !faults)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_set_faults: port and faults must not be NULL");
	if (faults->wakeup_error > 0 || faults->wakeup_error <= -4096)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_set_faults: wakeup_error %d is not a negative errno (e.g. -ENXIO), nor 0 for none",
			faults->wakeup_error);
	xskx__sim_lock(port->sim);
	__atomic_store_n(&port->tx_stalled, faults->tx_stalled,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&port->link_down, faults->link_down, __ATOMIC_RELAXED);
	__atomic_store_n(&port->wakeup_error, faults->wakeup_error,
			 __ATOMIC_RELAXED);
	xskx__sim_unlock(port->sim);
	return 0;
}

static int sim_port_stats_full(const struct xskx_sim_port *port,
			       struct xskx_sim_port_stats *stats)
{
	const uint64_t *from;
	uint64_t *to = (uint64_t *)stats;

	if (!port || !stats)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_stats: port and stats must not be NULL");
	from = (const uint64_t *)&port->stats;
	for (size_t i = 0; i < sizeof(*stats) / sizeof(uint64_t); i++)
		to[i] = sim_counter(&from[i]);
	return 0;
}

XSKX_API int xskx_sim_port_inject(struct xskx_sim_port *port, const void *data,
				  uint32_t len)
{
	struct sim_seg seg = { data, len };
	struct sim_pkt pkt = { &seg, 1, len };
	int err = 0;

	if (!port || !data)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_inject: port and data must not be NULL");
	if (xskx__sim_thread_running(port->sim))
		return xskx__fail(
			-EBUSY,
			"xskx_sim_port_inject: port %s: the NIC thread runs; inject in deterministic mode or add a source",
			port->name);
	if (len < XSKX_ETH_HLEN || len > port->mtu + XSKX_L2_OVERHEAD)
		return xskx__fail(
			len < XSKX_ETH_HLEN ? -EINVAL : -EMSGSIZE,
			"xskx_sim_port_inject: port %s: a %u-byte frame is outside [%u, MTU %u + %u]",
			port->name, len, XSKX_ETH_HLEN, port->mtu,
			XSKX_L2_OVERHEAD);
	xskx__sim_lock(port->sim);
	if (xskx__sim_port_link_down(port))
		err = xskx__fail(-ENETDOWN,
				 "xskx_sim_port_inject: port %s: link is down",
				 port->name);
	/* A drop the NIC counts, as a wire's would be: no message. */
	else if (!port_receive(port, &pkt))
		err = -ENOBUFS;
	xskx__sim_unlock(port->sim);
	return err;
}

XSKX_API int xskx_sim_port_stats_sized(const struct xskx_sim_port *port,
				       struct xskx_sim_port_stats *stats,
				       size_t stats_size)
{
	struct xskx_sim_port_stats full;
	int err;

	if (!stats || !stats_size)
		return xskx__fail(
			-EINVAL,
			"xskx_sim_port_stats: stats must not be NULL, stats_size not 0");
	err = sim_port_stats_full(port, &full);
	if (!err)
		xskx__out_copy(stats, stats_size, &full, sizeof(full));
	return err;
}
