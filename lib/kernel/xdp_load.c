// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loading and attaching an XDP program as its first user, in an order that
 * a crash at any point leaves either nothing or a program whose users can
 * be read: open the object and size its maps for the device, load it
 * (program and maps exist, held by this process's fds alone), write the
 * program's record and this process's "serving" entry into its owner map
 * and bind the owner maps to it (claim()), and only then attach it to the
 * device. A process killed before the attach takes its program with it; one
 * killed after leaves a program that names it, which the next process finds
 * dead and replaces (xdp_share.c). The program goes on the device alone,
 * with libbpf (attach_to() says why not through libxdp).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xdp/libxdp.h>

#include "log_internal.h"
#include "owner_set.h"
#include "xdp_attachment.h"
#include "xdp_device.h"
#include "xdp_load.h"
#include "xdp_on_device.h"
#include "xskx_redirect_bpf.h"

#define FNV1A_OFFSET 0xcbf29ce484222325ull
#define FNV1A_PRIME 0x100000001b3ull

/* Kernel 6.3+; older UAPI headers lack it. */
#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1u << 6)
#endif

/* The RX metadata fields xskx's program asks for. */
#define RX_META_FIELDS                                                         \
	(XSKX_RX_META_TIMESTAMP | XSKX_RX_META_HASH | XSKX_RX_META_VLAN_TAG)

/* The object and its one program, kept only while attaching. */
struct loaded {
	struct bpf_object *obj;
	struct bpf_program *prog;
	bool bound; /* loaded device-bound (the RX metadata program) */
};

void xskx__xdp_program_of(const struct xskx_xdp_request *req,
			  struct xskx_owner_entry *program)
{
	const unsigned char *elf = req->obj ? req->obj : xskx_redirect_bpf_elf;
	size_t size = req->obj ? req->obj_size : xskx_redirect_bpf_elf_size;
	uint64_t digest = FNV1A_OFFSET;

	for (size_t i = 0; i < size; i++)
		digest = (digest ^ elf[i]) * FNV1A_PRIME;
	memset(program, 0, sizeof(*program));
	program->role = XSKX_OWNER_PROGRAM;
	program->flags = (req->frags ? XSKX_OWNER_FRAGS : 0) |
			 (req->rx_meta ? XSKX_OWNER_RX_META : 0);
	program->obj_digest = digest;
}

/* What is in the way of our attach: a foreign program, or xskx's. */
struct in_the_way {
	char what[96];
	bool seen;
	bool xskx;
};

static int describe_prog(const struct xskx_xdp_found *found, void *ctx)
{
	struct in_the_way *way = ctx;

	way->seen = true;
	way->xskx = xskx__xdp_is_xskx(xdp_program__fd(found->prog));
	snprintf(way->what, sizeof(way->what),
		 "XDP program '%s' (id %u, %s mode)",
		 xdp_program__name(found->prog), xdp_program__id(found->prog),
		 found->mode == XDP_MODE_SKB ? "generic" : "native");
	return way->xskx; /* look on while only foreign ones are seen */
}

/* what: the program in the way, for -EBUSY. */
static int attach_failed(const struct xskx_netdev *dev, enum xskx_xdp_mode mode,
			 int err, const char *what)
{
	switch (-err) {
	case EOPNOTSUPP:
		return xskx__fail(
			err,
			"'%s' has no native XDP support: open with xdp_mode XSKX_XDP_GENERIC, or set xdp_fallback",
			dev->name);
	case EEXIST:
	case EBUSY:
		return xskx__fail(
			-EBUSY,
			"cannot attach an XDP program to '%s' in %s mode: %s is attached and xskx attaches its program alone; detach it first",
			dev->name, xskx__xdp_mode_name(mode), what);
	case EPERM:
	case EACCES:
		return xskx__fail(
			-EPERM,
			"attaching an XDP program to '%s' needs CAP_NET_ADMIN and CAP_BPF (run as root)",
			dev->name);
	default:
		return xskx__fail(
			err, "attaching the XDP program to '%s' in %s mode: %s",
			dev->name, xskx__xdp_mode_name(mode), xskx_strerror(-err));
	}
}

static void unload(struct loaded *l)
{
	bpf_object__close(l->obj);
	l->prog = NULL;
	l->obj = NULL;
	l->bound = false;
}

/* "hash, VLAN tag", for messages. */
static void name_fields(uint32_t fields, char *buf, size_t size)
{
	static const char *const names[] = { "timestamp", "hash", "VLAN tag" };
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < 3 && used < size; i++)
		if (fields & (1u << i))
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? ", " : "", names[i]);
	if (!used)
		snprintf(buf, size, "none");
}

