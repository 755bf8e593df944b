// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The simulated NIC as a peer: the same steps libxdp takes with a kernel
 * socket (socket, UMEM registration, ring sizes, mmap, bind), against the
 * syscall-shaped API of lib/sim/sim_xsk.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xskx-sim/sim.h>

#include "api.h"
#include "backend.h"
#include "filter_sim.h"
#include "log_internal.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_port.h"
#include "sim_wakeup.h"
#include "sim_xsk.h"
#include "socket_internal.h"
#include "tx_budget.h"

static struct sim_xsk *sim_of(const struct xskx_socket *s)
{
	return s->backend;
}

/* A port's backend state is the simulated port itself. */
static struct xskx_sim_port *sim_port_of(const struct xskx_port *port)
{
	return port->backend;
}

static int sim_error(int err, const char *what, const struct xskx_socket_opts *o)
{
	return xskx__fail(err, "sim port queue %u: %s: %s", o->queue_id, what,
			  xskx__last_reason());
}

static void map_prod(struct sim_xsk *x, int which, struct xsk_ring_prod *r)
{
	struct sim_ring_map m;

	xskx__sim_xsk_map_ring(x, which, &m);
	*r = (struct xsk_ring_prod){
		.cached_prod = *m.producer,
		/* libxdp's convention: the cached consumer runs one ring ahead. */
		.cached_cons = *m.consumer + m.entries,
		.mask = m.entries - 1,
		.size = m.entries,
		.producer = m.producer,
		.consumer = m.consumer,
		.ring = m.desc,
		.flags = m.flags,
	};
}

static void map_cons(struct sim_xsk *x, int which, struct xsk_ring_cons *r)
{
	struct sim_ring_map m;

	xskx__sim_xsk_map_ring(x, which, &m);
	*r = (struct xsk_ring_cons){
		.cached_prod = *m.producer,
		.cached_cons = *m.consumer,
		.mask = m.entries - 1,
		.size = m.entries,
		.producer = m.producer,
		.consumer = m.consumer,
		.ring = m.desc,
		.flags = m.flags,
	};
}

static int set_rings(struct sim_xsk *x, struct xskx_socket *s,
		     const struct xskx_socket_opts *o)
{
	const struct xskx_peer_umem *umem = s->peer_umem;
	int err = 0;

	if (!s->fq->users) {
		err = xskx__sim_xsk_set_ring(x, XDP_UMEM_FILL_RING, umem->fill_size);
		if (!err)
			err = xskx__sim_xsk_set_ring(x, XDP_UMEM_COMPLETION_RING, umem->comp_size);
		if (err)
			return sim_error(err, "FILL/COMPLETION ring", o);
	}
	if (!(o->flags & XSKX_SOCKET_NO_RX)) {
		err = xskx__sim_xsk_set_ring(x, XDP_RX_RING, o->rx_size);
		if (err)
			return sim_error(err, "RX ring", o);
	}
	if (!(o->flags & XSKX_SOCKET_NO_TX)) {
		err = xskx__sim_xsk_set_ring(x, XDP_TX_RING, o->tx_size);
		if (err)
			return sim_error(err, "TX ring", o);
	}
	return 0;
}

static void map_rings(struct sim_xsk *x, struct xskx_socket *s,
		      const struct xskx_socket_opts *o)
{
	if (!s->fq->users) {
		map_prod(x, XDP_UMEM_FILL_RING, &s->fq->fill);
		map_cons(x, XDP_UMEM_COMPLETION_RING, &s->fq->comp);
		s->fq->backend = x;
	}
	if (!(o->flags & XSKX_SOCKET_NO_RX))
		map_cons(x, XDP_RX_RING, &s->rx);
	if (!(o->flags & XSKX_SOCKET_NO_TX))
		map_prod(x, XDP_TX_RING, &s->tx);
}

/*
 * The TX metadata the simulated device honours in both modes: it computes
 * checksums and stamps completions (sim_tx_meta.c); no launch time.
 */
#define SIM_TX_META (XSKX_TX_META_TIMESTAMP | XSKX_TX_META_CHECKSUM)

