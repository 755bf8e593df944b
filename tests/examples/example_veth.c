// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The veth set-up the example programs' veth tests share (example_veth.h). */
#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>

#include "example_veth.h"
#include "netns.h"

void example_veth_pairs_create_queues(const char *outer_a, const char *in_a,
				      const char *outer_b, const char *in_b,
				      uint32_t queues)
{
	struct veth_pair_opts a = { .name = outer_a, .peer = in_a,
				    .queues = queues };
	struct veth_pair_opts b = { .name = outer_b, .peer = in_b,
				    .queues = queues };

	ck_assert_int_eq(veth_pair_create(&a), 0);
	ck_assert_int_eq(veth_pair_create(&b), 0);
}

void example_veth_pairs_create(const char *outer_a, const char *in_a,
			       const char *outer_b, const char *in_b)
{
	example_veth_pairs_create_queues(outer_a, in_a, outer_b, in_b, 1);
}

int example_raw_socket(const char *ifname, uint16_t ethertype)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ethertype) };
	int fd;

	sll.sll_ifindex = (int)if_nametoindex(ifname);
	ck_assert_msg(sll.sll_ifindex > 0, "no interface %s", ifname);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ethertype));
	ck_assert_msg(fd >= 0, "AF_PACKET socket: %s", strerror(errno));
	ck_assert_msg(!bind(fd, (struct sockaddr *)&sll, sizeof(sll)),
		      "bind to %s: %s", ifname, strerror(errno));
	return fd;
}

ssize_t example_raw_recv(int fd, uint8_t *buf, size_t size)
{
	struct sockaddr_ll from;
	socklen_t fromlen = sizeof(from);
	ssize_t n = recvfrom(fd, buf, size, 0, (struct sockaddr *)&from,
			     &fromlen);

	if (n < 0) {
		ck_assert_msg(errno == EAGAIN, "recv: %s", strerror(errno));
		return -1;
	}
	return from.sll_pkttype == PACKET_OUTGOING ? 0 : n;
}

struct timespec example_deadline(time_t seconds)
{
	struct timespec deadline;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += seconds;
	return deadline;
}

bool example_past(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec;
}

void example_assert_no_xdp_program(const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, query);
	int err = bpf_xdp_query((int)if_nametoindex(ifname), 0, &query);

	ck_assert_msg(!err, "bpf_xdp_query(%s): %s", ifname, strerror(-err));
	ck_assert_msg(!query.prog_id, "XDP program %u left on %s",
		      query.prog_id, ifname);
}

void example_add_case(Suite *s, const char *name, const TTest *test,
		      double timeout_s)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, timeout_s);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

void example_ports_open(struct xskx_port *ports[], const char *const names[],
			uint32_t n, enum xskx_xdp_mode mode)
{
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = mode);

	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(!xskx_port_open(&ports[i], names[i], &po),
			      "xskx_port_open %s: %s", names[i],
			      xskx_last_error());
}

void example_ports_close(struct xskx_port *ports[], uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(!xskx_port_close(ports[i]), "xskx_port_close: %s",
			      xskx_last_error());
}
