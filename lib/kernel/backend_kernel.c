// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel backend: a real AF_XDP socket, created through libxdp with
 * xskx's own XDP program (never libxdp's default one) feeding it.
 *
 * open: interface facts (netdev.c) -> request checked (request_check.c)
 *       -> UMEM registered by the first socket on it (xsk_umem__create)
 *       -> program attached, or joined when another process attached it
 *       (xdp_prog.c, xdp_share.c) -> socket bound
 *       (xsk_socket__create_shared), retrying a queue still being torn
 *       down, a queue another process serves refused naming it, zero-copy
 *       falling back to copy in auto mode -> XSKMAP slot.
 * close: XSKMAP slot emptied, frames the kernel will not hand back given
 *       to the pool, socket deleted, program left with the process's last
 *       socket on the interface (detached when no other process uses it),
 *       UMEM unregistered with the last socket on it.
 *
 * libxdp's UMEM socket is the UMEM's first socket too: it stays bound
 * while the UMEM lives, which is why the UMEM is unregistered as soon as
 * its last socket closes rather than when the UMEM is destroyed.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <xdp/xsk.h>
#include <xskx/kernel.h>

#include "api.h"
#include "backend.h"
#include "kernel_port.h"
#include "kernel_rules.h"
#include "libxdp_log.h"
#include "log_internal.h"
#include "napi.h"
#include "netdev.h"
#include "owner.h"
#include "privilege.h"
#include "request_check.h"
#include "sleep_ms.h"
#include "socket_internal.h"
#include "tx_budget.h"
#include "tx_kick.h"
#include "rings/tx_meta.h"
#include "umem_tx_metadata.h"
#include "xdp_prog.h"

/* EBUSY right after a teardown: retry with doubling sleeps, 1 + ... + 128 ms. */
#define BIND_BUSY_RETRIES 8
#define BUSY_POLL_DEFAULT_USEC 20
#define BUSY_POLL_DEFAULT_BUDGET 64

/* The UMEM's registration: libxdp's xsk_umem and the sockets on it. */
struct kernel_umem {
	struct xsk_umem *xumem;
	uint32_t sockets;
	uint16_t bind_flags; /* the first socket's: sharers inherit them */
	/*
	 * The first socket runs on libxdp's UMEM socket, which stays bound to
	 * its queue after that socket closes, until the UMEM is unregistered.
	 */
	bool first_queue_held;
	char held_ifname[IF_NAMESIZE];
	uint32_t held_queue;
};

struct kernel_socket {
	struct xsk_socket *xsk;
	int fd;
	struct kernel_umem *kumem;
	struct xskx_xdp_attachment *xdp; /* NULL without an RX ring */
	/* In the XSKMAP of someone else's program (kernel_port.xskmap_fd). */
	bool in_external_xskmap;
	bool zero_copy;
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint32_t rx_queues;    /* the device's, to find the queue's NAPI */
	struct xskx_napi napi; /* the queue's NAPI, when settings were applied */
};

static struct kernel_socket *ks_of(const struct xskx_socket *s)
{
	return s->backend;
}

static int register_umem(struct xskx_socket *s)
{
	struct xskx_peer_umem *umem = s->peer_umem;
	struct xsk_umem_config cfg = {
		.fill_size = umem->fill_size,
		.comp_size = umem->comp_size,
		.frame_size = umem->frame_size,
		.frame_headroom = umem->headroom,
		.flags = umem->unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0,
	};
	struct kernel_umem *kumem;
	int err;

	if (umem->registration)
		return 0;
	err = xskx__privilege_socket();
	if (!err)
		err = xskx__privilege_memlock(umem->size);
	if (err)
		return err;
	kumem = calloc(1, sizeof(*kumem));
	if (!kumem)
		return xskx__fail(-ENOMEM, "out of memory");
	err = xsk_umem__create(&kumem->xumem, umem->area, umem->size,
			       &s->fq->fill, &s->fq->comp, &cfg);
	if (!err && umem->tx_metadata_len) {
		err = xskx__umem_register_tx_metadata(kumem->xumem, umem,
						      &s->fq->fill,
						      &s->fq->comp);
		if (err) {
			xsk_umem__delete(kumem->xumem);
			free(kumem);
			return err;
		}
	}
	if (err) {
		free(kumem);
		if (err == -EPERM || err == -EACCES)
			return xskx__fail(
				-EPERM,
				"AF_XDP sockets need CAP_NET_RAW, which this process lacks: grant it (a container's securityContext capabilities: add NET_RAW), or run as root");
		return xskx__fail(
			err,
			"registering the UMEM with the kernel (XDP_UMEM_REG): %s%s",
			xskx_strerror(-err), xskx__privilege_memlock_hint(err));
	}
	umem->registration = kumem;
	return 0;
}