void xskx__xdp_log_rx_meta(const struct xskx_netdev *dev,
			   const struct xskx_xdp_attachment *att)
{
	uint32_t fields = (uint32_t)dev->xdp_rx_metadata & RX_META_FIELDS;
	char names[48];

	if (!(att->program.flags & XSKX_OWNER_RX_META))
		return;
	name_fields(fields, names, sizeof(names));
	if (att->program.flags & XSKX_OWNER_RX_META_BOUND)
		xskx_info(
			"RX metadata on '%s': the XDP program is bound to the device, whose kfuncs give: %s",
			dev->name, names);
	else if (att->mode == XSKX_XDP_GENERIC)
		xskx_warn(
			"RX metadata on '%s': the XDP program runs in generic mode, where the kernel refuses a device-bound program and so the kfuncs: struct xskx_rx_meta arrives with valid 0 (the device gives %s in native mode)",
			dev->name, names);
	else
		xskx_warn(
			"RX metadata on '%s': the device gives no RX metadata through the kernel's kfuncs (netdev xdp-rx-metadata-features is empty): struct xskx_rx_meta arrives with valid 0",
			dev->name);
}

static int size_maps(struct bpf_object *obj, const struct xskx_netdev *dev)
{
	const char *const per_queue[] = { XSKX_XSKMAP_NAME,
					  XSKX_QUEUE_OWNER_MAP_NAME,
					  XSKX_NO_SOCKET_MAP_NAME };
	uint32_t entries = XSKX_XSKMAP_DEFAULT_ENTRIES;
	int err = 0;

	if (dev->rx_queues > entries)
		entries = dev->rx_queues;
	for (size_t i = 0; i < 3 && !err; i++) {
		struct bpf_map *map =
			bpf_object__find_map_by_name(obj, per_queue[i]);

		/* has_xskx_maps() checked the others; this one is optional. */
		if (map)
			err = bpf_map__set_max_entries(map, entries);
	}
	return err;
}

/* The object has xskx's maps, the owner map as this library reads it. */
static bool has_xskx_maps(struct bpf_object *obj)
{
	const struct bpf_map *owner =
		bpf_object__find_map_by_name(obj, XSKX_OWNER_MAP_NAME);

	return bpf_object__find_map_by_name(obj, XSKX_XSKMAP_NAME) &&
	       bpf_object__find_map_by_name(obj, XSKX_QUEUE_OWNER_MAP_NAME) &&
	       owner &&
	       xskx__owners_layout_ok(bpf_map__type(owner),
				      bpf_map__key_size(owner),
				      bpf_map__value_size(owner));
}

/*
 * The program of xskx's object to load: xskx_redirect, or with RX metadata
 * the device-bound one (bound) or the one without kfuncs, which the
 * verifier refuses in a program that is not device-bound.
 */
static const char *prog_name(const struct xskx_xdp_request *req, bool bound)
{
	if (!req->rx_meta)
		return XSKX_PROG_NAME;
	return bound ? XSKX_RX_META_PROG_NAME : XSKX_RX_NOKFUNC_PROG_NAME;
}

/*
 * The program to load: of xskx's object the one named, and no other (an
 * object loads every program it has autoloaded); of a caller's object its
 * first program.
 */
static int pick_prog(const struct xskx_xdp_request *req, bool bound,
		     struct loaded *l)
{
	const char *name = prog_name(req, bound);
	struct bpf_program *prog;
	int err = 0;

	if (req->obj) {
		l->prog = bpf_object__next_program(l->obj, NULL);
		return l->prog ? 0 : -ENOENT;
	}
	bpf_object__for_each_program(prog, l->obj) {
		if (!strcmp(bpf_program__name(prog), name))
			l->prog = prog;
		else if (!err)
			err = bpf_program__set_autoload(prog, false);
	}
	return l->prog ? err : -ENOENT;
}

/*
 * Before the object loads: the device-bound RX metadata program must be
 * bound to dev now (the kernel binds a program at load), and xdp.frags is
 * a load flag too.
 */
