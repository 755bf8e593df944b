// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One XDP program on an interface for every xskx process using it.
 *
 * The program is found on the device (libxdp's view: the program alone, or
 * each program in its dispatcher) and recognised by its maps; its maps are
 * reached from the program (program id -> map ids), never pinned, so that
 * nothing outlives the program and no bpffs is needed. Who uses it is the
 * owner map (bpf/xskx_shared.h): the program's record, and one entry per
 * process, serving or closing.
 *
 * Crash safety. A program on the device always has its record and at least
 * one entry naming a process (pid, pid namespace, start time: owner.c), for
 * its first user claims it before attaching it (xdp_load.c). A program with
 * no living user is stale whatever its entries say, and the next process
 * replaces it; so every step below can die with kill -9 and leave the
 * interface usable at once. The steps, and what a crash there leaves:
 *
 *   attach (first user, xdp_load.c)
 *     1 open and load the object      nothing: its fds die with it
 *     2 write the program's record    nothing (not on the device)
 *     3 write its own "serving" entry nothing
 *     4 bind the owner maps           nothing
 *     5 attach to the device          a program naming a dead user: stale
 *     6 check it is the one there     likewise
 *   join (join() below)
 *     1 hold the program and maps     the program as it was
 *     2 count the users (reaping the dead's entries)   likewise
 *     3 write "serving"               a dead entry beside living ones: the
 *                                     next census reaps it; the last one
 *                                     alone: stale
 *     4 count again, look for "closing", check the device   likewise
 *   serve: sockets in the XSKMAP      the kernel takes a closed socket out
 *                                     of the map; the queue owner map's
 *                                     entry names a dead process: ignored
 *   leave (xskx__xdp_leave(), xdp_on_device.c)
 *     1 write "closing"               a dead entry: stale if it was the last
 *     2 count the users               likewise
 *     3 detach if none serves         the program gone (its maps with it)
 *     4 remove its own entry          likewise
 *   replace a stale program (replace_stale()): the leave's steps.
 *
 * An older xskx claimed its program after attaching it; a program of it
 * without its record is removed once it is older than a grace period
 * (unclaimed()).
 *
 * Joining and detaching race: a process about to detach the program as its
 * last user must not miss one that is joining it. Both write their own
 * entry first and read everyone's afterwards (each map operation is a
 * syscall, ordered): a joiner writes "serving" then looks for a living
 * "closing"; a leaver writes "closing" then looks for a living "serving".
 * At least one of the two sees the other: the leaver keeps the program
 * attached, or the joiner steps back and looks again (it then finds the
 * program gone and attaches its own, or finds it kept and joins it). A
 * leaver removes its "closing" entry only after detaching, so a joiner that
 * found no such entry and then still finds the program on the device has
 * joined it for good. A process replacing a program with no living user
 * follows the leaver's steps. Two first users attaching at once: the
 * kernel refuses the second attach and the loser joins. The detach itself
 * names the program it removes (XDP_FLAGS_REPLACE, or libxdp replacing the
 * one it read, atomically), so a late detach never removes a successor.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xdp/libxdp.h>

#include "log_internal.h"
#include "owner.h"
#include "owner_set.h"
#include "sleep_ms.h"
#include "xdp_attachment.h"
#include "xdp_device.h"
#include "xdp_load.h"
#include "xdp_on_device.h"
#include "xdp_share.h"

/* Doubling sleeps from 1 ms, at most 32: about a second in all. */
#define SHARE_ATTEMPTS 40
#define BACKOFF_MAX_MS 32
/* Well inside the retries above, so that one open outlasts it. */
#define UNCLAIMED_GRACE_MS 500

/* The kernel keeps BPF_OBJ_NAME_LEN - 1 characters of a map's name. */
_Static_assert(sizeof(XSKX_OWNER_MAP_NAME) <= 16 &&
		       sizeof(XSKX_XSKMAP_NAME) <= 16 &&
		       sizeof(XSKX_QUEUE_OWNER_MAP_NAME) <= 16 &&
		       sizeof(XSKX_NO_SOCKET_MAP_NAME) <= 16,
	       "a map name the kernel would cut short: found by name, never");

/* Why an attempt to share had to be made again. */
enum retry_reason {
	RETRY_RACE,	  /* the device changed while we looked */
	RETRY_SETTING_UP, /* a program without its owner record (yet) */
	RETRY_CLOSING,	  /* its last user is detaching it */
};