/*
 * After a failed first socket, or the last socket's close. Returns true when
 * the UMEM was unregistered: the kernel holds none of its frames any more.
 */
static bool unregister_umem_if_unused(struct xskx_peer_umem *umem)
{
	struct kernel_umem *kumem = umem->registration;

	if (!kumem || kumem->sockets)
		return false;
	xsk_umem__delete(kumem->xumem);
	free(kumem);
	umem->registration = NULL;
	return true;
}

/*
 * The bind found queue taken by a socket of a living xskx process that
 * serves it through the program this socket joined: say whose.
 */
static int queue_held(uint32_t queue, const char *ifname,
		      const struct xskx_prog_owner *holder)
{
	char who[64];

	if (xskx__owner_is_self(holder))
		return xskx__fail(
			-EBUSY,
			"queue %u of '%s' is bound by another AF_XDP socket of this process, on another UMEM: close that socket first, or open this one on its UMEM",
			queue, ifname);
	xskx__owner_name(holder, who, sizeof(who));
	return xskx__fail(
		-EBUSY,
		"queue %u of '%s' is bound by an AF_XDP socket of %s: a queue serves one process; open this socket on another queue, or stop that process",
		queue, ifname, who);
}

/*
 * One bind, retried while the queue is busy: a socket torn down a moment ago
 * may still hold it until the kernel's deferred release has run.
 */
static int create_socket(struct xskx_socket *s,
			 const struct xskx_socket_opts *o, uint16_t bind_flags,
			 struct kernel_socket *ks)
{
	struct xsk_socket_config cfg = {
		.rx_size = o->rx_size,
		.tx_size = o->tx_size,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = bind_flags,
	};
	struct kernel_umem *kumem = s->peer_umem->registration;
	struct xskx_prog_owner holder;
	unsigned int waited_ms = 0;
	int err;

	for (int attempt = 0;; attempt++) {
		err = xsk_socket__create_shared(
			&ks->xsk, ks->ifname, o->queue_id, kumem->xumem,
			(o->flags & XSKX_SOCKET_NO_RX) ? NULL : &s->rx,
			(o->flags & XSKX_SOCKET_NO_TX) ? NULL : &s->tx,
			&s->fq->fill, &s->fq->comp, &cfg);
		if (err != -EBUSY || attempt == BIND_BUSY_RETRIES)
			break;
		/* A living process's socket is not going away. */
		if (!attempt && ks->xdp &&
		    !xskx__xdp_queue_holder(ks->xdp, o->queue_id, &holder))
			return queue_held(o->queue_id, ks->ifname, &holder);
		xskx__sleep_ms(1u << attempt);
		waited_ms += 1u << attempt;
	}
	if (err == -EBUSY)
		return xskx__fail(
			-EBUSY,
			"queue %u of '%s' is busy: another AF_XDP socket is bound to it, or one is still being torn down (retried for %u ms)",
			o->queue_id, ks->ifname, waited_ms);
	return err;
}

static int bind_failed(const struct xskx_socket_opts *o, const char *ifname,
		       uint16_t flags, int err)
{
	if (err == -EOPNOTSUPP && (flags & XDP_ZEROCOPY))
		return xskx__fail(
			err,
			"'%s' refused a zero-copy bind: its driver has no AF_XDP zero-copy support; use copy_mode XSKX_COPY_AUTO or XSKX_COPY_FORCE",
			ifname);
	if (err == -EOPNOTSUPP && (flags & XDP_USE_SG))
		return xskx__fail(
			err,
			"'%s' refused multi-buffer (XDP_USE_SG) in this mode",
			ifname);
	if (err == -EPERM || err == -EACCES)
		return xskx__fail(
			-EPERM,
			"AF_XDP sockets need CAP_NET_RAW (run as root)");
	if (err == -EBUSY)
		return err; /* create_socket() said whose the queue is */
	return xskx__fail(err,
			  "binding an AF_XDP socket to queue %u of '%s': %s",
			  o->queue_id, ifname, xskx_strerror(-err));
}

