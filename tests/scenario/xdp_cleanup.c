// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Two sockets on each port's queue, sharing the port's UMEM: the newer one
 * takes the queue's traffic (it holds the queue's XSKMAP slot), and when it
 * closes, the XDP program that feeds the queue stays and the older socket
 * takes the traffic — closing one socket cleans up after it alone. The
 * selftests' XDP_PROG_CLEANUP: traffic on one pair of sockets, then on the
 * other, with the first pair gone.
 */
#include <string.h>

#include "traffic.h"

/* A second socket on port's queue and UMEM, set up as the link's own. */
static bool open_second(struct test_link *link, const struct link_config *cfg,
			enum test_port port, struct xskx_socket **sock,
			struct scenario_result *r)
{
	struct xskx_socket_opts opts;
	int err;

	memcpy(&opts, &cfg->sock[port], sizeof(opts));
	link->peer->bind(link->peer, port, &opts);
	err = xskx_socket_open(sock, link->umem[port], &opts);
	if (err) {
		*sock = NULL;
		return scenario_fail(r,
				     "port %s: second xskx_socket_open: %s: %s",
				     link_port_name(port), xskx_strerror(err),
				     xskx_last_error());
	}
	return true;
}

/* Close the newer sockets and give the link its own back. */
static void close_second(struct test_link *link, struct xskx_socket *first[2],
			 struct scenario_result *r)
{
	for (int p = 0; p < 2; p++) {
		int err;

		if (!first[p])
			continue;
		err = xskx_socket_close(link->sock[p]);
		if (err)
			scenario_fail(r,
				      "port %s: closing the second socket: %s",
				      link_port_name((enum test_port)p),
				      xskx_strerror(err));
		link->sock[p] = first[p];
		first[p] = NULL;
	}
}

void scenario_xdp_prog_cleanup(struct test_peer *peer,
			       struct scenario_result *r)
{
	struct xskx_socket *first[2] = { NULL, NULL };
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;

	link_config_init(&cfg);
	traffic_opts_init(&opts, TEST_PORT_A);
	if (stream_init(&stream, TEST_PKT_COUNT, TEST_PKT_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		for (int p = 0; p < 2 && scenario_ok(r); p++) {
			struct xskx_socket *second;

			if (open_second(&link, &cfg, (enum test_port)p, &second,
					r)) {
				first[p] = link.sock[p];
				link.sock[p] = second;
			}
		}
		if (scenario_ok(r))
			traffic_run(&link, &stream, &opts, r);
		close_second(&link, first, r);
		if (scenario_ok(r))
			traffic_run(&link, &stream, &opts, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}
