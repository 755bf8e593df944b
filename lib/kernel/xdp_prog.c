// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loading, attaching and sharing xskx's XDP program.
 *
 * One attachment per interface per process, found in a registry keyed by
 * interface index and network namespace (a process may switch namespaces
 * between sockets) and by process id (a forked child sees its parent's
 * registry, but the parent's attachments are not the child's to detach).
 * The registry lock is held only on the control path: open and close.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xdp/libxdp.h>

#include "libxdp_log.h"
#include "log_internal.h"
#include "owner.h"
#include "xdp_device.h"
#include "xdp_prog.h"
#include "xskx_redirect_bpf.h"
#include "xskx_shared.h"

/* A socket in the XSKMAP, newest first in its attachment's list. */
struct xsk_slot {
	uint32_t queue;
	int fd;
	struct xsk_slot *next;
};

struct xskx_xdp_attachment {
	int ifindex;
	uint64_t netns;
	pid_t pid;
	char ifname[IF_NAMESIZE];
	enum xskx_xdp_mode mode;
	const void *elf; /* the object it was loaded from */
	struct bpf_object *obj;
	struct xdp_program *prog;
	int xsks_map_fd;
	uint32_t users;
	struct xsk_slot *slots;
	struct xskx_xdp_attachment *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xskx_xdp_attachment *registry;

static const char *mode_name(enum xskx_xdp_mode mode)
{
	return mode == XSKX_XDP_NATIVE ? "native" : "generic (skb)";
}

static enum xdp_attach_mode libxdp_mode(enum xskx_xdp_mode mode)
{
	return mode == XSKX_XDP_NATIVE ? XDP_MODE_NATIVE : XDP_MODE_SKB;
}

static uint64_t this_netns(void)
{
	struct stat st;

	return stat("/proc/thread-self/ns/net", &st) ? 0 : (uint64_t)st.st_ino;
}

static struct xskx_xdp_attachment *find_attachment(int ifindex)
{
	uint64_t netns = this_netns();
	pid_t pid = getpid();

