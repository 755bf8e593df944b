// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unprivileged side of UNPRIV_* (test_unpriv.c), run through setpriv
 * as user nobody with CAP_NET_RAW alone:
 *
 *   xskx_unpriv_peer IFNAME fd|pin|uds FD|PATH COUNT
 *
 * First what needs more privilege is refused up front with the capability
 * and the way around it: attaching xskx's own program (CAP_NET_ADMIN,
 * CAP_BPF), a UMEM larger than RLIMIT_MEMLOCK. Then a port on the XSKMAP
 * handed over (an fd, a pinned path, the device plugin's socket) and one
 * socket on queue 0, which forwards COUNT packets back out as they came;
 * the deny list and the no-socket counters are refused on such a port.
 * Says "ready" once it listens and "done N" after closing everything.
 * Exits 0 when all of it held, 1 (with the reason on stderr) otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <xskx/xskx.h>

#include "unpriv_forward.h"

#define FRAMES 1024 /* 4 MiB: inside the default 8 MiB RLIMIT_MEMLOCK */
#define FORWARD_MS 10000

/* xskx's own program: refused before anything is loaded. */
static void attach_refused(const char *ifname)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, so);
	struct xskx_socket *sock;
	struct xskx_port *port;
	struct xskx_umem *umem;

	if (xskx_port_open(&port, ifname, NULL))
		peer_fail("port without a map", -1);
	if (xskx_umem_create(&umem, &uo))
		peer_fail("umem", -1);
	so.port = port;
	peer_expect_refused("attaching xskx's program",
			    xskx_socket_open(&sock, umem, &so), -EPERM,
			    "this process lacks CAP_NET_ADMIN.");
	if (!strstr(xskx_last_error(), "xskmap_pin"))
		peer_fail("the refusal names no alternative", -1);
	xskx_umem_destroy(umem);
	xskx_port_close(port);
}

/* A UMEM above RLIMIT_MEMLOCK: refused, naming the limit. */
static void memlock_refused(const char *ifname, struct xskx_port *port)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, so, .port = port);
	struct rlimit saved, low;
	struct xskx_socket *sock;
	struct xskx_umem *umem;

	(void)ifname;
	if (getrlimit(RLIMIT_MEMLOCK, &saved))
		peer_fail("getrlimit", -errno);
	low = saved;
	low.rlim_cur = 1 << 20; /* lowering needs no privilege */
	if (setrlimit(RLIMIT_MEMLOCK, &low))
		peer_fail("setrlimit", -errno);
	if (xskx_umem_create(&umem, &uo))
		peer_fail("umem", -1);
	peer_expect_refused("a UMEM over RLIMIT_MEMLOCK",
			    xskx_socket_open(&sock, umem, &so), -ENOMEM,
			    "RLIMIT_MEMLOCK");
	xskx_umem_destroy(umem);
	if (setrlimit(RLIMIT_MEMLOCK, &saved))
		peer_fail("restoring RLIMIT_MEMLOCK", -errno);
}

int main(int argc, char **argv)
{
	XSKX_OPTS(xskx_port_opts, po);
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES);
	XSKX_OPTS(xskx_socket_opts, so);
	struct xskx_port_info info;
	struct xskx_socket *sock;
	struct xskx_port *port;
	struct xskx_umem *umem;
	uint64_t none[1];
	uint32_t count, done;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: %s IFNAME fd|pin|uds FD|PATH COUNT\n",
			argv[0]);
		return 2;
	}
	count = (uint32_t)strtoul(argv[4], NULL, 10);
	if (!strcmp(argv[2], "fd")) {
		po.flags = XSKX_PORT_XSKMAP_FD;
		po.xskmap_fd = atoi(argv[3]);
	} else if (!strcmp(argv[2], "pin")) {
		po.xskmap_pin = argv[3];
	} else {
		po.xskmap_uds = argv[3];
	}

	/* Bit 13: CAP_NET_RAW. */
	peer_check_credentials("0000000000002000");
	attach_refused(argv[1]);
	err = xskx_port_open(&port, argv[1], &po);
	if (err)
		peer_fail("port on the XSKMAP", err);
	memlock_refused(argv[1], port);
	if (xskx_port_info(port, &info) || !info.xskmap_external ||
	    info.xdp_attached)
		peer_fail(
			"port info: the map is not reported as someone else's",
			-1);
	if (xskx_umem_create(&umem, &uo))
		peer_fail("umem", -1);
	so.port = port;
	err = xskx_socket_open(&sock, umem, &so);
	if (err)
		peer_fail("socket", err);
	peer_expect_refused("the deny list", xskx_filter_set(port, NULL, 0),
			    -EOPNOTSUPP, "someone else");
	peer_expect_refused("the no-socket counters",
			    xskx_port_rx_no_socket(port, none, 1), -ENOENT,
			    "no XDP program of xskx's");
	if (xskx_rx_burst(sock, NULL, 0) < 0)
		peer_fail("posting FILL", -1);
	printf("ready\n");
	fflush(stdout);

	done = peer_forward(sock, umem, count, FORWARD_MS, NULL, NULL);
	if (xskx_socket_close(sock) || xskx_umem_destroy(umem) ||
	    xskx_port_close(port))
		peer_fail("closing", -1);
	printf("done %u\n", done);
	fflush(stdout);
	return done == count ? 0 : 1;
}