/*
 * Bind, choosing the copy mode: auto tries zero-copy where the device may
 * have it and falls back to copy, saying why.
 */
static int bind_socket(struct xskx_socket *s, const struct xskx_socket_opts *o,
		       const struct xskx_netdev *dev, struct kernel_socket *ks)
{
	struct kernel_umem *kumem = s->peer_umem->registration;
	uint16_t flags = xskx__socket_bind_flags(o);
	int err;

	/* Sharers bind with XDP_SHARED_UMEM alone and inherit the owner's mode. */
	if (kumem->sockets) {
		err = create_socket(s, o, 0, ks);
		if (err)
			return bind_failed(o, ks->ifname, kumem->bind_flags, err);
		s->bind_flags = kumem->bind_flags;
		return 0;
	}
	if (o->copy_mode == XSKX_COPY_AUTO) {
		if (xskx_netdev_may_zero_copy(dev) &&
		    (o->flags & XSKX_SOCKET_MULTI_BUFFER) &&
		    !xskx_netdev_zero_copy_multi_buffer(dev)) {
			xskx_info(
				"'%s' has no multi-buffer in zero-copy mode (xdp_zc_max_segs 1): using copy mode",
				ks->ifname);
		} else if (xskx_netdev_may_zero_copy(dev)) {
			err = create_socket(s, o, flags | XDP_ZEROCOPY, ks);
			if (!err) {
				s->bind_flags = flags | XDP_ZEROCOPY;
				return 0;
			}
			if (err != -EOPNOTSUPP && err != -EINVAL)
				return bind_failed(o, ks->ifname,
						   flags | XDP_ZEROCOPY, err);
			xskx_info(
				"'%s' queue %u: zero-copy bind failed (%s): using copy mode",
				ks->ifname, o->queue_id, xskx_strerror(-err));
		} else {
			xskx_info(
				"'%s' has no AF_XDP zero-copy support (driver's XDP features): using copy mode",
				ks->ifname);
		}
		flags |= XDP_COPY;
	}
	err = create_socket(s, o, flags, ks);
	if (err)
		return bind_failed(o, ks->ifname, flags, err);
	s->bind_flags = flags;
	return 0;
}

static int set_int_opt(int fd, int name, const char *what, int value)
{
	if (setsockopt(fd, SOL_SOCKET, name, &value, sizeof(value)))
		return xskx__fail(
			-errno, "busy polling: setsockopt %s = %d: %s%s", what,
			value, xskx_strerror(errno),
			errno == EPERM ? " (needs CAP_NET_ADMIN)" : "");
	return 0;
}

static int set_busy_poll(int fd, const struct xskx_port_opts *o)
{
	int usec = o->busy_poll_usec ? (int)o->busy_poll_usec :
				       BUSY_POLL_DEFAULT_USEC;
	int budget = o->busy_poll_budget ? (int)o->busy_poll_budget :
					   BUSY_POLL_DEFAULT_BUDGET;
	int err;

	err = set_int_opt(fd, SO_PREFER_BUSY_POLL, "SO_PREFER_BUSY_POLL", 1);
	if (!err)
		err = set_int_opt(fd, SO_BUSY_POLL, "SO_BUSY_POLL", usec);
	if (!err)
		err = set_int_opt(fd, SO_BUSY_POLL_BUDGET,
				  "SO_BUSY_POLL_BUDGET", budget);
	return err;
}

static int read_zero_copy(int fd, bool *zero_copy)
{
	struct xdp_options options;
	socklen_t len = sizeof(options);

	if (getsockopt(fd, SOL_XDP, XDP_OPTIONS, &options, &len))
		return xskx__fail(-errno, "getsockopt XDP_OPTIONS: %s",
				  xskx_strerror(errno));
	*zero_copy = options.flags & XDP_OPTIONS_ZEROCOPY;
	return 0;
}

/*
 * The kernel's limit on the descriptors of one TX packet: the driver's
 * xdp_zc_max_segs in zero-copy mode (1 where it does not say), one skb's
 * buffers in copy mode (xsk_build_skb).
 */
