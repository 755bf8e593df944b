// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "netns.h"

const uint8_t veth_mac_a[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
const uint8_t veth_mac_b[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

static void die(const char *what, int err)
{
	fprintf(stderr, "veth sandbox: %s: %s\n", what, strerror(err));
	exit(1);
}

/*
 * The only reasons to skip: a privilege the process lacks or a kernel
 * feature the kernel lacks, each checked before it is used and named.
 * Anything else that fails while setting up, as root, is a failure.
 */
static void skip_privilege(const char *missing)
{
	printf("SKIP: %s (veth tests need root with CAP_SYS_ADMIN and CAP_NET_ADMIN)\n",
	       missing);
	exit(VETH_TEST_SKIP);
}

static void skip_feature(const char *missing)
{
	printf("SKIP: the kernel has no %s\n", missing);
	exit(VETH_TEST_SKIP);
}

/* Capability cap in this process's effective set (/proc/self/status). */
static bool has_capability(unsigned int cap)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff = 0;
	char line[256];
	bool found = false;

	if (!f)
		die("/proc/self/status", errno);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	if (!found)
		die("/proc/self/status has no CapEff line", EINVAL);
	return eff >> cap & 1;
}

/* A file system type the kernel knows (/proc/filesystems). */
static bool has_filesystem(const char *type)
{
	FILE *f = fopen("/proc/filesystems", "r");
	char line[128], name[64];
	bool found = false;

	if (!f)
		die("/proc/filesystems", errno);
	while (!found && fgets(line, sizeof(line), f))
		found = (sscanf(line, "nodev %63s", name) == 1 ||
			 sscanf(line, "%63s", name) == 1) &&
			!strcmp(name, type);
	fclose(f);
	return found;
}

/* Write a sysctl of this network namespace; absent ones (no IPv6) are fine. */
static void write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0) {
		if (errno != ENOENT)
			die(path, errno);
		return;
	}
	if (write(fd, value, strlen(value)) < 0)
		die(path, errno);
	close(fd);
}