	for (struct xskx_xdp_attachment *a = registry; a; a = a->next)
		if (a->ifindex == ifindex && a->netns == netns && a->pid == pid)
			return a;
	return NULL;
}

/* Decide about one program found on the device; see clear_stale(). */
static int judge_prog(const struct xskx_xdp_found *found, void *ctx)
{
	const struct xskx_netdev *dev = ctx;
	const char *ifname = dev->name;
	struct xskx_prog_owner owner = { 0 };
	__u32 key = 0;
	int fd, err;

	/* xskx manages exactly the programs that carry its owner map. */
	fd = xskx__prog_map_fd(xdp_program__fd(found->prog),
			       XSKX_OWNER_MAP_NAME);
	if (fd < 0)
		return 0;
	bpf_map_lookup_elem(fd, &key, &owner);
	close(fd);
	switch (xskx__owner_state(&owner)) {
	case XSKX_OWNER_ALIVE:
		return xskx__fail(
			-EBUSY,
			"'%s' is served by the XDP program '%s' of xskx process %u, which is running: one process serves an interface",
			ifname, xdp_program__name(found->prog), owner.pid);
	case XSKX_OWNER_UNKNOWN:
		return xskx__fail(
			-EBUSY,
			"'%s' has an xskx-managed XDP program (id %u) whose owner cannot be checked (another pid namespace, or still being set up); if no xskx process uses it, remove it with 'ip link set dev %s xdp off'",
			ifname, xdp_program__id(found->prog), ifname);
	case XSKX_OWNER_GONE:
		break;
	}
	xskx_info(
		"replacing the XDP program '%s' (id %u) left on '%s' by xskx process %u, which is gone",
		xdp_program__name(found->prog), xdp_program__id(found->prog),
		ifname, owner.pid);
	if (found->in_dispatcher)
		err = xdp_program__detach(found->prog, dev->ifindex,
					  found->mode, 0);
	else
		err = xdp_multiprog__detach(found->mp);
	if (err)
		return xskx__fail(err,
				  "removing the stale XDP program from '%s': %s",
				  ifname, xskx_strerror(-err));
	return 1;
}

/*
 * An xskx-managed program already on the device is either in use by a
 * living process (-EBUSY) or left behind by a dead one (detached here).
 * Other programs are left alone: the attach decides whether we coexist.
 */
static int clear_stale(const struct xskx_netdev *dev)
{
	int err = xskx__xdp_each_prog(dev->ifindex, judge_prog, (void *)dev);

	if (err == -EBUSY)
		return err;
	/* The attach that follows fails with a message of its own if it must. */
	if (err < 0)
		xskx_debug(
			"cannot read or clear the XDP programs of '%s' (%s); attaching anyway",
			dev->name, xskx_strerror(-err));
	return 0;
}

/* What is on the device, for the message when our attach is refused. */
static int describe_prog(const struct xskx_xdp_found *found, void *ctx)
{
	char *out = ctx;

	snprintf(out, 96, "XDP program '%s' (id %u, %s mode)",
		 xdp_program__name(found->prog), xdp_program__id(found->prog),
		 found->mode == XDP_MODE_SKB ? "generic" : "native");
	return 1;
}

static int attach_failed(const struct xskx_netdev *dev, enum xskx_xdp_mode mode,
			 int err)
{
	char what[96] = "another XDP program";

	switch (-err) {
	case EOPNOTSUPP:
		return xskx__fail(
			err,
			"'%s' has no native XDP support: open with xdp_mode XSKX_XDP_GENERIC, or set xdp_fallback",
			dev->name);
	case EEXIST:
	case EBUSY:
		xskx__xdp_each_prog(dev->ifindex, describe_prog, what);
		return xskx__fail(
			-EBUSY,
			"cannot attach an XDP program to '%s' in %s mode: %s is attached and this kernel cannot run both (no libxdp dispatcher, or native and generic mixed); detach it first",
			dev->name, mode_name(mode), what);
	case EPERM:
	case EACCES:
		return xskx__fail(
			-EPERM,
			"attaching an XDP program to '%s' needs CAP_NET_ADMIN and CAP_BPF (run as root)",
			dev->name);
	default:
		return xskx__fail(
			err, "attaching the XDP program to '%s' in %s mode: %s",
			dev->name, mode_name(mode), xskx_strerror(-err));
	}
}

static void unload(struct xskx_xdp_attachment *att)
{
	xdp_program__close(att->prog);
	bpf_object__close(att->obj);
	att->prog = NULL;
	att->obj = NULL;
}

/*
 * A fresh program for every attempt: a program libxdp failed to attach
 * (e.g. as a dispatcher component) may be left loaded in a form another
 * mode cannot use.
 */
static int open_prog(const struct xskx_netdev *dev,
		     const struct xskx_xdp_request *req,
		     struct xskx_xdp_attachment *att)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = XSKX_PROG_NAME);
	uint32_t entries = XSKX_XSKMAP_DEFAULT_ENTRIES;
	struct bpf_map *xsks;
	int err;

	if (req->obj) {
		opts.object_name = NULL;
		att->obj = bpf_object__open_mem(req->obj, req->obj_size, &opts);
	} else {
		att->obj = bpf_object__open_mem(xskx_redirect_bpf_elf,
						xskx_redirect_bpf_elf_size,
						&opts);
	}
	if (!att->obj)
		return xskx__fail(-errno, "opening the XDP object%s: %s",
				  req->obj ? " given in opts.xdp_obj" :
					    " embedded in xskx",
				  xskx_strerror(errno));
	xsks = bpf_object__find_map_by_name(att->obj, XSKX_XSKMAP_NAME);
	if (!xsks ||
	    !bpf_object__find_map_by_name(att->obj, XSKX_OWNER_MAP_NAME)) {
		unload(att);
		return xskx__fail(
			-EINVAL,
			"the XDP object in opts.xdp_obj lacks the maps '%s' and '%s': build it on bpf/xskx_maps.bpf.h",
			XSKX_XSKMAP_NAME, XSKX_OWNER_MAP_NAME);
	}
	if (dev->rx_queues > entries)
		entries = dev->rx_queues;
	err = bpf_map__set_max_entries(xsks, entries);
	if (!err) {
		/* The object's first program. */
		att->prog = xdp_program__from_bpf_obj(att->obj, NULL);
		err = (int)libxdp_get_error(att->prog);
		if (err)
			att->prog = NULL;
	}
	if (!err && req->frags)
		err = xdp_program__set_xdp_frags_support(att->prog, true);
	if (err) {
		unload(att);
		return xskx__fail(err, "preparing the XDP program: %s",
				  xskx_strerror(-err));
	}
	return 0;
}

