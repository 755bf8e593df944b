// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Interface facts over netlink: the link (ifindex, MTU, flags, queue counts)
 * from rtnetlink, the active channels from the ethtool family and the XDP
 * and XDP RX metadata features from the netdev family. A family the kernel lacks leaves its
 * facts at their fallback; only a missing interface or a broken netlink
 * socket is an error. The link's packet counters too, for
 * xskx_netdev_stats().
 */
#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <net/if.h>
#include <stdio.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <string.h>
#include <xskx/kernel.h>

#include "api.h"
#include "genl.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "netdev.h"
#include "netdev_family.h"

static int query_link(struct nl_sock *sk, const char *ifname,
		      struct xskx_netdev *dev)
{
	struct rtnl_link *link;
	unsigned int flags;
	int err;

	err = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (err == -NLE_OBJ_NOTFOUND || err == -NLE_NODEV)
		return xskx__fail(
			-ENODEV,
			"no network interface named '%s' in this network namespace",
			ifname);
	if (err < 0)
		return xskx__fail(xskx__errno_from_nl(err),
				  "reading interface '%s' over rtnetlink: %s",
				  ifname, nl_geterror(err));

	dev->ifindex = rtnl_link_get_ifindex(link);
	dev->mtu = rtnl_link_get_mtu(link);
	flags = rtnl_link_get_flags(link);
	dev->up = flags & IFF_UP;
	dev->running = flags & IFF_RUNNING;
	dev->rx_queues = rtnl_link_get_num_rx_queues(link);
	dev->tx_queues = rtnl_link_get_num_tx_queues(link);
	rtnl_link_put(link);
	return 0;
}

struct channels {
	uint32_t rx, tx, combined;
};

static void parse_channels(struct nlattr **tb, void *arg)
{
	struct channels *ch = arg;

	if (tb[ETHTOOL_A_CHANNELS_RX_COUNT])
		ch->rx = nla_get_u32(tb[ETHTOOL_A_CHANNELS_RX_COUNT]);
	if (tb[ETHTOOL_A_CHANNELS_TX_COUNT])
		ch->tx = nla_get_u32(tb[ETHTOOL_A_CHANNELS_TX_COUNT]);
	if (tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT])
		ch->combined =
			nla_get_u32(tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT]);
}

/*
 * The active channels bound what a socket can bind to: a NIC allocates more
 * queues than it runs. Drivers without channel support keep the link's
 * queue counts.
 */
static void query_channels(struct nl_sock *sk, struct xskx_netdev *dev)
{
	struct xskx_genl_reply reply = { .parse = parse_channels,
				    .maxattr = ETHTOOL_A_CHANNELS_MAX };
	struct channels ch = { 0 };
	struct nlattr *header;
	struct nl_msg *msg;
	int family;

	family = genl_ctrl_resolve(sk, ETHTOOL_GENL_NAME);
	if (family < 0)
		return;
	msg = nlmsg_alloc();
	if (!msg)
		return;
	reply.arg = &ch;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
			 ETHTOOL_MSG_CHANNELS_GET, ETHTOOL_GENL_VERSION))
		goto out;
	header = nla_nest_start(msg, ETHTOOL_A_CHANNELS_HEADER | NLA_F_NESTED);
	if (!header ||
	    nla_put_u32(msg, ETHTOOL_A_HEADER_DEV_INDEX, dev->ifindex) < 0)
		goto out;
	nla_nest_end(msg, header);
	if (xskx__genl_transact(sk, msg, &reply) < 0)
		goto out;
	if (ch.combined + ch.rx)
		dev->rx_queues = ch.combined + ch.rx;
	if (ch.combined + ch.tx)
		dev->tx_queues = ch.combined + ch.tx;
out:
	nlmsg_free(msg);
}

static void parse_netdev(struct nlattr **tb, void *arg)
{
	struct xskx_netdev *dev = arg;

	if (tb[NETDEV_A_DEV_XDP_FEATURES]) {
		dev->xdp_features = nla_get_u64(tb[NETDEV_A_DEV_XDP_FEATURES]);
		dev->xdp_features_known = true;
	}
	if (tb[NETDEV_A_DEV_XDP_ZC_MAX_SEGS])
		dev->zc_max_segs = nla_get_u32(tb[NETDEV_A_DEV_XDP_ZC_MAX_SEGS]);
	if (tb[NETDEV_A_DEV_XDP_RX_METADATA_FEATURES])
		dev->xdp_rx_metadata =
			nla_get_u64(tb[NETDEV_A_DEV_XDP_RX_METADATA_FEATURES]);
	if (tb[NETDEV_A_DEV_XSK_FEATURES])
		dev->xsk_features = nla_get_u64(tb[NETDEV_A_DEV_XSK_FEATURES]);
}

