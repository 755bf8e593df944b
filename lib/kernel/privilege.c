// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Capabilities and memory limits, checked before the operations need them. */
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log_internal.h"
#include "privilege.h"

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* The effective set, by the raw syscall: no libcap for two bits. */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

int xskx__privilege_attach(const char *ifname)
{
	const char *lacks = NULL;

	if (!has_cap(CAP_NET_ADMIN))
		lacks = "CAP_NET_ADMIN";
	else if (!has_cap(CAP_SYS_ADMIN) && !has_cap(CAP_BPF))
		lacks = "CAP_BPF (or CAP_SYS_ADMIN)";
	if (!lacks)
		return 0;
	return xskx__fail(
		-EPERM,
		"attaching xskx's XDP program to '%s' needs CAP_NET_ADMIN and CAP_BPF (joining another process's, CAP_SYS_ADMIN); this process lacks %s. Without them, have a privileged process (a node agent, the AF_XDP device plugin) attach a program, and open the port with its XSKMAP: opts.xskmap_fd, xskmap_pin or xskmap_uds (docs/CONTAINERS.md); sending alone (XSKX_SOCKET_NO_RX) attaches nothing",
		ifname, lacks);
}

int xskx__privilege_socket(void)
{
	if (has_cap(CAP_NET_RAW))
		return 0;
	return xskx__fail(
		-EPERM,
		"AF_XDP sockets need CAP_NET_RAW, which this process lacks: grant it (a container's securityContext capabilities: add NET_RAW), or run as root");
}

int xskx__privilege_memlock(uint64_t size)
{
	struct rlimit lim;

	if (has_cap(CAP_IPC_LOCK) || getrlimit(RLIMIT_MEMLOCK, &lim) ||
	    lim.rlim_cur == RLIM_INFINITY || size <= lim.rlim_cur)
		return 0;
	return xskx__fail(
		-ENOMEM,
		"registering a UMEM of %llu bytes: the kernel charges it to RLIMIT_MEMLOCK, %llu bytes here, as this process lacks CAP_IPC_LOCK: raise the limit (ulimit -l, systemd's LimitMEMLOCK=, a container runtime's memlock ulimit), make the UMEM smaller (frame_count), or grant CAP_IPC_LOCK",
		(unsigned long long)size, (unsigned long long)lim.rlim_cur);
}

const char *xskx__privilege_memlock_hint(int err)
{
	if ((err != -ENOBUFS && err != -ENOMEM) || has_cap(CAP_IPC_LOCK))
		return "";
	return " (without CAP_IPC_LOCK the UMEM counts against RLIMIT_MEMLOCK together with this user's other locked memory, and a memory cgroup's limit applies too: raise them, or make the UMEM smaller)";
}
