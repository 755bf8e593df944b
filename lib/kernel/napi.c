// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#include "genl.h"
#include "log_internal.h"
#include "napi.h"
#include "netdev_family.h"

/* A netdev family request: cmd, the attributes put() adds, the reply. */
struct netdev_request {
	uint8_t cmd;
	bool dump;
	int (*put)(struct nl_msg *msg, const void *arg);
	const void *put_arg;
	struct xskx_genl_reply reply;
};

/*
 * One request on a socket of its own. 0, -EOPNOTSUPP when the kernel has
 * no netdev family or does not know the command, another negative errno.
 */
static int netdev_transact(struct netdev_request *req)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = NULL;
	int family, err;

	if (!sk)
		return -ENOMEM;
	err = genl_connect(sk);
	if (err < 0)
		goto out;
	family = genl_ctrl_resolve(sk, NETDEV_FAMILY);
	if (family < 0) {
		err = -NLE_OPNOTSUPP;
		goto out;
	}
	msg = nlmsg_alloc();
	if (!msg) {
		err = -NLE_NOMEM;
		goto out;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
			 req->dump ? NLM_F_DUMP : 0, req->cmd,
			 NETDEV_VERSION) ||
	    req->put(msg, req->put_arg) < 0) {
		err = -NLE_NOMEM;
		goto out;
	}
	err = xskx__genl_transact(sk, msg, &req->reply);
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return err < 0 ? xskx__errno_from_nl(err) : 0;
}

/* An NLA_UINT attribute: 4 or 8 bytes, as the kernel chose. */
static uint64_t get_uint(const struct nlattr *a)
{
	return nla_len(a) == sizeof(uint64_t) ?
		       nla_get_u64((struct nlattr *)a) :
		       nla_get_u32((struct nlattr *)a);
}

static int put_queue(struct nl_msg *msg, const void *arg)
{
	const struct xskx_napi *napi = arg;

	if (nla_put_u32(msg, NETDEV_A_QUEUE_IFINDEX, (uint32_t)napi->ifindex) ||
	    nla_put_u32(msg, NETDEV_A_QUEUE_TYPE, NETDEV_QUEUE_TYPE_RX))
		return -1;
	return nla_put_u32(msg, NETDEV_A_QUEUE_ID, napi->queue);
}

static void parse_queue(struct nlattr **tb, void *arg)
{
	struct xskx_napi *napi = arg;

	if (tb[NETDEV_A_QUEUE_NAPI_ID])
		napi->id = nla_get_u32(tb[NETDEV_A_QUEUE_NAPI_ID]);
}

static int put_napi_id(struct nl_msg *msg, const void *arg)
{
	const struct xskx_napi *napi = arg;

	return nla_put_u32(msg, NETDEV_A_NAPI_ID, napi->id);
}

static void parse_napi(struct nlattr **tb, void *arg)
{
	struct xskx_napi *napi = arg;
	struct xskx_napi_settings *s = &napi->found;

	if (tb[NETDEV_A_NAPI_PID])
		napi->thread = (pid_t)nla_get_u32(tb[NETDEV_A_NAPI_PID]);
	if (tb[NETDEV_A_NAPI_DEFER_HARD_IRQS])
		s->defer_hard_irqs =
			nla_get_u32(tb[NETDEV_A_NAPI_DEFER_HARD_IRQS]);
	if (tb[NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT])
		s->gro_flush_timeout_ns =
			get_uint(tb[NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT]);
	if (tb[NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT])
		s->irq_suspend_timeout_ns =
			get_uint(tb[NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT]);
	napi->threaded_known = tb[NETDEV_A_NAPI_THREADED];
	if (napi->threaded_known)
		s->threaded = (int)nla_get_u32(tb[NETDEV_A_NAPI_THREADED]);
}

/* The NAPI ids of one device, from a napi-get dump. */
#define MAX_DEVICE_NAPIS 256

struct device_napis {
	uint32_t ids[MAX_DEVICE_NAPIS];
	uint32_t count;
	bool overflow;
};

static int put_ifindex(struct nl_msg *msg, const void *arg)
{
	const struct xskx_napi *napi = arg;

	return nla_put_u32(msg, NETDEV_A_NAPI_IFINDEX, (uint32_t)napi->ifindex);
}