static void query_xdp_features(struct nl_sock *sk, struct xskx_netdev *dev)
{
	struct xskx_genl_reply reply = { .parse = parse_netdev,
				    .arg = dev,
				    .maxattr = NETDEV_A_DEV_MAX };
	struct nl_msg *msg;
	int family;

	family = genl_ctrl_resolve(sk, NETDEV_FAMILY);
	if (family < 0) {
		xskx_debug(
			"kernel has no netdev netlink family: zero-copy support of '%s' unknown",
			dev->name);
		return;
	}
	msg = nlmsg_alloc();
	if (!msg)
		return;
	if (genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
			NETDEV_CMD_DEV_GET, NETDEV_VERSION) &&
	    nla_put_u32(msg, NETDEV_A_DEV_IFINDEX, dev->ifindex) == 0)
		xskx__genl_transact(sk, msg, &reply);
	nlmsg_free(msg);
}

/* MAX_SKB_FRAGS of a kernel whose sysctl cannot be read. */
#define DEFAULT_MAX_SKB_FRAGS 17u

uint32_t xskx__copy_max_frags(void)
{
	FILE *f = fopen("/proc/sys/net/core/max_skb_frags", "r");
	unsigned int frags = 0;

	if (f) {
		if (fscanf(f, "%u", &frags) != 1)
			frags = 0;
		fclose(f);
	}
	if (!frags) {
		xskx_debug("net.core.max_skb_frags unreadable: assuming %u",
			   DEFAULT_MAX_SKB_FRAGS);
		frags = DEFAULT_MAX_SKB_FRAGS;
	}
	/* The skb's linear part holds the first buffer. */
	return frags + 1;
}

/* A connected rtnetlink socket in *sk, or a negative errno, logged. */
static int open_rtnetlink(struct nl_sock **sk)
{
	int err;

	*sk = nl_socket_alloc();
	if (!*sk)
		return xskx__fail(-ENOMEM, "allocating a netlink socket");
	err = nl_connect(*sk, NETLINK_ROUTE);
	if (err < 0) {
		nl_socket_free(*sk);
		return xskx__fail(xskx__errno_from_nl(err), "opening rtnetlink: %s",
				  nl_geterror(err));
	}
	return 0;
}

int xskx__netdev_query(const char *ifname, struct xskx_netdev *dev)
{
	struct nl_sock *sk;
	int err;

	memset(dev, 0, sizeof(*dev));
	if (!ifname || !*ifname || strlen(ifname) >= sizeof(dev->name))
		return xskx__fail(-ENODEV, "'%s' is not a valid interface name",
				  ifname ? ifname : "(null)");
	strcpy(dev->name, ifname);

	err = open_rtnetlink(&sk);
	if (err)
		return err;
	err = query_link(sk, ifname, dev);
	nl_socket_free(sk);
	if (err)
		return err;

	sk = nl_socket_alloc();
	if (!sk)
		return xskx__fail(-ENOMEM, "allocating a netlink socket");
	if (genl_connect(sk) == 0) {
		query_channels(sk, dev);
		query_xdp_features(sk, dev);
	} else {
		xskx_debug(
			"no generic netlink: queue counts of '%s' from the link, zero-copy support unknown",
			ifname);
	}
	nl_socket_free(sk);
	return 0;
}

/*
 * Drivers known to count a failed XDP redirect in rx_dropped: veth's NAPI
 * poll increments its rx_drops when xdp_do_redirect() fails, and reports
 * them as the link's rx_dropped.
 */
static bool counts_redirect_errors(struct rtnl_link *link)
{
	const char *kind = rtnl_link_get_type(link);

	return kind && !strcmp(kind, "veth");
}

static int netdev_stats_full(const char *ifname,
			     struct xskx_netdev_stats *stats)
{
	struct rtnl_link *link;
	struct nl_sock *sk;
	int err;

	if (!ifname || !*ifname || !stats)
		return xskx__fail(-EINVAL,
				  "netdev_stats: ifname and stats must be given");
	err = open_rtnetlink(&sk);
	if (err)
		return err;
	err = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (err == -NLE_OBJ_NOTFOUND || err == -NLE_NODEV) {
		err = xskx__fail(
			-ENODEV,
			"netdev_stats: no network interface named '%s' in this network namespace",
			ifname);
		goto out;
	}
	if (err < 0) {
		err = xskx__fail(xskx__errno_from_nl(err),
				 "netdev_stats: reading '%s' over rtnetlink: %s",
				 ifname, nl_geterror(err));
		goto out;
	}
	*stats = (struct xskx_netdev_stats){
		.rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS),
		.tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS),
		.rx_dropped = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED),
		.rx_missed = rtnl_link_get_stat(link, RTNL_LINK_RX_MISSED_ERR),
		.tx_dropped = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED),
		.rx_dropped_has_redirect_errors = counts_redirect_errors(link),
	};
	rtnl_link_put(link);
	err = 0;
out:
	nl_socket_free(sk);
	return err;
}

XSKX_API int xskx_netdev_stats_sized(const char *ifname,
				     struct xskx_netdev_stats *stats,
				     size_t stats_size)
{
	struct xskx_netdev_stats full;
	int err;

	if (!stats || !stats_size)
		return xskx__fail(
			-EINVAL,
			"xskx_netdev_stats: stats must not be NULL, stats_size not 0");
	err = netdev_stats_full(ifname, &full);
	if (!err)
		xskx__out_copy(stats, stats_size, &full, sizeof(full));
	return err;
}