static int sim_open(struct xskx_socket *s, const struct xskx_socket_opts *o)
{
	const struct xskx_peer_umem *umem = s->peer_umem;
	struct sim_xsk *sharer = s->share_with;
	struct sim_xsk *x;
	uint16_t flags;
	int err;

	struct xskx_sim_port *port = sim_port_of(s->port);

	err = xskx__sim_xsk_socket(xskx__sim_xsk_port_machine(port), &x);
	if (err)
		return sim_error(err, "socket", o);
	if (!sharer) {
		struct sim_umem_reg reg = {
			.addr = (uint64_t)(uintptr_t)umem->area,
			.len = umem->size,
			.chunk_size = umem->frame_size,
			.headroom = umem->headroom,
			.flags = (umem->unaligned ?
					  XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0) |
				 (umem->tx_metadata_len ?
					  XDP_UMEM_TX_METADATA_LEN : 0) |
				 (umem->tx_sw_csum ? XDP_UMEM_TX_SW_CSUM : 0),
			.tx_metadata_len = umem->tx_metadata_len,
		};

		err = xskx__sim_xsk_umem_reg(x, &reg);
		if (err) {
			err = sim_error(err, "UMEM registration", o);
			goto err_close;
		}
	}
	err = set_rings(x, s, o);
	if (err)
		goto err_close;

	/* A socket sharing the UMEM inherits the owner's mode flags. */
	flags = sharer ? XDP_SHARED_UMEM : xskx__socket_bind_flags(o);
	err = xskx__sim_xsk_bind(x, port, o->queue_id, flags, sharer);
	if (err) {
		err = sim_error(err, "bind", o);
		goto err_close;
	}
	/* As on the kernel: the whole TX ring per copy-mode sendto. */
	if (xskx__tx_budget_wanted(&s->port->opts, o)) {
		err = xskx__sim_xsk_set_tx_budget(
			x, xskx__tx_budget_wanted(&s->port->opts, o));
		if (err) {
			err = sim_error(err, "XDP_MAX_TX_SKB_BUDGET", o);
			goto err_close;
		}
	}
	err = xskx__filter_sim_hold(port, o->queue_id,
				    !(o->flags & XSKX_SOCKET_NO_RX));
	if (err)
		goto err_close;
	/* A sharer's mode is the first socket's: the core sets it. */
	s->bind_flags = flags;
	s->max_frags = xskx__sim_xsk_tx_max_frags(x);
	s->tx_meta_supported = SIM_TX_META;
	map_rings(x, s, o);
	s->backend = x;
	return 0;

err_close:
	xskx__sim_xsk_close(x, NULL, NULL);
	return err;
}

static int sim_kick_rx(struct xskx_socket *s)
{
	return xskx__sim_xsk_recvfrom(sim_of(s));
}

static int sim_kick_tx(struct xskx_socket *s)
{
	return xskx__sim_xsk_sendto(sim_of(s));
}

static int sim_poll(struct xskx_socket *s, short events, int timeout_ms)
{
	return xskx__sim_xsk_poll(sim_of(s), events, timeout_ms);
}

static int sim_stats(struct xskx_socket *s, struct xdp_statistics *stats)
{
	return xskx__sim_xsk_get_stats(sim_of(s), stats);
}

static int sim_options(const struct xskx_socket *s, struct xdp_options *options)
{
	return xskx__sim_xsk_get_options(sim_of(s), options);
}

static int64_t sim_frames_in_peer(const struct xskx_fq_cq *fq)
{
	return xskx__sim_xsk_frames_in_nic(fq->backend);
}

static int sim_fd(const struct xskx_socket *s)
{
	(void)s;
	return -EOPNOTSUPP;
}

/*
 * The simulated NIC hands back every frame it held as the socket closes:
 * nothing is left for the core to take back.
 */
static bool sim_close(struct xskx_socket *s,
		      void (*give_back)(uint64_t addr, void *ctx), void *ctx)
{
	/* Out of the deny list's hook first, as out of an XSKMAP. */
	xskx__filter_sim_put(sim_port_of(s->port), s->queue_id,
			     !(s->flags & XSKX_SOCKET_NO_RX));
	xskx__sim_xsk_close(sim_of(s), give_back, ctx);
	return false;
}

static void sim_port_close(struct xskx_port *port)
{
	struct xskx_sim_port *sp = sim_port_of(port);

	xskx__sim_lock(sp->sim);
	sp->rx_meta = false;
	sp->lib_port = false;
	xskx__sim_unlock(sp->sim);
	port->backend = NULL;
}