/* Record this process as the owner, where a later process will look. */
static int claim(struct xskx_xdp_attachment *att)
{
	struct xskx_prog_owner owner;
	__u32 key = 0;
	int fd, err;

	fd = bpf_object__find_map_fd_by_name(att->obj, XSKX_OWNER_MAP_NAME);
	err = fd < 0 ? fd : xskx__owner_self(&owner);
	if (!err && bpf_map_update_elem(fd, &key, &owner, BPF_ANY))
		err = -errno;
	if (!err && bpf_prog_bind_map(xdp_program__fd(att->prog), fd, NULL))
		err = -errno;
	if (err)
		return xskx__fail(
			err,
			"recording the owner of the XDP program on '%s': %s",
			att->ifname, xskx_strerror(-err));
	return 0;
}

static int attach_in(const struct xskx_netdev *dev,
		     const struct xskx_xdp_request *req,
		     enum xskx_xdp_mode mode, struct xskx_xdp_attachment *att)
{
	int err = open_prog(dev, req, att);

	if (err)
		return err;
	err = xdp_program__attach(att->prog, dev->ifindex, libxdp_mode(mode),
				  0);
	if (err) {
		unload(att);
		return err;
	}
	att->mode = mode;
	return 0;
}

static int attach(const struct xskx_netdev *dev,
		  const struct xskx_xdp_request *req,
		  struct xskx_xdp_attachment *att)
{
	int err = attach_in(dev, req, req->mode, att);

	if (err == -EOPNOTSUPP && req->mode == XSKX_XDP_NATIVE &&
	    req->fallback) {
		xskx_warn(
			"'%s' has no native XDP support: the XDP program runs in generic (skb) mode",
			dev->name);
		err = attach_in(dev, req, XSKX_XDP_GENERIC, att);
		if (err)
			return attach_failed(dev, XSKX_XDP_GENERIC, err);
	} else if (err) {
		return attach_failed(dev, req->mode, err);
	}
	att->xsks_map_fd =
		bpf_object__find_map_fd_by_name(att->obj, XSKX_XSKMAP_NAME);
	err = claim(att);
	if (err) {
		xdp_program__detach(att->prog, dev->ifindex,
				    libxdp_mode(att->mode), 0);
		unload(att);
	}
	return err;
}

int xskx__xdp_acquire(const struct xskx_netdev *dev,
		      const struct xskx_xdp_request *req,
		      struct xskx_xdp_attachment **attp)
{
	struct xskx_xdp_attachment *att;
	struct xskx_libxdp_log saved;
	int err = 0;

	pthread_mutex_lock(&registry_lock);
	att = find_attachment(dev->ifindex);
	if (att) {
		bool fell_back = att->mode == XSKX_XDP_GENERIC && req->fallback;

		if (att->mode != req->mode && !fell_back)
			err = xskx__fail(
				-EBUSY,
				"the XDP program runs on '%s' in %s mode for this process's other sockets (native is unavailable if they fell back); open this one with xdp_mode %s, or with xdp_fallback",
				dev->name, mode_name(att->mode),
				mode_name(att->mode));
		else if (att->elf != req->obj)
			err = xskx__fail(
				-EBUSY,
				"this process's other sockets on '%s' use %s XDP program: open this one with the same opts.xdp_obj",
				dev->name, att->elf ? "their own" : "xskx's");
		else
			att->users++;
		goto out;
	}
	att = calloc(1, sizeof(*att));
	if (!att) {
		err = xskx__fail(-ENOMEM, "out of memory");
		goto out;
	}
	att->ifindex = dev->ifindex;
	att->netns = this_netns();
	att->pid = getpid();
	att->elf = req->obj;
	memcpy(att->ifname, dev->name, sizeof(att->ifname));