static uint32_t max_frags(const struct xskx_socket *s,
			  const struct xskx_netdev *dev, bool zero_copy)
{
	if (!(s->bind_flags & XDP_USE_SG))
		return 1;
	if (zero_copy)
		return dev->zc_max_segs ? dev->zc_max_segs : 1;
	return xskx__copy_max_frags();
}

/*
 * Raise the copy-mode sendto() budget (lib/tx_budget.h). A kernel before
 * 6.17 does not know the option: it keeps sending 32 per sendto(), and
 * kernel_kick_tx() calls it as often as that needs.
 */
static int set_tx_budget(struct kernel_socket *ks,
			 const struct xskx_port_opts *po,
			 const struct xskx_socket_opts *o)
{
	uint32_t budget = xskx__tx_budget_wanted(po, o);

	if (!budget || ks->zero_copy)
		return 0;
	if (setsockopt(ks->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &budget,
		       sizeof(budget))) {
		if (errno == ENOPROTOOPT) {
			xskx_info(
				"'%s': this kernel has no XDP_MAX_TX_SKB_BUDGET (6.17+): copy-mode TX sends 32 descriptors per sendto()",
				ks->ifname);
			return 0;
		}
		return xskx__fail(
			-errno,
			"setsockopt XDP_MAX_TX_SKB_BUDGET = %u (the TX ring's size) on '%s': %s",
			budget, ks->ifname, xskx_strerror(errno));
	}
	return 0;
}

/* The port's NAPI settings for the socket's queue (XSKX_PORT_NAPI). */
static void napi_wanted(const struct xskx_port_opts *po,
			struct xskx_napi_settings *want)
{
	*want = (struct xskx_napi_settings){
		.defer_hard_irqs = po->napi_defer_hard_irqs,
		.gro_flush_timeout_ns = po->napi_gro_flush_timeout_ns,
		.irq_suspend_timeout_ns = po->napi_irq_suspend_timeout_ns,
		.threaded = po->napi_threaded == XSKX_NAPI_THREADED_ON	? 1 :
			    po->napi_threaded == XSKX_NAPI_THREADED_OFF ? 0 :
									  -1,
	};
}

/* The queue's NAPI settings (lib/napi_settings.h), restored on close. */
static int apply_napi(struct kernel_socket *ks, const struct xskx_netdev *dev,
		      const struct xskx_port_opts *po,
		      const struct xskx_socket_opts *o)
{
	struct xskx_napi_settings want;
	int err;

	if ((o->flags & XSKX_SOCKET_NO_RX) || !(po->flags & XSKX_PORT_NAPI))
		return 0;
	napi_wanted(po, &want);
	err = xskx__napi_find(dev->ifindex, o->queue_id, dev->rx_queues,
			      &ks->napi);
	if (err == -ENOENT)
		return xskx__fail(
			err,
			"NAPI settings: queue %u of '%s' has no NAPI instance (veth has one only with a native XDP program: use xdp_mode XSKX_XDP_NATIVE)",
			o->queue_id, dev->name);
	if (err)
		return xskx__fail(
			err,
			"NAPI settings: finding the NAPI of queue %u of '%s' (netdev netlink queue-get/napi-get, kernel 6.8+): %s",
			o->queue_id, dev->name, xskx_strerror(-err));
	err = xskx__napi_apply(&ks->napi, &want);
	if (err)
		return err;
	xskx_info(
		"'%s' queue %u: NAPI %u set to defer_hard_irqs %u, gro_flush_timeout %llu ns, irq_suspend_timeout %llu ns, threaded %d (restored on close)",
		dev->name, o->queue_id, ks->napi.id, want.defer_hard_irqs,
		(unsigned long long)want.gro_flush_timeout_ns,
		(unsigned long long)want.irq_suspend_timeout_ns, want.threaded);
	return 0;
}

static int attach_program(const struct xskx_netdev *dev,
			  const struct xskx_socket_opts *o,
			  const struct xskx_port_opts *po,
			  struct kernel_socket *ks)
{
	struct xskx_xdp_request req = {
		.mode = po->xdp_mode,
		.fallback = po->xdp_fallback,
		.frags = o->flags & XSKX_SOCKET_MULTI_BUFFER,
		.rx_meta = po->flags & XSKX_PORT_RX_METADATA,
		.obj = po->xdp_obj,
		.obj_size = po->xdp_obj_size,
	};

	int err;

