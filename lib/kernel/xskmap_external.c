// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Finding and checking an XSKMAP attached by someone else. Everything here
 * works without CAP_BPF or CAP_SYS_ADMIN on kernels that let a process use
 * a map it holds by fd (6.5 and later, whatever
 * kernel.unprivileged_bpf_disabled says; before 6.5 only with that sysctl
 * at 0): BPF_OBJ_GET needs the pinned file's permissions, reading the
 * map's info and updating its entries need the fd alone.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <unistd.h>

#include "log_internal.h"
#include "device_plugin.h"
#include "xskmap_external.h"

bool xskx__xskmap_external_asked(const struct xskx_port_opts *opts)
{
	return (opts->flags & XSKX_PORT_XSKMAP_FD) || opts->xskmap_pin ||
	       opts->xskmap_uds;
}

/* Why a bpf() call on someone else's map failed, and what to do. */
static const char *bpf_denied_fix(int err)
{
	if (err != -EPERM && err != -EACCES)
		return "";
	return " (a kernel before 6.5 refuses map operations without CAP_BPF unless kernel.unprivileged_bpf_disabled is 0; a pinned map also needs read and write permission on its file)";
}

static int check_xskmap(int fd, const char *what, uint32_t *entries)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		int err = -errno;

		return xskx__fail(err, "port: reading the map of %s: %s%s",
				  what, xskx_strerror(-err),
				  bpf_denied_fix(err));
	}
	if (info.type != BPF_MAP_TYPE_XSKMAP)
		return xskx__fail(
			-EINVAL,
			"port: the map of %s is not an XSKMAP (type %u, '%s'): give the map the attached program redirects with",
			what, info.type, info.name);
	*entries = info.max_entries;
	return 0;
}

int xskx__xskmap_external_open(const struct xskx_port_opts *opts,
			       const char *ifname, int *fdp, uint32_t *entries)
{
	char what[320];
	int fd, err;

	if (opts->flags & XSKX_PORT_XSKMAP_FD) {
		snprintf(what, sizeof(what), "opts.xskmap_fd %d",
			 opts->xskmap_fd);
		fd = fcntl(opts->xskmap_fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return xskx__fail(-errno, "port: %s: %s", what,
					  xskx_strerror(errno));
	} else if (opts->xskmap_pin) {
		snprintf(what, sizeof(what), "opts.xskmap_pin '%s'",
			 opts->xskmap_pin);
		fd = bpf_obj_get(opts->xskmap_pin);
		if (fd < 0) {
			err = -errno;
			return xskx__fail(
				err,
				"port: %s: %s (is the bpffs where the map is pinned mounted here, and the file readable and writable by this user?)%s",
				what, xskx_strerror(-err),
				err == -EPERM ? bpf_denied_fix(err) : "");
		}
	} else {
		snprintf(what, sizeof(what),
			 "the device plugin's socket '%s' for '%s'",
			 opts->xskmap_uds, ifname);
		err = xskx__device_plugin_xskmap(opts->xskmap_uds, ifname, &fd);
		if (err)
			return err;
	}
	err = check_xskmap(fd, what, entries);
	if (err) {
		close(fd);
		return err;
	}
	*fdp = fd;
	return 0;
}
