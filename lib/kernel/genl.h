/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One generic netlink request and its reply, over libnl-genl-3, for the
 * families xskx asks: ethtool and netdev (netdev.c, napi.c).
 */
#ifndef XSKX_KERNEL_GENL_H
#define XSKX_KERNEL_GENL_H

#include <netlink/genl/genl.h>
#include <stdbool.h>

/* Above the highest attribute any reply is parsed for. */
#define XSKX_GENL_MAX_ATTR 16

struct xskx_genl_reply {
	/* Called with each reply message's attributes, indexed by type. */
	void (*parse)(struct nlattr **tb, void *arg);
	void *arg;
	int maxattr; /* at most XSKX_GENL_MAX_ATTR */
	bool acked;
};

/*
 * Send msg on sk, feed its reply to reply->parse and wait for the ACK (or,
 * for a dump, its end), in a bounded number of reads. Returns 0 or a negative libnl error (-NLE_*).
 */
int xskx__genl_transact(struct nl_sock *sk, struct nl_msg *msg,
			struct xskx_genl_reply *reply);

/* The negative errno closest to a libnl error (NLE_*, either sign). */
int xskx__errno_from_nl(int nlerr);

#endif /* XSKX_KERNEL_GENL_H */