	/* Nothing is redirected to a socket that cannot receive. */
	if (o->flags & XSKX_SOCKET_NO_RX)
		return 0;
	err = xskx__privilege_attach(dev->name);
	return err ? err : xskx__xdp_acquire(dev, &req, &ks->xdp);
}

/*
 * A receiving socket on a port with someone else's XSKMAP takes its queue's
 * slot there; the kernel redirects to it from then on.
 */
static int add_to_external_xskmap(const struct kernel_port *kp,
				  const struct xskx_netdev *dev, uint32_t queue,
				  struct kernel_socket *ks)
{
	if (bpf_map_update_elem(kp->xskmap_fd, &queue, &ks->fd, BPF_ANY)) {
		int err = -errno;

		return xskx__fail(
			err,
			"adding the socket of '%s' queue %u to the XSKMAP it was given: %s%s",
			dev->name, queue, xskx_strerror(-err),
			err == -EPERM || err == -EACCES ?
				" (a kernel before 6.5 needs CAP_BPF for map updates unless kernel.unprivileged_bpf_disabled is 0)" :
				"");
	}
	ks->in_external_xskmap = true;
	return 0;
}

static int check_external_queue(const struct kernel_port *kp,
				const struct xskx_netdev *dev, uint32_t queue)
{
	if (queue < kp->xskmap_entries)
		return 0;
	return xskx__fail(
		-EINVAL,
		"queue %u of '%s': the XSKMAP the port was given has %u entries: the program that owns it cannot redirect there",
		queue, dev->name, kp->xskmap_entries);
}

static int kernel_open(struct xskx_socket *s, const struct xskx_socket_opts *o)
{
	const struct kernel_port *kp = xskx__kernel_port(s->port);
	struct xskx_libxdp_log saved;
	struct kernel_socket *ks;
	struct kernel_umem *kumem;
	struct xskx_netdev dev;
	int err;

	err = xskx__netdev_query(s->port->name, &dev);
	if (!err)
		err = xskx__kernel_check_request(&dev, o, s->peer_umem);
	if (err)
		return err;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return xskx__fail(-ENOMEM, "out of memory");
	memcpy(ks->ifname, dev.name, sizeof(ks->ifname));
	ks->ifindex = dev.ifindex;
	ks->rx_queues = dev.rx_queues;

	xskx__libxdp_log_begin(&saved);
	err = register_umem(s);
	xskx__libxdp_log_end(&saved);
	if (err)
		goto err_free;
	kumem = s->peer_umem->registration;
	if (kumem->first_queue_held && kumem->held_queue == o->queue_id &&
	    !strcmp(kumem->held_ifname, dev.name)) {
		err = xskx__fail(
			-EBUSY,
			"queue %u of '%s' is still bound by this UMEM's first socket: libxdp keeps the UMEM's own socket bound until the UMEM's last socket closes; close every socket on the UMEM, or open this one on another UMEM",
			o->queue_id, dev.name);
		goto err_umem;
	}
	if (kp->xskmap_fd < 0)
		err = attach_program(&dev, o, &s->port->opts, ks);
	else if (!(o->flags & XSKX_SOCKET_NO_RX))
		err = check_external_queue(kp, &dev, o->queue_id);
	if (err)
		goto err_umem;

	xskx__libxdp_log_begin(&saved);
	err = bind_socket(s, o, &dev, ks);
	xskx__libxdp_log_end(&saved);
	if (err)
		goto err_prog;
	ks->fd = xsk_socket__fd(ks->xsk);
	err = read_zero_copy(ks->fd, &ks->zero_copy);
	s->max_frags = max_frags(s, &dev, ks->zero_copy);
	/* Copy mode's completions lose bit 0 of the address (KERNEL_RULES.md). */
	s->comp_clears_bit0 = !ks->zero_copy;
	s->tx_meta_supported = ks->zero_copy ? (uint32_t)dev.xsk_features &
						       XSKX_TX_META_ALL :
					       XSKX_TX_META_COPY_MODE;
	if (!err)
		err = set_tx_budget(ks, &s->port->opts, o);
	if (!err && s->kick_always)
		err = set_busy_poll(ks->fd, &s->port->opts);
	if (!err && ks->xdp)
		err = xskx__xdp_add_socket(ks->xdp, o->queue_id, ks->fd);
	if (!err && kp->xskmap_fd >= 0 && !(o->flags & XSKX_SOCKET_NO_RX))
		err = add_to_external_xskmap(kp, &dev, o->queue_id, ks);
	if (!err)
		err = apply_napi(ks, &dev, &s->port->opts, o);
	if (err)
		goto err_socket;

	if (!kumem->sockets)
		kumem->bind_flags = s->bind_flags;
	kumem->sockets++;
	ks->kumem = kumem;
	if (!s->fq->backend)
		s->fq->backend = ks;
	s->backend = ks;
	if (ks->xdp && !xskx__kernel_port(s->port)->receivers++)
		xskx__kernel_port(s->port)->xdp = ks->xdp;
	xskx_info("AF_XDP socket on '%s' queue %u: %s mode%s", dev.name,
		  o->queue_id, ks->zero_copy ? "zero-copy" : "copy",
		  s->bind_flags & XDP_USE_NEED_WAKEUP ? ", need_wakeup" : "");
	return 0;

err_socket:
	xskx__napi_restore(&ks->napi);
	xsk_socket__delete(ks->xsk);
err_prog:
	if (ks->xdp)
		xskx__xdp_release(ks->xdp);
err_umem:
	unregister_umem_if_unused(s->peer_umem);
err_free:
	free(ks);
	return err;
}

