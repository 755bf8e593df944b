// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The backend of a handed-over queue (xskx/handover.h): its one socket is the
 * AF_XDP socket an agent created, bound and put in its XSKMAP. Opening it
 * maps the four rings from that fd (XDP_MMAP_OFFSETS, then mmap at the
 * rings' page offsets), which the kernel allows any process holding the fd,
 * with or without capabilities; libxdp 1.3 cannot adopt a socket, so the
 * mapping is done here. Everything the agent decided (ring sizes, mode,
 * program, XSKMAP) is refused with a message rather than changed.
 */
#include <errno.h>
#include <linux/if_xdp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xskx/port.h>

#include "backend.h"
#include "handover.h"
#include "kernel_port.h"
#include "log_internal.h"
#include "socket_internal.h"
#include "tx_kick.h"

struct mapped_ring {
	void *map;
	size_t len;
};

/* The socket's state (sock->backend): the fd and the four mappings. */
struct adopted_socket {
	struct xskx_handover *ho;
	int fd;
	bool zero_copy;
	struct mapped_ring rx, tx, fill, comp;
};

static struct adopted_socket *as_of(const struct xskx_socket *s)
{
	return s->backend;
}

static struct xskx_handover *ho_of(const struct xskx_port *port)
{
	return port->backend;
}

/*
 * Map one ring of entries entries of entry bytes at page offset pgoff and
 * point the xsk_ring_* fields (cached_prod, cached_cons, mask, size,
 * producer, consumer, ring, flags: the same layout for both kinds) at it.
 * A producer's cached consumer runs one ring ahead (libxdp's convention,
 * which xskx/ring.h follows).
 */
static int map_ring(int fd, uint64_t pgoff, const struct xdp_ring_offset *off,
		    uint32_t entries, size_t entry, bool producer,
		    struct xsk_ring_cons *r, struct mapped_ring *m,
		    const char *name)
{
	size_t len = off->desc + (size_t)entries * entry;
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_POPULATE, fd, (off_t)pgoff);

	if (map == MAP_FAILED)
		return xskx__fail(
			-errno,
			"handover: mapping the %s ring (%u entries) of the handed-over socket: %s",
			name, entries, xskx_strerror(errno));
	m->map = map;
	m->len = len;
	r->mask = entries - 1;
	r->size = entries;
	r->producer = (uint32_t *)((char *)map + off->producer);
	r->consumer = (uint32_t *)((char *)map + off->consumer);
	r->ring = (char *)map + off->desc;
	r->flags = (uint32_t *)((char *)map + off->flags);
	r->cached_prod = __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
	r->cached_cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
	if (producer)
		r->cached_cons += entries;
	return 0;
}

static void unmap_ring(struct mapped_ring *m)
{
	if (m->map)
		munmap(m->map, m->len);
	m->map = NULL;
}

static void unmap_all(struct adopted_socket *as)
{
	unmap_ring(&as->rx);
	unmap_ring(&as->tx);
	unmap_ring(&as->fill);
	unmap_ring(&as->comp);
}

/*
 * What the caller's options ask that the agent decided otherwise: each is
 * refused, naming the agent's choice.
 */
static int check_request(const struct xskx_handover_msg *m,
			 const struct xskx_socket_opts *o)
{
	bool rx = !(o->flags & XSKX_SOCKET_NO_RX);
	bool tx = !(o->flags & XSKX_SOCKET_NO_TX);

	if (o->queue_id != m->queue_id)
		return xskx__fail(
			-EINVAL,
			"handover: queue %u asked, but the agent handed over queue %u of '%s'; open the socket on queue %u",
			o->queue_id, m->queue_id, m->ifname, m->queue_id);
	if ((rx && o->rx_size != m->rx_size) ||
	    (tx && o->tx_size != m->tx_size))
		return xskx__fail(
			-EINVAL,
			"handover: rx_size %u / tx_size %u asked, but the agent sized the rings %u / %u and a bound socket's rings cannot be re-sized; ask for those (0 is a ring the agent did not make)",
			rx ? o->rx_size : 0, tx ? o->tx_size : 0, m->rx_size,
			m->tx_size);
	if (o->copy_mode != XSKX_COPY_AUTO)
		return xskx__fail(
			-EINVAL,
			"handover: copy_mode cannot be chosen: the agent bound the socket (bind flags 0x%x); leave copy_mode at XSKX_COPY_AUTO",
			m->bind_flags);
	if (o->flags & XSKX_SOCKET_MULTI_BUFFER)
		return xskx__fail(
			-EINVAL,
			"handover: XSKX_SOCKET_MULTI_BUFFER cannot be chosen: the agent bound the socket without XDP_USE_SG");
	if (o->flags & XSKX_SOCKET_NO_WAKEUP &&
	    m->bind_flags & XDP_USE_NEED_WAKEUP)
		return xskx__fail(
			-EINVAL,
			"handover: XSKX_SOCKET_NO_WAKEUP cannot be chosen: the agent bound the socket with XDP_USE_NEED_WAKEUP");
	return 0;
}

