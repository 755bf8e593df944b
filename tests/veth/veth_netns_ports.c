// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * NETNS_SAME_IFINDEX: a device is known by its network namespace and its
 * ifindex, and an ifindex is numbered per namespace. A thread of this
 * process moves to a new network namespace and makes a veth pair with the
 * same names, and so the same ifindexes, as the pair of the sandbox, where
 * this process already serves B: there its port on B opens (another
 * device), its socket gets its own XDP program (not the sandbox's) and
 * receives what that namespace's A sends, and a second port on its B is
 * refused as on any device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

#define PKTS 64

/* What the thread in the other namespace found: "" when all went well. */
struct other_netns {
	unsigned int sandbox_ifindex; /* B's, in the sandbox */
	char failure[512];
};

/*
 * As the sandbox does (netns.c): no IPv6 on new interfaces, so that the
 * kernel sends nothing of its own on them. /proc/sys/net is the opening
 * thread's namespace's.
 */
static int ipv6_off(void)
{
	static const char *const paths[] = {
		"/proc/sys/net/ipv6/conf/default/disable_ipv6",
		"/proc/sys/net/ipv6/conf/all/disable_ipv6",
	};

	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(paths[i], "we");

		if (!f)
			return -1;
		fputs("1", f);
		if (fclose(f))
			return -1;
	}
	return 0;
}

static void *serve_in_new_netns(void *arg)
{
	struct other_netns *o = arg;
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_TX };
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_RX };
	struct veth_end rx = { 0 }, tx = { 0 };
	struct xskx_port *second = NULL;
	unsigned int ifindex;
	int err, got = 0;

	if (unshare(CLONE_NEWNET) || ipv6_off() || veth_pair_create(&pair)) {
		snprintf(o->failure, sizeof(o->failure),
			 "a veth pair in a new network namespace: %s",
			 strerror(errno));
		return NULL;
	}
	ifindex = if_nametoindex(PEER_VETH_B);
	if (ifindex != o->sandbox_ifindex) {
		snprintf(
			o->failure, sizeof(o->failure),
			"%s has ifindex %u here, %u in the sandbox: the case needs them equal",
			PEER_VETH_B, ifindex, o->sandbox_ifindex);
		goto out;
	}
	if (veth_end_open(&rx, &rx_opts) || veth_end_open(&tx, &tx_opts)) {
		snprintf(o->failure, sizeof(o->failure),
			 "a port on the other namespace's %s (ifindex %u): %s",
			 PEER_VETH_B, ifindex, xskx_last_error());
		goto out;
	}
	err = xskx_port_open(&second, PEER_VETH_B, NULL);
	if (err != -EBUSY) {
		snprintf(
			o->failure, sizeof(o->failure),
			"a second port on the other namespace's %s: %s, expected EBUSY",
			PEER_VETH_B, xskx_strerror(err));
		goto out;
	}
	if (veth_send(&tx, PKTS, 64, 0) != PKTS ||
	    (got = veth_receive(&rx, PKTS, 0, 2000)) != PKTS)
		snprintf(
			o->failure, sizeof(o->failure),
			"the other namespace's %s received %d of %d packets (its socket in the sandbox's program?)",
			PEER_VETH_B, got, PKTS);
out:
	if (second)
		xskx_port_close(second);
	veth_end_close(&tx);
	veth_end_close(&rx);
	veth_pair_delete(PEER_VETH_A);
	return NULL;
}

START_TEST(same_ifindex)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts rx_opts = { .ifname = PEER_VETH_B,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_TX };
	struct other_netns other = { 0 };
	struct veth_end rx;
	pthread_t thread;
	uint32_t prog;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_msg(veth_end_open(&rx, &rx_opts) == 0, "%s",
		      xskx_last_error());
	prog = veth_prog_id(PEER_VETH_B);
	other.sandbox_ifindex = if_nametoindex(PEER_VETH_B);
	ck_assert_int_eq(
		pthread_create(&thread, NULL, serve_in_new_netns, &other), 0);
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_msg(!other.failure[0], "%s", other.failure);
	/* The sandbox's B kept its program throughout. */
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	veth_end_close(&rx);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

void add_netns_port_cases(Suite *suite)
{
	veth_add_case(suite, "NETNS_SAME_IFINDEX_native", same_ifindex);
}