static int kernel_kick_rx(struct xskx_socket *s)
{
	if (recvfrom(ks_of(s)->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL) < 0)
		return -errno;
	return 0;
}

static int kernel_kick_tx(struct xskx_socket *s)
{
	return xskx__kernel_kick_tx_fd(s, ks_of(s)->fd, ks_of(s)->zero_copy);
}

static int kernel_poll(struct xskx_socket *s, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = ks_of(s)->fd, .events = events };
	int n = poll(&pfd, 1, timeout_ms);

	if (n < 0)
		return -errno;
	return n ? pfd.revents : 0;
}

static int kernel_stats(struct xskx_socket *s, struct xdp_statistics *stats)
{
	socklen_t len = sizeof(*stats);

	memset(stats, 0, sizeof(*stats));
	if (getsockopt(ks_of(s)->fd, SOL_XDP, XDP_STATISTICS, stats, &len))
		return xskx__fail(-errno,
				  "getsockopt XDP_STATISTICS on '%s': %s",
				  ks_of(s)->ifname, xskx_strerror(errno));
	return 0;
}

static int kernel_options(const struct xskx_socket *s,
			  struct xdp_options *options)
{
	socklen_t len = sizeof(*options);

	if (getsockopt(ks_of(s)->fd, SOL_XDP, XDP_OPTIONS, options, &len))
		return xskx__fail(-errno, "getsockopt XDP_OPTIONS on '%s': %s",
				  ks_of(s)->ifname, xskx_strerror(errno));
	return 0;
}

static int64_t kernel_frames_in_peer(const struct xskx_fq_cq *fq)
{
	(void)fq;
	return -1;
}

static int kernel_fd(const struct xskx_socket *s)
{
	return ks_of(s)->fd;
}

/* Asked anew each time: threaded can be switched while the socket lives. */
static int kernel_napi_thread(const struct xskx_socket *s, pid_t *pid)
{
	struct kernel_socket *ks = ks_of(s);
	struct xskx_napi napi;
	int err;

	*pid = 0;
	if (!s->rx.ring)
		return 0;
	err = xskx__napi_find(ks->ifindex, s->queue_id, ks->rx_queues, &napi);
	if (err == -ENOENT || err == -EOPNOTSUPP)
		return 0;
	if (err)
		return xskx__fail(err,
				  "finding the NAPI of queue %u of '%s': %s",
				  s->queue_id, ks->ifname, xskx_strerror(-err));
	*pid = napi.thread;
	return 0;
}

typedef void give_back_fn(uint64_t addr, void *ctx);

static void give_back_descs(const struct xdp_desc *ring, uint32_t mask,
			    uint32_t from, uint32_t to, give_back_fn *fn,
			    void *ctx)
{
	for (uint32_t i = from; i != to; i++)
		fn(ring[i & mask].addr, ctx);
}

static void give_back_addrs(const uint64_t *ring, uint32_t mask, uint32_t from,
			    uint32_t to, give_back_fn *fn, void *ctx)
{
	for (uint32_t i = from; i != to; i++)
		fn(ring[i & mask], ctx);
}

