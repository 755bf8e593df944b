// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unprivileged side of HANDOVER_* (test_handover.c), run through
 * setpriv as user nobody with no capability at all:
 *
 *   xskx_handover_peer SOCKET_PATH QUEUE COUNT
 *
 * Checks that it runs as a user other than root with no capability,
 * receives queue QUEUE's socket and the shared UMEM from xskx-node-agent,
 * checks that what the agent decided is refused (re-sized rings, the deny
 * list), opens the socket and forwards COUNT packets back out as they came.
 * Every frame it receives must lie in the slice the agent gave it. Says
 * "ready" once it listens, then "done N INODE FIRST COUNT" after closing
 * everything, INODE being the memfd its UMEM is mapped from and FIRST,
 * COUNT its slice of frames (the test compares the two peers'). Exits 0
 * when all of it held, 1 (the reason on stderr) otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xskx/xskx.h>

#include "unpriv_forward.h"

#define FORWARD_MS 15000

/* The inode of the file mapped at area, from /proc/self/maps; 0: none. */
static unsigned long mapped_inode(const void *area)
{
	unsigned long start, inode = 0;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%*x %*s %*s %*s %lu", &start, &inode) ==
			    2 &&
		    start == (unsigned long)area && strstr(line, "memfd:"))
			break;
		else
			inode = 0;
	if (f)
		fclose(f);
	return inode;
}

/* Every frame received lies in the agent's slice for this queue. */
static void check_slice(const struct xskx_pkt *pkts, int n, void *ctx)
{
	const struct xskx_handover_msg *m = ctx;

	for (int i = 0; i < n; i++) {
		uint64_t frame = pkts[i].addr / m->frame_size;

		if (frame < m->frame_first ||
		    frame >= (uint64_t)m->frame_first + m->frame_count) {
			fprintf(stderr,
				"xskx_handover_peer: frame %llu outside the slice %u+%u\n",
				(unsigned long long)frame, m->frame_first,
				m->frame_count);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	struct xskx_handover *ho;
	struct xskx_socket *sock;
	uint32_t queue, count, done, slice_first, slice_count;
	unsigned long inode;
	int err;

	if (argc != 4)
		return 2;
	peer_check_credentials("0000000000000000");
	queue = (uint32_t)atoi(argv[2]);
	count = (uint32_t)atoi(argv[3]);
	err = xskx_handover_receive(&ho, argv[1], queue, 0);
	if (err)
		peer_fail("receiving the handover", err);

	XSKX_OPTS(xskx_socket_opts, resized, .rx_size = 1024);
	peer_expect_refused(
		"re-sized rings",
		xskx_socket_open_queue(&sock, xskx_handover_port(ho), queue,
				       xskx_handover_umem(ho), &resized),
		-EINVAL, "cannot be re-sized");
	peer_expect_refused("the deny list",
			    xskx_filter_set(xskx_handover_port(ho), NULL, 0),
			    -EOPNOTSUPP, "no XDP deny list");

	err = xskx_socket_open_queue(&sock, xskx_handover_port(ho), queue,
				     xskx_handover_umem(ho), NULL);
	if (err)
		peer_fail("opening the handed-over socket", err);
	peer_expect_refused(
		"a second socket on the handover",
		xskx_socket_open_queue(&sock, xskx_handover_port(ho), queue,
				       xskx_handover_umem(ho), NULL),
		-EBUSY, "one socket per handover");
	inode = mapped_inode(xskx_umem_area(xskx_handover_umem(ho)));
	slice_first = xskx_handover_msg(ho)->frame_first;
	slice_count = xskx_handover_msg(ho)->frame_count;
	xskx_rx_burst(sock, NULL, 0); /* post the FILL share now */
	printf("ready\n");
	fflush(stdout);

	done = peer_forward(sock, xskx_handover_umem(ho), count, FORWARD_MS,
			    check_slice, (void *)xskx_handover_msg(ho));
	err = xskx_socket_close(sock);
	if (!err)
		err = xskx_handover_close(ho);
	if (err)
		peer_fail("closing", err);
	printf("done %u %lu %u %u\n", done, inode, slice_first, slice_count);
	fflush(stdout);
	return 0;
}