static int set_load_flags(const struct xskx_netdev *dev,
			  const struct xskx_xdp_request *req, bool bound,
			  struct loaded *l)
{
	__u32 flags = bpf_program__flags(l->prog);

	if (bound) {
		bpf_program__set_ifindex(l->prog, (__u32)dev->ifindex);
		flags |= BPF_F_XDP_DEV_BOUND_ONLY;
	}
	if (req->frags)
		flags |= BPF_F_XDP_HAS_FRAGS;
	l->bound = bound;
	return bpf_program__set_flags(l->prog, flags);
}

/*
 * Open and load a fresh object for every attempt (a device-bound program
 * cannot run in another mode): its program and maps exist from here on,
 * held by this process's fds alone, so that they vanish with it.
 */
static int load_prog(const struct xskx_netdev *dev,
		     const struct xskx_xdp_request *req, bool bound,
		     struct loaded *l)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = XSKX_PROG_NAME);
	int err;

	if (req->obj) {
		opts.object_name = NULL;
		l->obj = bpf_object__open_mem(req->obj, req->obj_size, &opts);
	} else {
		l->obj = bpf_object__open_mem(xskx_redirect_bpf_elf,
					      xskx_redirect_bpf_elf_size, &opts);
	}
	if (!l->obj)
		return xskx__fail(-errno, "opening the XDP object%s: %s",
				  req->obj ? " given in opts.xdp_obj" :
					    " embedded in xskx",
				  xskx_strerror(errno));
	if (!has_xskx_maps(l->obj)) {
		unload(l);
		return xskx__fail(
			-EINVAL,
			"the XDP object in opts.xdp_obj lacks the maps '%s', '%s' and '%s' as this xskx declares them: build it on this version's bpf/xskx_maps.bpf.h",
			XSKX_XSKMAP_NAME, XSKX_OWNER_MAP_NAME,
			XSKX_QUEUE_OWNER_MAP_NAME);
	}
	err = size_maps(l->obj, dev);
	if (!err)
		err = pick_prog(req, bound, l);
	if (!err)
		err = set_load_flags(dev, req, bound, l);
	if (!err)
		err = bpf_object__load(l->obj);
	if (err) {
		unload(l);
		if (bound)
			return xskx__fail(
				err,
				"loading xskx's RX metadata program bound to '%s': %s",
				dev->name, xskx_strerror(-err));
		return xskx__fail(err, "loading the XDP program: %s",
				  xskx_strerror(-err));
	}
	return 0;
}

/*
 * The RX metadata program can be loaded bound to dev for mode: native mode
 * (the kernel refuses a device-bound program in generic mode) and a device
 * whose kfuncs give at least one of the fields.
 */
static bool can_bind(const struct xskx_netdev *dev,
		     const struct xskx_xdp_request *req,
		     enum xskx_xdp_mode mode)
{
	return req->rx_meta && mode == XSKX_XDP_NATIVE &&
	       (dev->xdp_rx_metadata & RX_META_FIELDS);
}

