// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Finding a veth's peer and asking whether it offloads TX checksums.
 *
 * rtnetlink names the peer by its ifindex (IFLA_LINK) and, when it lives
 * in another network namespace, by the id this namespace gave that one
 * (IFLA_LINK_NETNSID). An id is not a handle: the namespace is found by
 * asking, for each namespace that /run/netns or a process holds, which id
 * it has here (RTM_GETNSID with NETNSA_FD). A short-lived thread then
 * enters it to make a socket there, because SIOCETHTOOL answers for the
 * socket's namespace; the caller's threads never change namespace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/net_namespace.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "veth_peer.h"

/*
 * Namespaces looked at before giving up: a host with more distinct
 * namespaces than this (each process of a container shares its
 * container's) leaves the peer unknown rather than slowing xskx_port_open.
 */
#define MAX_NAMESPACES 1024

struct peer_link {
	uint32_t ifindex;
	int32_t netnsid; /* NETNSA_NSID_NOT_ASSIGNED: this namespace */
};

/* True when ifname is a veth; its peer's ifindex and namespace id. */
static bool veth_link(struct nl_sock *sk, const char *ifname,
		      struct peer_link *out)
{
	struct rtnl_link *link;
	const char *kind;
	bool veth;

	if (rtnl_link_get_kernel(sk, 0, ifname, &link) < 0)
		return false;
	kind = rtnl_link_get_type(link);
	veth = kind && !strcmp(kind, "veth") && rtnl_link_get_link(link) > 0;
	if (veth) {
		out->ifindex = (uint32_t)rtnl_link_get_link(link);
		if (rtnl_link_get_link_netnsid(link, &out->netnsid) < 0)
			out->netnsid = NETNSA_NSID_NOT_ASSIGNED;
	}
	rtnl_link_put(link);
	return veth;
}

struct nsid_reply {
	int32_t nsid;
	bool answered;
};

static int on_nsid(struct nl_msg *msg, void *ctx)
{
	struct nsid_reply *reply = ctx;
	struct nlattr *tb[NETNSA_MAX + 1];

	if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct rtgenmsg), tb,
			NETNSA_MAX, NULL) == 0 &&
	    tb[NETNSA_NSID]) {
		reply->nsid = (int32_t)nla_get_u32(tb[NETNSA_NSID]);
		reply->answered = true;
	}
	return NL_STOP;
}

/* The id this namespace gives the namespace nsfd refers to; -1 if none. */
static int32_t nsid_of(struct nl_sock *sk, int nsfd)
{
	struct rtgenmsg hdr = { .rtgen_family = AF_UNSPEC };
	struct nsid_reply reply = { .nsid = NETNSA_NSID_NOT_ASSIGNED };
	struct nl_msg *msg;

	msg = nlmsg_alloc_simple(RTM_GETNSID, NLM_F_REQUEST);
	if (!msg)
		return NETNSA_NSID_NOT_ASSIGNED;
	if (nlmsg_append(msg, &hdr, sizeof(hdr), NLMSG_ALIGNTO) == 0 &&
	    nla_put_u32(msg, NETNSA_FD, (uint32_t)nsfd) == 0 &&
	    nl_send_auto(sk, msg) >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_nsid,
				    &reply);
		/* One reply, or an error for a namespace it cannot name. */
		nl_recvmsgs_default(sk);
	}
	nlmsg_free(msg);
	return reply.answered ? reply.nsid : NETNSA_NSID_NOT_ASSIGNED;
}

struct ns_search {
	struct nl_sock *sk;
	int32_t nsid;
	ino_t seen[MAX_NAMESPACES];
	unsigned int nseen;
	int found; /* an open fd of the namespace, or -1 */
};