static int read_zero_copy(int fd, bool *zero_copy)
{
	struct xdp_options options = { 0 };
	socklen_t len = sizeof(options);

	if (getsockopt(fd, SOL_XDP, XDP_OPTIONS, &options, &len))
		return xskx__fail(
			-errno,
			"handover: getsockopt XDP_OPTIONS on the handed-over socket: %s",
			xskx_strerror(errno));
	*zero_copy = options.flags & XDP_OPTIONS_ZEROCOPY;
	return 0;
}

static int map_rings(struct xskx_socket *s, struct adopted_socket *as,
		     const struct xskx_handover_msg *m)
{
	struct xdp_mmap_offsets off;
	socklen_t len = sizeof(off);
	int err = 0;

	if (getsockopt(as->fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &len))
		return xskx__fail(
			-errno,
			"handover: getsockopt XDP_MMAP_OFFSETS on the handed-over socket: %s",
			xskx_strerror(errno));
	if (!(s->flags & XSKX_SOCKET_NO_RX))
		err = map_ring(as->fd, XDP_PGOFF_RX_RING, &off.rx, m->rx_size,
			       sizeof(struct xdp_desc), false, &s->rx, &as->rx,
			       "RX");
	if (!err && !(s->flags & XSKX_SOCKET_NO_TX))
		err = map_ring(as->fd, XDP_PGOFF_TX_RING, &off.tx, m->tx_size,
			       sizeof(struct xdp_desc), true,
			       (struct xsk_ring_cons *)&s->tx, &as->tx, "TX");
	if (!err)
		err = map_ring(as->fd, XDP_UMEM_PGOFF_FILL_RING, &off.fr,
			       m->fill_size, sizeof(uint64_t), true,
			       (struct xsk_ring_cons *)&s->fq->fill, &as->fill,
			       "FILL");
	if (!err)
		err = map_ring(as->fd, XDP_UMEM_PGOFF_COMPLETION_RING, &off.cr,
			       m->comp_size, sizeof(uint64_t), false,
			       &s->fq->comp, &as->comp, "COMPLETION");
	return err;
}

/*
 * A socket that has been used leaves frames the new user's pool knows
 * nothing of on its rings: only a fresh one is taken.
 */
static int check_fresh(const struct xskx_socket *s,
		       const struct xskx_handover_msg *m)
{
	if (*s->fq->fill.producer == 0 && *s->fq->comp.producer == 0 &&
	    (!s->rx.ring || *s->rx.producer == 0) &&
	    (!s->tx.ring || *s->tx.producer == 0))
		return 0;
	return xskx__fail(
		-EBUSY,
		"handover: the socket of '%s' queue %u has been used before (its rings are not empty): its frames are unaccounted for; restart the agent or let it replace the socket",
		m->ifname, m->queue_id);
}

static int handover_open(struct xskx_socket *s,
			 const struct xskx_socket_opts *o)
{
	struct xskx_handover *ho = ho_of(s->port);
	struct adopted_socket *as;
	int err;

	if (ho->socket_open || ho->xsk_fd < 0)
		return xskx__fail(
			-EBUSY,
			"handover: the socket of '%s' queue %u %s; one socket per handover: receive another from the agent",
			ho->msg.ifname, ho->msg.queue_id,
			ho->socket_open ? "is open already" : "was closed");
	err = check_request(&ho->msg, o);
	if (err)
		return err;
	as = calloc(1, sizeof(*as));
	if (!as)
		return xskx__fail(-ENOMEM, "handover: out of memory");
	as->ho = ho;
	as->fd = ho->xsk_fd;
	err = read_zero_copy(as->fd, &as->zero_copy);
	if (!err)
		err = map_rings(s, as, &ho->msg);
	if (!err)
		err = check_fresh(s, &ho->msg);
	if (err) {
		unmap_all(as);
		free(as);
		return err;
	}
	s->bind_flags = (uint16_t)ho->msg.bind_flags;
	s->max_frags = 1;
	s->comp_clears_bit0 = !as->zero_copy;
	s->tx_meta_supported = 0;
	s->fq->backend = as;
	s->backend = as;
	ho->socket_open = true;
	xskx_info(
		"handover: socket of '%s' queue %u adopted: %s mode%s, frames %u-%u of the shared UMEM",
		ho->msg.ifname, ho->msg.queue_id,
		as->zero_copy ? "zero-copy" : "copy",
		s->bind_flags & XDP_USE_NEED_WAKEUP ? ", need_wakeup" : "",
		ho->msg.frame_first,
		ho->msg.frame_first + ho->msg.frame_count - 1);
	return 0;
}