int xskx__xdp_refuse_different(const struct xskx_netdev *dev,
			       const struct xskx_xdp_request *req,
			       enum xskx_xdp_mode mode,
			       const struct xskx_owner_entry *program,
			       const char *users)
{
	struct xskx_owner_entry wanted;
	bool fell_back = mode == XSKX_XDP_GENERIC && req->fallback;

	if (mode != req->mode && !fell_back)
		return xskx__fail(
			-EBUSY,
			"the XDP program serving %s on '%s' runs in %s mode (native is unavailable if they fell back): open this process's port with xdp_mode %s, or with xdp_fallback",
			users, dev->name, xskx__xdp_mode_name(mode),
			mode == XSKX_XDP_NATIVE ? "XSKX_XDP_NATIVE" :
						  "XSKX_XDP_GENERIC");
	xskx__xdp_program_of(req, &wanted);
	if (wanted.obj_digest != program->obj_digest)
		return xskx__fail(
			-EBUSY,
			"the XDP program serving %s on '%s' was loaded from another object than this port's (%s): open the port with the same xdp_obj, under the same xskx version",
			users, dev->name,
			req->obj ? "the object in its xdp_obj" :
				   "xskx's own program");
	if ((wanted.flags ^ program->flags) & XSKX_OWNER_RX_META)
		return xskx__fail(
			-EBUSY,
			"the XDP program serving %s on '%s' was loaded %s RX metadata (XSKX_PORT_RX_METADATA), which this port %s: open every port on '%s' with the same XSKX_PORT_RX_METADATA",
			users, dev->name,
			program->flags & XSKX_OWNER_RX_META ? "with" : "without",
			wanted.flags & XSKX_OWNER_RX_META ? "asks for" :
							    "does not ask for",
			dev->name);
	if ((wanted.flags & XSKX_OWNER_FRAGS) &&
	    !(program->flags & XSKX_OWNER_FRAGS))
		return xskx__fail(
			-EBUSY,
			"the XDP program serving %s on '%s' was loaded without multi-buffer support (xdp.frags), which this socket's XSKX_SOCKET_MULTI_BUFFER needs: open this socket without it, or every socket on '%s' with it",
			users, dev->name, dev->name);
	return 0;
}

/* The program and its maps by fds of our own. -EAGAIN: gone, or not set up. */
static int hold(uint32_t id, struct xskx_xdp_attachment *att)
{
	att->prog_fd = bpf_prog_get_fd_by_id(id);
	if (att->prog_fd < 0)
		return -EAGAIN;
	att->prog_id = id;
	att->owner_map_fd = xskx__prog_map_fd(att->prog_fd, XSKX_OWNER_MAP_NAME);
	att->xsks_map_fd = xskx__prog_map_fd(att->prog_fd, XSKX_XSKMAP_NAME);
	att->queue_owner_map_fd =
		xskx__prog_map_fd(att->prog_fd, XSKX_QUEUE_OWNER_MAP_NAME);
	/* Optional (a program of yours may not count): -1 without it. */
	att->no_socket_map_fd =
		xskx__prog_map_fd(att->prog_fd, XSKX_NO_SOCKET_MAP_NAME);
	if (att->owner_map_fd < 0 || att->xsks_map_fd < 0 ||
	    att->queue_owner_map_fd < 0)
		return -EAGAIN;
	return 0;
}

static void name_users(const struct xskx_owner_census *census, char *buf,
		       size_t size)
{
	char who[64];

	if (!census->serving) {
		snprintf(buf, size, "no living process");
		return;
	}
	xskx__owner_name(&census->user, who, sizeof(who));
	if (census->serving == 1)
		snprintf(buf, size, "%s", who);
	else
		snprintf(buf, size, "%s and %u other processes", who,
			 census->serving - 1);
}

/*
 * No living user (kill -9 leaves the program attached with its users'
 * entries, or with none once a process that died replacing it removed
 * them): remove the program, as its last user would have, for a fresh one
 * to replace it.
 */
static int replace_stale(struct xskx_xdp_attachment *att)
{
	struct xskx_owner_census census;

	xskx_info(
		"replacing the XDP program (id %u) left on '%s' by xskx processes that are gone",
		att->prog_id, att->ifname);
	if (xskx__owners_enter(att->owner_map_fd, XSKX_OWNER_CLOSING))
		return -EAGAIN;
	if (!xskx__owners_census(att->owner_map_fd, &census) &&
	    !census.serving)
		xskx__xdp_detach_id(att->ifname, att->ifindex, att->prog_id);
	xskx__owners_leave(att->owner_map_fd);
	return -EAGAIN;
}

/* How long ago the program behind prog_fd was loaded; -1 if unknown. */
static int64_t loaded_ms_ago(int prog_fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	struct timespec now;

	/* load_time counts from boot, suspended time included. */
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) ||
	    clock_gettime(CLOCK_BOOTTIME, &now))
		return -1;
	return ((int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
		(int64_t)info.load_time) /
	       1000000;
}

/*
 * An xskx program without the record of its users: attached by an xskx
 * that claimed its program only after attaching it, whose process is
 * between the two or died there. This xskx never attaches one so, and such
 * a process takes a few syscalls: past UNCLAIMED_GRACE_MS after the load,
 * nobody will claim it. Remove it, for a fresh one to replace it.
 */