/* Try one namespace file; true when the search is over. */
static bool try_namespace(struct ns_search *s, const char *path)
{
	struct stat st;
	unsigned int i;
	int fd;

	if (s->nseen == MAX_NAMESPACES)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st)) {
		close(fd);
		return false;
	}
	for (i = 0; i < s->nseen; i++)
		if (s->seen[i] == st.st_ino) {
			close(fd);
			return false;
		}
	s->seen[s->nseen++] = st.st_ino;
	if (nsid_of(s->sk, fd) == s->nsid) {
		s->found = fd;
		return true;
	}
	close(fd);
	return false;
}

/* Every entry of dir, as dir/NAME/suffix (suffix "" for dir/NAME). */
static bool search_dir(struct ns_search *s, const char *dir,
		       const char *suffix, bool pids_only)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool over = false;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return false;
	while (!over && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    (pids_only && (de->d_name[0] < '0' || de->d_name[0] > '9')))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s%s", dir, de->d_name,
			     suffix) >= (int)sizeof(path))
			continue;
		over = try_namespace(s, path);
	}
	closedir(d);
	return over;
}

/* An open fd of the namespace this one calls nsid, or -1. */
static int find_namespace(struct nl_sock *sk, int32_t nsid)
{
	struct ns_search search = { .sk = sk, .nsid = nsid, .found = -1 };

	if (!search_dir(&search, "/run/netns", "", false))
		search_dir(&search, "/proc", "/ns/net", true);
	return search.found;
}

struct socket_in {
	int nsfd;
	int sock; /* made in that namespace, or -1 */
};

static void *make_socket_in(void *arg)
{
	struct socket_in *in = arg;

	/* This thread alone moves; it ends right after. */
	if (setns(in->nsfd, CLONE_NEWNET) == 0)
		in->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return NULL;
}

/* A socket in the namespace nsfd refers to, or -1 (no CAP_SYS_ADMIN). */
static int socket_in_namespace(int nsfd)
{
	struct socket_in in = { .nsfd = nsfd, .sock = -1 };
	pthread_t thread;

	if (pthread_create(&thread, NULL, make_socket_in, &in))
		return -1;
	pthread_join(thread, NULL);
	return in.sock;
}

/* Ask sock's namespace for ifindex's name and TX checksum offload. */
static void ask_tx_csum(int sock, struct xskx_veth_peer *peer)
{
	struct ethtool_value value = { .cmd = ETHTOOL_GTXCSUM };
	struct ifreq ifr = { .ifr_ifindex = (int)peer->ifindex };

	if (ioctl(sock, SIOCGIFNAME, &ifr))
		return;
	memcpy(peer->name, ifr.ifr_name, sizeof(peer->name));
	peer->name[sizeof(peer->name) - 1] = '\0';
	ifr.ifr_data = (void *)&value;
	if (ioctl(sock, SIOCETHTOOL, &ifr) == 0)
		peer->tx_csum = value.data ? XSKX_PEER_TX_CSUM_ON :
					     XSKX_PEER_TX_CSUM_OFF;
}

void xskx__veth_peer_query(const char *ifname, struct xskx_veth_peer *peer)
{
	struct peer_link link;
	struct nl_sock *sk;
	int nsfd = -1;
	int sock = -1;

	memset(peer, 0, sizeof(*peer));
	sk = nl_socket_alloc();
	if (!sk)
		return;
	/* Each RTM_GETNSID gets its one reply and no ACK to read past. */
	nl_socket_disable_auto_ack(sk);
	if (nl_connect(sk, NETLINK_ROUTE) < 0 || !veth_link(sk, ifname, &link))
		goto out;
	peer->ifindex = link.ifindex;
	peer->other_netns = link.netnsid != NETNSA_NSID_NOT_ASSIGNED;
	if (!peer->other_netns) {
		sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	} else {
		nsfd = find_namespace(sk, link.netnsid);
		if (nsfd >= 0)
			sock = socket_in_namespace(nsfd);
	}
	if (sock >= 0)
		ask_tx_csum(sock, peer);
out:
	if (sock >= 0)
		close(sock);
	if (nsfd >= 0)
		close(nsfd);
	nl_socket_free(sk);
}