static int handover_kick_rx(struct xskx_socket *s)
{
	if (recvfrom(as_of(s)->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL) < 0)
		return -errno;
	return 0;
}

static int handover_kick_tx(struct xskx_socket *s)
{
	return xskx__kernel_kick_tx_fd(s, as_of(s)->fd, as_of(s)->zero_copy);
}

static int handover_poll(struct xskx_socket *s, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = as_of(s)->fd, .events = events };
	int n = poll(&pfd, 1, timeout_ms);

	if (n < 0)
		return -errno;
	return n ? pfd.revents : 0;
}

static int handover_stats(struct xskx_socket *s, struct xdp_statistics *stats)
{
	socklen_t len = sizeof(*stats);

	memset(stats, 0, sizeof(*stats));
	if (getsockopt(as_of(s)->fd, SOL_XDP, XDP_STATISTICS, stats, &len))
		return xskx__fail(-errno,
				  "handover: getsockopt XDP_STATISTICS: %s",
				  xskx_strerror(errno));
	return 0;
}

static int handover_options(const struct xskx_socket *s,
			    struct xdp_options *options)
{
	socklen_t len = sizeof(*options);

	if (getsockopt(as_of(s)->fd, SOL_XDP, XDP_OPTIONS, options, &len))
		return xskx__fail(-errno,
				  "handover: getsockopt XDP_OPTIONS: %s",
				  xskx_strerror(errno));
	return 0;
}

static int64_t handover_frames_in_peer(const struct xskx_fq_cq *fq)
{
	(void)fq;
	return -1;
}

static int handover_fd(const struct xskx_socket *s)
{
	return as_of(s)->fd;
}

/*
 * The agent keeps the socket in its XSKMAP until this process hangs up, so
 * the kernel may still take frames from FILL and fill them: only what sits
 * on RX (produced, not consumed) is surely this process's again. The rest
 * stays counted as "nic", and the UMEM is never reported released.
 */
static bool handover_close(struct xskx_socket *s,
			   void (*give_back)(uint64_t addr, void *ctx),
			   void *ctx)
{
	struct adopted_socket *as = as_of(s);
	uint32_t end;

	if (s->rx.ring) {
		end = __atomic_load_n(s->rx.producer, __ATOMIC_ACQUIRE);
		for (uint32_t i = s->rx.cached_cons; i != end; i++)
			give_back(
				((struct xdp_desc *)s->rx.ring)[i & s->rx.mask]
					.addr,
				ctx);
	}
	unmap_all(as);
	close(as->fd);
	as->ho->xsk_fd = -1;
	as->ho->socket_open = false;
	free(as);
	s->backend = NULL;
	return false;
}

static void handover_port_close(struct xskx_port *port)
{
	port->backend = NULL;
}

static void handover_port_info(const struct xskx_port *port,
			       struct xskx_port_info *info)
{
	const struct xskx_handover *ho = ho_of(port);

	memcpy(info->name, ho->msg.ifname, sizeof(info->name));
	info->name[sizeof(info->name) - 1] = '\0';
	info->ifindex = ho->msg.ifindex;
	info->rx_queues = ho->msg.queue_id + 1;
	info->tx_queues = ho->msg.queue_id + 1;
}

static int handover_rx_no_socket(const struct xskx_port *port,
				 uint64_t *packets, uint32_t queues)
{
	(void)port;
	(void)packets;
	(void)queues;
	return -ENOENT;
}

/* No filter_begin: the deny list is the agent's program's, refused. */
const struct xskx_backend_ops xskx__backend_handover = {
	.name = "handover",
	.port_close = handover_port_close,
	.port_info = handover_port_info,
	.rx_no_socket = handover_rx_no_socket,
	.open = handover_open,
	.kick_rx = handover_kick_rx,
	.kick_tx = handover_kick_tx,
	.poll = handover_poll,
	.stats = handover_stats,
	.options = handover_options,
	.frames_in_peer = handover_frames_in_peer,
	.fd = handover_fd,
	.close = handover_close,
};