static void parse_napi_id(struct nlattr **tb, void *arg)
{
	struct device_napis *all = arg;

	if (!tb[NETDEV_A_NAPI_ID])
		return;
	if (all->count == MAX_DEVICE_NAPIS) {
		all->overflow = true;
		return;
	}
	all->ids[all->count++] = nla_get_u32(tb[NETDEV_A_NAPI_ID]);
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Drivers that do not link their queues to their NAPIs (veth) still list
 * the NAPIs: one per RX queue, added in queue order, so with increasing
 * ids. Take the queue's one when the count says that is the layout.
 */
static int napi_by_position(struct xskx_napi *napi, uint32_t rx_queues)
{
	struct device_napis all = { .count = 0 };
	struct netdev_request req = {
		.cmd = NETDEV_CMD_NAPI_GET,
		.dump = true,
		.put = put_ifindex,
		.put_arg = napi,
		.reply = { .parse = parse_napi_id,
			   .arg = &all,
			   .maxattr = NETDEV_A_NAPI_MAX },
	};
	int err = netdev_transact(&req);

	if (err)
		return err;
	if (all.overflow || all.count != rx_queues || napi->queue >= rx_queues)
		return -ENOENT;
	qsort(all.ids, all.count, sizeof(all.ids[0]), by_id);
	napi->id = all.ids[napi->queue];
	return 0;
}

int xskx__napi_find(int ifindex, uint32_t queue, uint32_t rx_queues,
		    struct xskx_napi *napi)
{
	struct netdev_request req = {
		.cmd = NETDEV_CMD_QUEUE_GET,
		.put = put_queue,
		.put_arg = napi,
		.reply = { .parse = parse_queue,
			   .arg = napi,
			   .maxattr = NETDEV_A_QUEUE_MAX },
	};
	int err;

	*napi = (struct xskx_napi){ .ifindex = ifindex,
				    .queue = queue,
				    .found.threaded = -1 };
	err = netdev_transact(&req);
	if (!err && !napi->id)
		err = napi_by_position(napi, rx_queues);
	if (err)
		return err;
	req = (struct netdev_request){
		.cmd = NETDEV_CMD_NAPI_GET,
		.put = put_napi_id,
		.put_arg = napi,
		.reply = { .parse = parse_napi,
			   .arg = napi,
			   .maxattr = NETDEV_A_NAPI_MAX },
	};
	return netdev_transact(&req);
}

struct napi_set {
	uint32_t id;
	const struct xskx_napi_settings *to;
};

static int put_settings(struct nl_msg *msg, const void *arg)
{
	const struct napi_set *set = arg;

	if (nla_put_u32(msg, NETDEV_A_NAPI_ID, set->id) ||
	    nla_put_u32(msg, NETDEV_A_NAPI_DEFER_HARD_IRQS,
			set->to->defer_hard_irqs) ||
	    nla_put_u64(msg, NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT,
			set->to->gro_flush_timeout_ns) ||
	    nla_put_u64(msg, NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT,
			set->to->irq_suspend_timeout_ns))
		return -1;
	if (set->to->threaded < 0)
		return 0;
	return nla_put_u32(msg, NETDEV_A_NAPI_THREADED,
			   (uint32_t)set->to->threaded);
}

static void parse_nothing(struct nlattr **tb, void *arg)
{
	(void)tb;
	(void)arg;
}

static int napi_set(const struct xskx_napi *napi,
		    const struct xskx_napi_settings *to)
{
	struct napi_set set = { .id = napi->id, .to = to };
	struct netdev_request req = {
		.cmd = NETDEV_CMD_NAPI_SET,
		.put = put_settings,
		.put_arg = &set,
		.reply = { .parse = parse_nothing,
			   .maxattr = NETDEV_A_NAPI_MAX },
	};

	return netdev_transact(&req);
}

int xskx__napi_apply(struct xskx_napi *napi,
		     const struct xskx_napi_settings *want)
{
	int err;

	if (want->threaded >= 0 && !napi->threaded_known)
		return xskx__fail(
			-EOPNOTSUPP,
			"NAPI %u (ifindex %d, queue %u): this kernel cannot set threaded per NAPI (6.17+); leave threaded at -1, or set /sys/class/net/IFNAME/threaded",
			napi->id, napi->ifindex, napi->queue);
	err = napi_set(napi, want);
	if (err == -EPERM)
		return xskx__fail(
			err,
			"NAPI %u (ifindex %d, queue %u): napi-set needs CAP_NET_ADMIN",
			napi->id, napi->ifindex, napi->queue);
	if (err)
		return xskx__fail(
			err,
			"NAPI %u (ifindex %d, queue %u): napi-set (defer_hard_irqs %u, gro_flush_timeout %llu ns, irq_suspend_timeout %llu ns, threaded %d): %s%s",
			napi->id, napi->ifindex, napi->queue,
			want->defer_hard_irqs,
			(unsigned long long)want->gro_flush_timeout_ns,
			(unsigned long long)want->irq_suspend_timeout_ns,
			want->threaded, xskx_strerror(-err),
			err == -EOPNOTSUPP ? " (napi-set needs kernel 6.13+)" :
					     "");
	napi->applied = true;
	return 0;
}

int xskx__napi_restore(struct xskx_napi *napi)
{
	struct xskx_napi_settings was = napi->found;
	int err;

	if (!napi->applied)
		return 0;
	if (!napi->threaded_known)
		was.threaded = -1;
	err = napi_set(napi, &was);
	napi->applied = false;
	if (err)
		return xskx__fail(
			err,
			"NAPI %u (ifindex %d, queue %u): restoring its settings: %s",
			napi->id, napi->ifindex, napi->queue,
			xskx_strerror(-err));
	return 0;
}
