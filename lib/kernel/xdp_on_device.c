// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The xskx program on a device: found (attached directly or in libxdp's
 * dispatcher, recognised by its maps), detached by id, and left by this
 * process (the leave's steps, xdp_share.c's comment). What attaching
 * (xdp_load.c) and joining (xdp_share.c) both look at.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_link.h>
#include <unistd.h>
#include <xdp/libxdp.h>

#include "log_internal.h"
#include "owner.h"
#include "owner_set.h"
#include "xdp_attachment.h"
#include "xdp_device.h"
#include "xdp_on_device.h"

static enum xskx_xdp_mode xskx_mode(enum xdp_attach_mode mode)
{
	return mode == XDP_MODE_SKB ? XSKX_XDP_GENERIC : XSKX_XDP_NATIVE;
}

bool xskx__xdp_is_xskx(int prog_fd)
{
	const char *const names[] = { XSKX_OWNER_MAP_NAME, XSKX_XSKMAP_NAME };

	for (size_t i = 0; i < 2; i++) {
		int fd = xskx__prog_map_fd(prog_fd, names[i]);

		if (fd >= 0) {
			close(fd);
			return true;
		}
	}
	return false;
}

struct oldest {
	uint32_t id;
	enum xdp_attach_mode mode;
};

static int pick_oldest(const struct xskx_xdp_found *found, void *ctx)
{
	struct oldest *oldest = ctx;
	uint32_t id = xdp_program__id(found->prog);

	if (xskx__xdp_is_xskx(xdp_program__fd(found->prog)) &&
	    (!oldest->id || id < oldest->id)) {
		oldest->id = id;
		oldest->mode = found->mode;
	}
	return 0;
}

static bool id_is_xskx(uint32_t id)
{
	int fd = id ? bpf_prog_get_fd_by_id(id) : -1;
	bool xskx = fd >= 0 && xskx__xdp_is_xskx(fd);

	if (fd >= 0)
		close(fd);
	return xskx;
}

/*
 * The program attached directly, without a dispatcher, read without libxdp
 * (xskx__xdp_direct_ids()); libxdp is asked only when that one is not
 * xskx's, for it may be libxdp's dispatcher holding xskx's program.
 */
uint32_t xskx__xdp_find(int ifindex, enum xskx_xdp_mode *mode)
{
	uint32_t ids[XSKX_XDP_DIRECT_IDS];
	struct oldest oldest = { 0 };

	if (!xskx__xdp_direct_ids(ifindex, ids)) {
		if (id_is_xskx(ids[XSKX_XDP_DIRECT_NATIVE])) {
			*mode = XSKX_XDP_NATIVE;
			return ids[XSKX_XDP_DIRECT_NATIVE];
		}
		if (id_is_xskx(ids[XSKX_XDP_DIRECT_GENERIC])) {
			*mode = XSKX_XDP_GENERIC;
			return ids[XSKX_XDP_DIRECT_GENERIC];
		}
		if (!ids[XSKX_XDP_DIRECT_NATIVE] &&
		    !ids[XSKX_XDP_DIRECT_GENERIC])
			return 0;
	}
	xskx__xdp_each_prog(ifindex, pick_oldest, &oldest);
	if (oldest.id)
		*mode = xskx_mode(oldest.mode);
	return oldest.id;
}

struct detach {
	uint32_t id;
	int ifindex;
	int err;
};

static int detach_if_id(const struct xskx_xdp_found *found, void *ctx)
{
	struct detach *d = ctx;

	if (xdp_program__id(found->prog) != d->id)
		return 0;
	if (found->in_dispatcher)
		d->err = xdp_program__detach(found->prog, d->ifindex,
					     found->mode, 0);
	else
		d->err = xdp_multiprog__detach(found->mp);
	return 1;
}

/*
 * Detach program id where it is attached directly: replaced by nothing
 * only if it is still the one there (XDP_FLAGS_REPLACE). 1 when it was
 * found there (d->err says how the detach went), 0 when it was not.
 */
static int detach_direct(const uint32_t ids[XSKX_XDP_DIRECT_IDS],
			 struct detach *d)
{
	static const __u32 mode_flags[XSKX_XDP_DIRECT_IDS] = {
		[XSKX_XDP_DIRECT_NATIVE] = XDP_FLAGS_DRV_MODE,
		[XSKX_XDP_DIRECT_GENERIC] = XDP_FLAGS_SKB_MODE,
	};

	for (int i = 0; i < XSKX_XDP_DIRECT_IDS; i++) {
		LIBBPF_OPTS(bpf_xdp_attach_opts, opts);

		if (ids[i] != d->id)
			continue;
		opts.old_prog_fd = bpf_prog_get_fd_by_id(d->id);
		if (opts.old_prog_fd < 0) {
			d->err = -errno;
			return 1;
		}
		d->err = bpf_xdp_detach(d->ifindex,
					mode_flags[i] | XDP_FLAGS_REPLACE,
					&opts);
		close(opts.old_prog_fd);
		return 1;
	}
	return 0;
}

void xskx__xdp_detach_id(const char *ifname, int ifindex, uint32_t id)
{
	struct detach d = { .id = id, .ifindex = ifindex };
	uint32_t ids[XSKX_XDP_DIRECT_IDS];
	int err = xskx__xdp_direct_ids(ifindex, ids);

	/* In libxdp's dispatcher, if not attached directly. */
	if (err || !detach_direct(ids, &d))
		err = xskx__xdp_each_prog(ifindex, detach_if_id, &d);
	if (err < 0)
		d.err = err;
	/* Gone already, or with its interface (deleted, or its namespace left). */
	if (d.err && d.err != -ENOENT && d.err != -ENODEV)
		xskx_warn(
			"detaching the XDP program (id %u) from '%s': %s; remove it with 'ip link set dev %s xdp off'",
			id, ifname, xskx_strerror(-d.err), ifname);
}

void xskx__xdp_leave(struct xskx_xdp_attachment *att)
{
	struct xskx_owner_census census;
	int err = xskx__owners_enter(att->owner_map_fd, XSKX_OWNER_CLOSING);

	if (!err)
		err = xskx__owners_census(att->owner_map_fd, &census);
	if (err)
		xskx_warn(
			"reading the users of the XDP program (id %u) on '%s': %s; left attached, remove it with 'ip link set dev %s xdp off' once no xskx process uses it",
			att->prog_id, att->ifname, xskx_strerror(-err),
			att->ifname);
	else if (!census.serving)
		xskx__xdp_detach_id(att->ifname, att->ifindex, att->prog_id);
	xskx__owners_leave(att->owner_map_fd);
}