static struct nl_sock *route_socket(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk)
		return NULL;
	if (nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

static int errno_of(int nlerr)
{
	return nlerr == -NLE_EXIST	  ? -EEXIST :
	       nlerr == -NLE_OBJ_NOTFOUND ? -ENODEV :
	       nlerr == -NLE_PERM	  ? -EPERM :
					    -EIO;
}

static int link_up(struct nl_sock *sk, const char *name, uint32_t mtu)
{
	struct rtnl_link *link, *change;
	int err;

	err = rtnl_link_get_kernel(sk, 0, name, &link);
	if (err < 0)
		return errno_of(err);
	change = rtnl_link_alloc();
	if (!change) {
		rtnl_link_put(link);
		return -ENOMEM;
	}
	rtnl_link_set_flags(change, IFF_UP);
	if (mtu)
		rtnl_link_set_mtu(change, mtu);
	err = rtnl_link_change(sk, link, change, 0);
	rtnl_link_put(change);
	rtnl_link_put(link);
	return err < 0 ? errno_of(err) : 0;
}

void veth_sandbox_enter(void)
{
	struct nl_sock *sk;
	int err;

	if (geteuid() != 0)
		skip_privilege("not running as root");
	if (!has_capability(CAP_SYS_ADMIN))
		skip_privilege("root without CAP_SYS_ADMIN (a container?)");
	if (!has_capability(CAP_NET_ADMIN))
		skip_privilege("root without CAP_NET_ADMIN (a container?)");
	if (access("/proc/self/ns/net", F_OK))
		skip_feature("network namespaces (CONFIG_NET_NS): no /proc/self/ns/net");
	if (!has_filesystem("bpf"))
		skip_feature("BPF file system (CONFIG_BPF_SYSCALL): no bpf in /proc/filesystems");
	/* Privileged and able: from here on every failure is one. */
	if (unshare(CLONE_NEWNET | CLONE_NEWNS))
		die("unshare(CLONE_NEWNET | CLONE_NEWNS) as root", errno);
	/* Nothing mounted from here on leaks back to the host. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("making mounts private", errno);
	/* sysfs shows the interfaces of the namespace that mounts it. */
	if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		die("mounting sysfs", errno);
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
		die("mounting bpffs as root", errno);
	write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	write_sysctl("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");

	sk = route_socket();
	if (!sk)
		die("opening rtnetlink", EIO);
	err = link_up(sk, "lo", 0);
	nl_socket_free(sk);
	if (err)
		die("bringing lo up", -err);
}

static int set_mac(struct rtnl_link *link, const uint8_t mac[6])
{
	struct nl_addr *addr = nl_addr_build(AF_LLC, mac, 6);

	if (!addr)
		return -ENOMEM;
	rtnl_link_set_addr(link, addr);
	nl_addr_put(addr);
	return 0;
}

int veth_pair_create(const struct veth_pair_opts *o)
{
	uint32_t queues = o->queues ? o->queues : 1;
	uint32_t tx_queues = o->tx_queues ? o->tx_queues : queues;
	uint32_t mtu = o->mtu ? o->mtu : 1500;
	struct rtnl_link *link, *peer;
	struct nl_sock *sk;
	int err;

	sk = route_socket();
	if (!sk)
		return -EIO;
	link = rtnl_link_veth_alloc();
	if (!link) {
		nl_socket_free(sk);
		return -ENOMEM;
	}
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, o->name);
	rtnl_link_set_name(peer, o->peer);
	rtnl_link_set_num_rx_queues(link, queues);
	rtnl_link_set_num_tx_queues(link, tx_queues);
	rtnl_link_set_num_rx_queues(peer, queues);
	rtnl_link_set_num_tx_queues(peer, tx_queues);
	rtnl_link_set_mtu(link, mtu);
	rtnl_link_set_mtu(peer, mtu);
	err = set_mac(link, veth_mac_a);
	if (!err)
		err = set_mac(peer, veth_mac_b);
	if (!err) {
		err = rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL);
		if (err < 0) {
			fprintf(stderr, "veth sandbox: creating %s/%s: %s\n",
				o->name, o->peer, nl_geterror(err));
			err = errno_of(err);
		}
	}
	rtnl_link_put(peer);
	rtnl_link_veth_release(link);
	if (!err)
		err = link_up(sk, o->name, 0);
	if (!err)
		err = link_up(sk, o->peer, 0);
	nl_socket_free(sk);
	if (err)
		fprintf(stderr, "veth sandbox: veth pair %s/%s: %s\n", o->name,
			o->peer, strerror(-err));
	return err;
}

int veth_pair_delete(const char *name)
{
	struct rtnl_link *link;
	struct nl_sock *sk = route_socket();
	int err;

	if (!sk)
		return -EIO;
	link = rtnl_link_alloc();
	if (!link) {
		nl_socket_free(sk);
		return -ENOMEM;
	}
	rtnl_link_set_name(link, name);
	err = rtnl_link_delete(sk, link);
	rtnl_link_put(link);
	nl_socket_free(sk);
	return err < 0 ? errno_of(err) : 0;
}

int veth_link_set_mtu(const char *name, uint32_t mtu)
{
	struct nl_sock *sk = route_socket();
	int err;

	if (!sk)
		return -EIO;
	err = link_up(sk, name, mtu);
	nl_socket_free(sk);
	return err;
}

int veth_link_move_to_netns_of(const char *name, pid_t pid)
{
	struct nl_sock *sk = route_socket();
	struct rtnl_link *link, *change;
	int err;

	if (!sk)
		return -EIO;
	err = rtnl_link_get_kernel(sk, 0, name, &link);
	if (err < 0) {
		nl_socket_free(sk);
		return errno_of(err);
	}
	change = rtnl_link_alloc();
	if (change) {
		rtnl_link_set_ns_pid(change, pid);
		err = rtnl_link_change(sk, link, change, 0);
		err = err < 0 ? errno_of(err) : 0;
		rtnl_link_put(change);
	} else {
		err = -ENOMEM;
	}
	rtnl_link_put(link);
	nl_socket_free(sk);
	return err;
}