	xskx__libxdp_log_begin(&saved);
	err = clear_stale(dev);
	if (!err)
		err = attach(dev, req, att);
	xskx__libxdp_log_end(&saved);
	if (err) {
		free(att);
		att = NULL;
		goto out;
	}
	xskx_info("XDP program '%s' attached to '%s' in %s mode (id %u)",
		  xdp_program__name(att->prog), dev->name, mode_name(att->mode),
		  xdp_program__id(att->prog));
	att->users = 1;
	att->next = registry;
	registry = att;
out:
	pthread_mutex_unlock(&registry_lock);
	*attp = err ? NULL : att;
	return err;
}

static void detach(struct xskx_xdp_attachment *att)
{
	struct xskx_libxdp_log saved;
	int err;

	xskx__libxdp_log_begin(&saved);
	err = xdp_program__detach(att->prog, att->ifindex,
				  libxdp_mode(att->mode), 0);
	xskx__libxdp_log_end(&saved);
	/* Gone with its interface (deleted, or its namespace left) is fine. */
	if (err && err != -ENOENT && err != -ENODEV)
		xskx_warn(
			"detaching the XDP program from '%s': %s; remove it with 'ip link set dev %s xdp off'",
			att->ifname, xskx_strerror(-err), att->ifname);
	unload(att);
}

void xskx__xdp_release(struct xskx_xdp_attachment *att)
{
	pthread_mutex_lock(&registry_lock);
	if (--att->users) {
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	for (struct xskx_xdp_attachment **p = &registry; *p; p = &(*p)->next)
		if (*p == att) {
			*p = att->next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	detach(att);
	while (att->slots) {
		struct xsk_slot *slot = att->slots;

		att->slots = slot->next;
		free(slot);
	}
	free(att);
}

int xskx__xdp_add_socket(struct xskx_xdp_attachment *att, uint32_t queue, int fd)
{
	struct xsk_slot *slot = calloc(1, sizeof(*slot));
	int err = 0;

	if (!slot)
		return xskx__fail(-ENOMEM, "out of memory");
	pthread_mutex_lock(&registry_lock);
	if (bpf_map_update_elem(att->xsks_map_fd, &queue, &fd, BPF_ANY)) {
		err = -errno;
		free(slot);
	} else {
		slot->queue = queue;
		slot->fd = fd;
		slot->next = att->slots;
		att->slots = slot;
	}
	pthread_mutex_unlock(&registry_lock);
	if (err)
		return xskx__fail(
			err,
			"adding the socket of queue %u to the XSKMAP of '%s': %s",
			queue, att->ifname, xskx_strerror(-err));
	return 0;
}

void xskx__xdp_remove_socket(struct xskx_xdp_attachment *att, uint32_t queue,
			     int fd)
{
	struct xsk_slot **p, *gone = NULL, *next_owner = NULL;
	bool held_slot = true;

	pthread_mutex_lock(&registry_lock);
	for (p = &att->slots; *p; p = &(*p)->next) {
		if ((*p)->queue != queue)
			continue;
		if ((*p)->fd == fd) {
			gone = *p;
			*p = gone->next;
			break;
		}
		held_slot = false; /* a newer socket on the queue holds it */
	}
	if (gone && held_slot) {
		for (struct xsk_slot *s = gone->next; s && !next_owner;
		     s = s->next)
			if (s->queue == queue)
				next_owner = s;
		if (next_owner)
			bpf_map_update_elem(att->xsks_map_fd, &queue,
					    &next_owner->fd, BPF_ANY);
		else
			bpf_map_delete_elem(att->xsks_map_fd, &queue);
	}
	pthread_mutex_unlock(&registry_lock);
	free(gone);
}

enum xskx_xdp_mode xskx__xdp_mode_of(const struct xskx_xdp_attachment *att)
{
	return att->mode;
}

int xskx__xdp_prog_fd(const struct xskx_xdp_attachment *att)
{
	return xdp_program__fd(att->prog);
}