/*
 * The frames the kernel will not hand back once the socket is gone. With
 * the XSKMAP slot emptied nothing is redirected to the socket any more. In
 * copy mode the kernel touches FILL only when a packet is redirected and TX
 * only inside our own sendto(), so what is left on them is ours; a
 * zero-copy driver may still be using both, so those stay counted as "nic".
 */
static void give_back_rings(struct xskx_socket *s, give_back_fn *fn, void *ctx)
{
	struct kernel_socket *ks = ks_of(s);
	struct xskx_fq_cq *fq = s->fq;

	if (s->rx.ring)
		give_back_descs(s->rx.ring, s->rx.mask, s->rx.cached_cons,
				__atomic_load_n(s->rx.producer,
						__ATOMIC_ACQUIRE),
				fn, ctx);
	if (s->tx.ring && !ks->zero_copy)
		give_back_descs(s->tx.ring, s->tx.mask,
				__atomic_load_n(s->tx.consumer,
						__ATOMIC_ACQUIRE),
				*s->tx.producer, fn, ctx);
	if (fq->users != 1)
		return;
	give_back_addrs(fq->comp.ring, fq->comp.mask, fq->comp.cached_cons,
			__atomic_load_n(fq->comp.producer, __ATOMIC_ACQUIRE),
			fn, ctx);
	if (!ks->zero_copy)
		give_back_addrs(fq->fill.ring, fq->fill.mask,
				__atomic_load_n(fq->fill.consumer,
						__ATOMIC_ACQUIRE),
				*fq->fill.producer, fn, ctx);
}

static bool kernel_close(struct xskx_socket *s, give_back_fn *give_back,
			 void *ctx)
{
	struct kernel_socket *ks = ks_of(s);
	struct xskx_libxdp_log saved;
	bool unregistered;

	/* Before the program goes: veth drops its NAPI with it. */
	xskx__napi_restore(&ks->napi);
	if (ks->xdp)
		xskx__xdp_remove_socket(ks->xdp, s->queue_id, ks->fd);
	/*
	 * Out of someone else's map too. The kernel takes a socket out of its
	 * maps when it is released, but an fd handed to another process keeps
	 * it alive: this socket stops receiving now either way.
	 */
	if (ks->in_external_xskmap)
		bpf_map_delete_elem(xskx__kernel_port(s->port)->xskmap_fd,
				    &s->queue_id);
	give_back_rings(s, give_back, ctx);

	if (ks->kumem->sockets > 1 && ks->fd == xsk_umem__fd(ks->kumem->xumem)) {
		ks->kumem->first_queue_held = true;
		memcpy(ks->kumem->held_ifname, ks->ifname, IF_NAMESIZE);
		ks->kumem->held_queue = s->queue_id;
	}
	xskx__libxdp_log_begin(&saved);
	xsk_socket__delete(ks->xsk);
	xskx__libxdp_log_end(&saved);
	if (ks->xdp) {
		xskx__xdp_release(ks->xdp);
		if (!--xskx__kernel_port(s->port)->receivers)
			xskx__kernel_port(s->port)->xdp = NULL;
	}
	ks->kumem->sockets--;
	/*
	 * Unregistered, the kernel holds no frame any more: those it kept
	 * where no ring shows them (a copy-mode socket keeps the frame of a
	 * packet that found RX full) are free, and the core takes them back.
	 */
	unregistered = unregister_umem_if_unused(s->peer_umem);
	free(ks);
	s->backend = NULL;
	return unregistered;
}

static void kernel_umem_release(struct xskx_peer_umem *umem)
{
	unregister_umem_if_unused(umem);
}

const struct xskx_backend_ops xskx__backend_kernel = {
	.name = "kernel",
	.port_close = xskx__kernel_port_close,
	.port_info = xskx__kernel_port_info,
	.rx_no_socket = xskx__kernel_port_rx_no_socket,
	.open = kernel_open,
	.kick_rx = kernel_kick_rx,
	.kick_tx = kernel_kick_tx,
	.poll = kernel_poll,
	.stats = kernel_stats,
	.options = kernel_options,
	.frames_in_peer = kernel_frames_in_peer,
	.fd = kernel_fd,
	.napi_thread = kernel_napi_thread,
	.close = kernel_close,
	.umem_release = kernel_umem_release,
	.filter_begin = xskx__kernel_port_filter_begin,
};
