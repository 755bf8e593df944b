// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * PEER_TX_CSUM_*: a port on a veth reports whether the other end offloads
 * TX checksums (veth does by default: its stack then sends TCP and UDP
 * with partial checksums, the cause of "ping passes, TCP does not"), and
 * says so once in an info line when the port opens, naming the peer and
 * the fix. The peer is looked at where it lives: in this namespace, or in
 * a child's, found through /proc.
 */
#define _GNU_SOURCE
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

#define CHILD_WAIT_MS 5000

/* ethtool -K name tx on|off, in the calling thread's namespace. */
static int set_tx_csum(const char *name, bool on)
{
	struct ethtool_value value = { .cmd = ETHTOOL_STXCSUM, .data = on };
	struct ifreq ifr = { 0 };
	int sock, err;

	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -1;
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	ifr.ifr_data = (void *)&value;
	err = ioctl(sock, SIOCETHTOOL, &ifr);
	close(sock);
	return err;
}

struct info_lines {
	char text[4096];
};

static void keep_info(enum xskx_log_level level, const char *msg, void *ctx)
{
	struct info_lines *lines = ctx;

	if (level == XSKX_LOG_INFO &&
	    strlen(lines->text) + strlen(msg) + 2 < sizeof(lines->text)) {
		strcat(lines->text, msg);
		strcat(lines->text, "\n");
	}
}

/* B's port, opened with the info lines kept; its info. */
static struct xskx_port *open_b(struct info_lines *lines,
				struct xskx_port_info *info)
{
	struct xskx_port *port;

	memset(lines, 0, sizeof(*lines));
	xskx_set_log_level(XSKX_LOG_INFO);
	xskx_set_log(keep_info, lines);
	port = veth_port_open(PEER_VETH_B, XSKX_XDP_NATIVE);
	xskx_set_log(NULL, NULL);
	xskx_set_log_level(XSKX_LOG_WARN);
	ck_assert_msg(port, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_port_info(port, info), 0);
	return port;
}

START_TEST(same_netns)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct xskx_port_info info;
	struct info_lines lines;
	struct xskx_port *port;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(set_tx_csum(PEER_VETH_A, true), 0);
	port = open_b(&lines, &info);
	ck_assert_int_eq(info.peer_tx_csum, XSKX_PEER_TX_CSUM_ON);
	ck_assert_uint_eq(info.peer_ifindex, if_nametoindex(PEER_VETH_A));
	ck_assert_msg(strstr(lines.text, "ethtool -K " PEER_VETH_A " tx off") &&
			      strstr(lines.text, "xskx_pkt_csum_complete"),
		      "info lines: '%s'", lines.text);
	xskx_port_close(port);

	ck_assert_int_eq(set_tx_csum(PEER_VETH_A, false), 0);
	port = open_b(&lines, &info);
	ck_assert_int_eq(info.peer_tx_csum, XSKX_PEER_TX_CSUM_OFF);
	ck_assert_msg(!strstr(lines.text, "offloads TX checksums"),
		      "info lines: '%s'", lines.text);
	xskx_port_close(port);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/*
 * A child in a network namespace of its own, where the test moves A; on
 * 'o' it turns A's TX checksum offload off and says 'k'.
 */
static void peer_namespace_main(uint32_t arg, int cmd, int report)
{
	char c;

	(void)arg;
	if (unshare(CLONE_NEWNET) || write(report, "y", 1) != 1)
		_exit(1);
	while ((c = veth_child_read(cmd, CHILD_WAIT_MS * 4))) {
		if (c == 'o' && set_tx_csum(PEER_VETH_A, false) == 0 &&
		    write(report, "k", 1) != 1)
			_exit(1);
		if (c == 'q') {
			if (write(report, "d", 1) != 1)
				_exit(1);
			_exit(0);
		}
	}
	_exit(1);
}

START_TEST(other_netns)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct xskx_port_info info;
	struct veth_child child;
	struct info_lines lines;
	struct xskx_port *port;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	ck_assert_int_eq(set_tx_csum(PEER_VETH_A, true), 0);
	ck_assert_int_eq(veth_child_start(&child, peer_namespace_main, 0,
					  CHILD_WAIT_MS),
			 0);
	ck_assert_int_eq(veth_link_move_to_netns_of(PEER_VETH_A, child.pid), 0);
	ck_assert_uint_eq(if_nametoindex(PEER_VETH_A), 0);

	port = open_b(&lines, &info);
	ck_assert_int_eq(info.peer_tx_csum, XSKX_PEER_TX_CSUM_ON);
	ck_assert_uint_ne(info.peer_ifindex, 0);
	ck_assert_msg(strstr(lines.text, "in another network namespace") &&
			      strstr(lines.text,
				     "ethtool -K " PEER_VETH_A " tx off"),
		      "info lines: '%s'", lines.text);

	/* The info asks again each time: the change is seen on the port. */
	ck_assert_int_eq(write(child.cmd, "o", 1), 1);
	ck_assert_int_eq(veth_child_read(child.report, CHILD_WAIT_MS), 'k');
	ck_assert_int_eq(xskx_port_info(port, &info), 0);
	ck_assert_int_eq(info.peer_tx_csum, XSKX_PEER_TX_CSUM_OFF);
	xskx_port_close(port);
	/* The pair goes with the child's namespace. */
	veth_child_stop(&child, CHILD_WAIT_MS);
}
END_TEST

void add_peer_csum_cases(Suite *suite)
{
	veth_add_case(suite, "PEER_TX_CSUM_SAME_NETNS_native", same_netns);
	veth_add_case(suite, "PEER_TX_CSUM_OTHER_NETNS_native", other_netns);
}