static int dup_map_fd(struct bpf_object *obj, const char *name)
{
	int fd = bpf_object__find_map_fd_by_name(obj, name);

	return fd < 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/*
 * Before the program is on the device: keep it and its maps by fds of our
 * own, write the program's record (complete: device-bound or not) and
 * this process's "serving" entry, and bind the owner maps to the program.
 * Whoever finds the program on the device finds them filled in, and finds
 * this process named there, alive or dead.
 */
static int claim(struct xskx_xdp_attachment *att, const struct loaded *l)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	int prog_fd = bpf_program__fd(l->prog);
	int err = 0;

	att->prog_fd = fcntl(prog_fd, F_DUPFD_CLOEXEC, 0);
	att->xsks_map_fd = dup_map_fd(l->obj, XSKX_XSKMAP_NAME);
	att->owner_map_fd = dup_map_fd(l->obj, XSKX_OWNER_MAP_NAME);
	att->queue_owner_map_fd = dup_map_fd(l->obj, XSKX_QUEUE_OWNER_MAP_NAME);
	att->no_socket_map_fd = xskx__prog_map_fd(prog_fd, XSKX_NO_SOCKET_MAP_NAME);
	if (att->prog_fd < 0 || att->xsks_map_fd < 0 ||
	    att->owner_map_fd < 0 || att->queue_owner_map_fd < 0)
		err = -EMFILE;
	if (!err && bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		err = -errno;
	att->prog_id = info.id;
	if (l->bound)
		att->program.flags |= XSKX_OWNER_RX_META_BOUND;
	if (!err)
		err = xskx__owners_describe(att->owner_map_fd, &att->program);
	if (!err)
		err = xskx__owners_enter(att->owner_map_fd, XSKX_OWNER_SERVING);
	if (!err && bpf_prog_bind_map(prog_fd, att->queue_owner_map_fd, NULL))
		err = -errno;
	if (!err && bpf_prog_bind_map(prog_fd, att->owner_map_fd, NULL))
		err = -errno;
	if (err)
		return xskx__fail(
			err,
			"recording the users of the XDP program for '%s': %s",
			att->ifname, xskx_strerror(-err));
	return 0;
}

/*
 * The program alone on the device, with libbpf: libxdp loads and attaches
 * in one call, which leaves no moment to claim the program in between
 * (claim()), and its dispatcher cannot hold a device-bound program.
 * Refused (-EBUSY, -EEXIST) while any program is there.
 */
static int attach_to(const struct xskx_netdev *dev, enum xskx_xdp_mode mode,
		     const struct loaded *l)
{
	__u32 flags = XDP_FLAGS_UPDATE_IF_NOEXIST |
		      (mode == XSKX_XDP_NATIVE ? XDP_FLAGS_DRV_MODE :
						 XDP_FLAGS_SKB_MODE);

	return bpf_xdp_attach(dev->ifindex, bpf_program__fd(l->prog), flags,
			      NULL);
}

/* Load, claim and attach in mode: on failure nothing is left of it. */
static int attach_in(const struct xskx_netdev *dev,
		     const struct xskx_xdp_request *req,
		     enum xskx_xdp_mode mode, struct xskx_xdp_attachment *att,
		     struct loaded *l)
{
	int err;

	xskx__xdp_program_of(req, &att->program);
	err = load_prog(dev, req, can_bind(dev, req, mode), l);
	if (err)
		return err;
	err = claim(att, l);
	if (!err)
		err = attach_to(dev, mode, l);
	if (err) {
		xskx__xdp_close_fds(att);
		unload(l);
	}
	return err;
}

/*
 * Our attach was refused. Another process's xskx program got there first,
 * or one did and is gone again already: -EAGAIN, to join or attach anew.
 */
static int attach_refused(const struct xskx_netdev *dev,
			  enum xskx_xdp_mode mode, int err)
{
	struct in_the_way way = { .what = "another XDP program" };

	if ((err == -EBUSY || err == -EEXIST) &&
	    xskx__xdp_each_prog(dev->ifindex, describe_prog, &way) >= 0 &&
	    (!way.seen || way.xskx))
		return -EAGAIN;
	return attach_failed(dev, mode, err, way.what);
}

static int attach(const struct xskx_netdev *dev,
		  const struct xskx_xdp_request *req,
		  struct xskx_xdp_attachment *att, struct loaded *l)
{
	int err = attach_in(dev, req, req->mode, att, l);

	att->mode = req->mode;
	if (err == -EOPNOTSUPP && req->mode == XSKX_XDP_NATIVE &&
	    req->fallback) {
		xskx_warn(
			"'%s' has no native XDP support: the XDP program runs in generic (skb) mode",
			dev->name);
		att->mode = XSKX_XDP_GENERIC;
		err = attach_in(dev, req, XSKX_XDP_GENERIC, att, l);
	}
	return err ? attach_refused(dev, att->mode, err) : 0;
}

int xskx__xdp_attach_new(const struct xskx_netdev *dev,
			 const struct xskx_xdp_request *req,
			 struct xskx_xdp_attachment *att)
{
	struct loaded l = { 0 };
	enum xskx_xdp_mode mode;
	int err = attach(dev, req, att, &l);

	if (err)
		return err;
	if (xskx__xdp_find(dev->ifindex, &mode) != att->prog_id) {
		/* Another xskx program attached in the other mode at once. */
		xskx__xdp_leave(att);
		err = -EAGAIN;
	} else {
		xskx_info("XDP program '%s' attached to '%s' in %s mode (id %u)",
			  bpf_program__name(l.prog), dev->name,
			  xskx__xdp_mode_name(att->mode), att->prog_id);
		xskx__xdp_log_rx_meta(dev, att);
	}
	unload(&l);
	if (err)
		xskx__xdp_close_fds(att);
	return err;
}