static int unclaimed(struct xskx_xdp_attachment *att, enum retry_reason *why)
{
	int64_t age = att->prog_fd < 0 ? -1 : loaded_ms_ago(att->prog_fd);

	if (age < UNCLAIMED_GRACE_MS)
		return -EAGAIN;
	xskx_info(
		"replacing the XDP program (id %u) on '%s': it has no record of its users %lld ms after it was loaded (an older xskx died attaching it)",
		att->prog_id, att->ifname, (long long)age);
	xskx__xdp_detach_id(att->ifname, att->ifindex, att->prog_id);
	*why = RETRY_RACE;
	return -EAGAIN;
}

static int census_failed(const struct xskx_xdp_attachment *att, int err)
{
	return xskx__fail(err,
			  "reading the users of the XDP program on '%s': %s",
			  att->ifname, xskx_strerror(-err));
}

static int join(const struct xskx_netdev *dev,
		const struct xskx_xdp_request *req, uint32_t id,
		enum xskx_xdp_mode mode, struct xskx_xdp_attachment *att,
		enum retry_reason *why)
{
	struct xskx_owner_census census;
	char users[128];
	int err;

	*why = RETRY_SETTING_UP;
	if (hold(id, att))
		return unclaimed(att, why);
	if (xskx__owners_check_layout(att->owner_map_fd))
		return xskx__fail(
			-EBUSY,
			"'%s' has the XDP program of another xskx version (id %u), which this one cannot share: stop the processes using it, or remove it with 'ip link set dev %s xdp off' if none is left",
			dev->name, id, dev->name);
	if (xskx__owners_program(att->owner_map_fd, &att->program))
		return unclaimed(att, why);
	err = xskx__owners_census(att->owner_map_fd, &census);
	if (err)
		return census_failed(att, err);
	if (!census.serving && !census.closing) {
		*why = RETRY_RACE;
		return replace_stale(att);
	}
	name_users(&census, users, sizeof(users));
	err = xskx__xdp_refuse_different(dev, req, mode, &att->program, users);
	if (err)
		return err;
	err = xskx__owners_enter(att->owner_map_fd, XSKX_OWNER_SERVING);
	if (err == -ENOSPC)
		return xskx__fail(
			-EBUSY,
			"the XDP program on '%s' already serves %u processes, as many as it records",
			dev->name, XSKX_OWNER_MAP_ENTRIES);
	if (err)
		return census_failed(att, err);
	err = xskx__owners_census(att->owner_map_fd, &census);
	if (err || census.closing) {
		xskx__owners_leave(att->owner_map_fd);
		*why = RETRY_CLOSING;
		return err ? census_failed(att, err) : -EAGAIN;
	}
	/*
	 * A leaver that missed our entry detaches before it removes its own:
	 * if we missed its entry too, the program is gone from the device.
	 */
	if (xskx__xdp_find(dev->ifindex, &mode) != id) {
		xskx__owners_leave(att->owner_map_fd);
		*why = RETRY_RACE;
		return -EAGAIN;
	}
	att->mode = mode;
	xskx_info("joined the XDP program (id %u, %s mode) serving %s on '%s'",
		  id, xskx__xdp_mode_name(mode), users, dev->name);
	xskx__xdp_log_rx_meta(dev, att);
	return 0;
}

static int gave_up(const struct xskx_netdev *dev, enum retry_reason why)
{
	switch (why) {
	case RETRY_SETTING_UP:
		return xskx__fail(
			-EBUSY,
			"'%s' has an xskx XDP program whose users cannot be read (an older xskx attaching it, or not an xskx program at all): if no xskx process uses '%s', remove it with 'ip link set dev %s xdp off'",
			dev->name, dev->name, dev->name);
	case RETRY_CLOSING:
		return xskx__fail(
			-EBUSY,
			"the XDP program on '%s' was being detached by its last user all along: try again",
			dev->name);
	case RETRY_RACE:
		break;
	}
	return xskx__fail(
		-EBUSY,
		"the XDP programs on '%s' kept changing while this process tried to share or attach one: try again",
		dev->name);
}

int xskx__xdp_share(const struct xskx_netdev *dev,
		    const struct xskx_xdp_request *req,
		    struct xskx_xdp_attachment *att)
{
	enum retry_reason why = RETRY_RACE;
	unsigned int backoff_ms = 1;

	for (int attempt = 0; attempt < SHARE_ATTEMPTS; attempt++) {
		enum xskx_xdp_mode mode;
		uint32_t id = xskx__xdp_find(dev->ifindex, &mode);
		int err;

		why = RETRY_RACE;
		err = id ? join(dev, req, id, mode, att, &why) :
			   xskx__xdp_attach_new(dev, req, att);
		if (err != -EAGAIN) {
			if (err)
				xskx__xdp_close_fds(att);
			return err;
		}
		xskx__xdp_close_fds(att);
		xskx__sleep_ms(backoff_ms);
		if (backoff_ms < BACKOFF_MAX_MS)
			backoff_ms *= 2;
	}
	return gave_up(dev, why);
}
