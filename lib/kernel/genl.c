// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>

#include "genl.h"

/* A reply and its ACK arrive in at most a few reads; never loop forever. */
#define NETLINK_MAX_READS 8

int xskx__errno_from_nl(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
	case NLE_NODEV:
		return -ENODEV;
	case NLE_PERM:
		return -EPERM;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_AGAIN:
		return -EAGAIN;
	default:
		return -EIO;
	}
}

static int on_valid(struct nl_msg *msg, void *ctx)
{
	struct xskx_genl_reply *reply = ctx;
	struct nlattr *tb[XSKX_GENL_MAX_ATTR + 1];

	if (reply->maxattr > XSKX_GENL_MAX_ATTR ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, reply->maxattr, NULL) < 0)
		return NL_SKIP;
	reply->parse(tb, reply->arg);
	return NL_OK;
}

/* An ACK ends a request, NLMSG_DONE a dump. */
static int on_ack(struct nl_msg *msg, void *ctx)
{
	struct xskx_genl_reply *reply = ctx;

	(void)msg;
	reply->acked = true;
	return NL_STOP;
}

int xskx__genl_transact(struct nl_sock *sk, struct nl_msg *msg,
			struct xskx_genl_reply *reply)
{
	int err, reads;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_valid, reply);
	nl_socket_modify_cb(sk, NL_CB_ACK, NL_CB_CUSTOM, on_ack, reply);
	nl_socket_modify_cb(sk, NL_CB_FINISH, NL_CB_CUSTOM, on_ack, reply);
	err = nl_send_auto(sk, msg);
	if (err < 0)
		return err;
	for (reads = 0; !reply->acked && reads < NETLINK_MAX_READS; reads++) {
		err = nl_recvmsgs_default(sk);
		if (err < 0)
			return err;
	}
	return reply->acked ? 0 : -NLE_AGAIN;
}
