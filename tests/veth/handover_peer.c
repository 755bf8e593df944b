// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unprivileged side of HANDOVER_* (test_handover.c), run through
 * setpriv as user nobody with no capability at all:
 *
 *   xskx_handover_peer SOCKET_PATH QUEUE COUNT
 *
 * Receives queue QUEUE's socket and the shared UMEM from xskx-node-agent,
 * checks that what the agent decided is refused (re-sized rings, the deny
 * list), opens the socket and forwards COUNT packets back out as they came.
 * Every frame it receives must lie in the slice the agent gave it. Says
 * "ready" once it listens, then "done N INODE FIRST COUNT" after closing
 * everything, INODE being the memfd its UMEM is mapped from and FIRST,
 * COUNT its slice of frames (the test compares the two peers'). Exits 0 when all of it held, 1 (the reason on stderr) otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xskx/xskx.h>

#define BURST 64
#define FORWARD_MS 15000

static int fail(const char *what, int err)
{
	fprintf(stderr, "handover_peer: %s: %d (%s)\n", what, err,
		xskx_last_error());
	exit(1);
}

static void expect_refused(const char *what, int err, int want,
			   const char *word)
{
	if (err != want || !strstr(xskx_last_error(), word)) {
		fprintf(stderr,
			"handover_peer: %s: %d, wanted %d naming '%s' (%s)\n",
			what, err, want, word, xskx_last_error());
		exit(1);
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

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
static void check_slice(const struct xskx_handover_msg *m,
			const struct xskx_pkt *pkts, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t frame = pkts[i].addr / m->frame_size;

		if (frame < m->frame_first ||
		    frame >= (uint64_t)m->frame_first + m->frame_count) {
			fprintf(stderr,
				"handover_peer: frame %llu outside the slice %u+%u\n",
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
	struct xskx_pkt pkts[BURST];
	uint32_t queue, count, done = 0, slice_first, slice_count;
	unsigned long inode;
	uint64_t deadline;
	int err;

	if (argc != 4)
		return 2;
	queue = (uint32_t)atoi(argv[2]);
	count = (uint32_t)atoi(argv[3]);
	err = xskx_handover_receive(&ho, argv[1], queue, 0);
	if (err)
		fail("receiving the handover", err);

	XSKX_OPTS(xskx_socket_opts, resized, .rx_size = 1024);
	expect_refused("re-sized rings",
		       xskx_socket_open_queue(&sock, xskx_handover_port(ho),
					      queue, xskx_handover_umem(ho),
					      &resized),
		       -EINVAL, "cannot be re-sized");
	expect_refused("the deny list",
		       xskx_filter_set(xskx_handover_port(ho), NULL, 0),
		       -EOPNOTSUPP, "no XDP deny list");

	err = xskx_socket_open_queue(&sock, xskx_handover_port(ho), queue,
				     xskx_handover_umem(ho), NULL);
	if (err)
		fail("opening the handed-over socket", err);
	expect_refused("a second socket on the handover",
		       xskx_socket_open_queue(&sock, xskx_handover_port(ho),
					      queue, xskx_handover_umem(ho),
					      NULL),
		       -EBUSY, "one socket per handover");
	inode = mapped_inode(xskx_umem_area(xskx_handover_umem(ho)));
	slice_first = xskx_handover_msg(ho)->frame_first;
	slice_count = xskx_handover_msg(ho)->frame_count;
	xskx_rx_burst(sock, NULL, 0); /* post the FILL share now */
	printf("ready\n");
	fflush(stdout);

	deadline = now_ms() + FORWARD_MS;
	while (done < count && now_ms() < deadline) {
		int n = xskx_rx_burst(sock, pkts, BURST);

		if (n < 0)
			fail("rx", n);
		check_slice(xskx_handover_msg(ho), pkts, n);
		for (int sent = 0; sent < n;) {
			int t = xskx_tx_burst(sock, pkts + sent,
					      (uint32_t)(n - sent));

			if (t < 0)
				fail("tx", t);
			sent += t;
			if (now_ms() >= deadline)
				fail("tx: no room in time", -ETIMEDOUT);
		}
		done += (uint32_t)n;
		if (!n)
			xskx_socket_poll(sock, POLLIN, 10);
	}
	if (done < count) {
		struct xskx_stats st;
		struct xskx_frame_census c;

		xskx_socket_stats(sock, &st);
		xskx_umem_census(xskx_handover_umem(ho), &c);
		fprintf(stderr,
			"handover_peer: queue %u: %u of %u; rx_dropped %llu fill_empty %llu ring_full %llu invalid %llu; pool %u fill %u nic %u\n",
			queue, done, count, (unsigned long long)st.rx_dropped,
			(unsigned long long)st.rx_fill_ring_empty_descs,
			(unsigned long long)st.rx_ring_full,
			(unsigned long long)st.rx_invalid_descs, c.pool, c.fill,
			c.nic);
	}
	for (int i = 0; i < 1000 && xskx_tx_reclaim(sock) >= 0; i++) {
		struct xskx_frame_census c;

		xskx_umem_census(xskx_handover_umem(ho), &c);
		if (!c.tx && !c.comp)
			break;
		usleep(1000);
	}
	err = xskx_socket_close(sock);
	if (!err)
		err = xskx_handover_close(ho);
	if (err)
		fail("closing", err);
	printf("done %u %lu %u %u\n", done, inode, slice_first, slice_count);
	fflush(stdout);
	return 0;
}