static void sim_port_info(const struct xskx_port *port,
			  struct xskx_port_info *info)
{
	const struct xskx_sim_port *sp = sim_port_of(port);

	info->rx_queues = sp->nqueues;
	info->tx_queues = sp->nqueues;
	info->zero_copy = !sp->no_zero_copy;
	info->rx_metadata = XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH;
	if (port->opts.flags & XSKX_PORT_RX_METADATA)
		info->rx_meta_bound = info->rx_metadata;
	info->tx_metadata = SIM_TX_META;
}

static int sim_rx_no_socket(const struct xskx_port *port, uint64_t *packets,
			    uint32_t queues)
{
	const struct xskx_sim_port *sp = sim_port_of(port);

	for (uint32_t q = 0; q < queues && q < sp->nqueues; q++)
		packets[q] = sim_counter(&sp->queues[q].no_socket);
	return (int)sp->nqueues;
}

static const struct xskx_backend_ops backend_sim = {
	.name = "sim",
	.port_close = sim_port_close,
	.port_info = sim_port_info,
	.rx_no_socket = sim_rx_no_socket,
	.open = sim_open,
	.kick_rx = sim_kick_rx,
	.kick_tx = sim_kick_tx,
	.poll = sim_poll,
	.stats = sim_stats,
	.options = sim_options,
	.frames_in_peer = sim_frames_in_peer,
	.fd = sim_fd,
	.close = sim_close,
	/* No umem_release: the registration ends with the UMEM's last socket. */
	.filter_begin = xskx__filter_sim_begin,
};

/*
 * xskx's program fills the RX metadata: not with a hook of the caller's in
 * its place, whose metadata (or none) would sit where the struct goes.
 */
static int claim_rx_meta(struct xskx_sim_port *sp)
{
	bool hooked;

	xskx__sim_lock(sp->sim);
	hooked = sp->xdp || sp->xdp_buff;
	if (!hooked)
		sp->rx_meta = true;
	xskx__sim_unlock(sp->sim);
	if (hooked)
		return xskx__fail(
			-EINVAL,
			"port: XSKX_PORT_RX_METADATA has xskx's program fill the RX metadata, but '%s' runs an XDP hook of yours (xskx_sim_port_set_xdp/_buff): remove it, or open the port without the flag",
			sp->name ? sp->name : "sim");
	return 0;
}

XSKX_API int xskx_port_open_sim(struct xskx_port **portp,
				struct xskx_sim_port *sim_port,
				const struct xskx_port_opts *opts)
{
	struct xskx_device_id id = { .index = (uint64_t)(uintptr_t)sim_port };
	int err;

	if (!portp || !sim_port)
		return xskx__fail(-EINVAL,
				  "xskx_port_open_sim: port and sim_port must not be NULL");
	err = xskx__port_new(portp, &backend_sim, &id,
			     sim_port->name ? sim_port->name : "sim", opts);
	if (err)
		return err;
	if ((*portp)->opts.flags & XSKX_PORT_NAPI) {
		xskx__port_discard(*portp);
		*portp = NULL;
		return xskx__fail(
			-EINVAL,
			"port: XSKX_PORT_NAPI sets a kernel queue's NAPI instance; the simulated NIC has none to set");
	}
	if (((*portp)->opts.flags & XSKX_PORT_XSKMAP_FD) ||
	    (*portp)->opts.xskmap_pin || (*portp)->opts.xskmap_uds) {
		xskx__port_discard(*portp);
		*portp = NULL;
		return xskx__fail(
			-EINVAL,
			"port: xskmap_fd, _pin and _uds name a kernel XSKMAP; the simulated NIC runs its own XDP hook");
	}
	if ((*portp)->opts.flags & XSKX_PORT_RX_METADATA) {
		err = claim_rx_meta(sim_port);
		if (err) {
			xskx__port_discard(*portp);
			*portp = NULL;
			return err;
		}
	}
	/* The machine is not destroyed under the port (xskx_sim_destroy()). */
	xskx__sim_lock(sim_port->sim);
	sim_port->lib_port = true;
	xskx__sim_unlock(sim_port->sim);
	(*portp)->backend = sim_port;
	return 0;
}
