// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <net/if.h>
#include <poll.h>
#include <string.h>
#include <check.h>
#include <bpf/libbpf.h>

#include "stream.h"
#include "veth_io.h"

#define BATCH 64
#define FRAMES 4096
#define MAX_STEPS 100000
#define POLL_MS 1

struct xskx_port *veth_port_open(const char *ifname, enum xskx_xdp_mode mode)
{
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = mode);
	struct xskx_port *port = NULL;

	return xskx_port_open(&port, ifname, &po) ? NULL : port;
}

int veth_end_open(struct veth_end *end, const struct veth_end_opts *o)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = FRAMES,
		  .frame_size = o->frame_size ? o->frame_size : 4096);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = o->mode,
		  .flags = o->busy_poll ? XSKX_PORT_BUSY_POLL : 0,
		  .busy_poll_usec = o->busy_poll_usec,
		  .busy_poll_budget = o->busy_poll_budget);
	XSKX_OPTS(xskx_socket_opts, so, .queue_id = o->queue,
		  .flags = o->flags);
	int err;

	memset(end, 0, sizeof(*end));
	end->port = o->port;
	if (!end->port) {
		err = xskx_port_open(&end->port, o->ifname, &po);
		if (err)
			return err;
		end->own_port = true;
	}
	so.port = end->port;
	err = xskx_umem_create(&end->umem, &uo);
	if (!err)
		err = xskx_socket_open(&end->sock, end->umem, &so);
	/* The UMEM's only socket: its first burst posts its share on FILL. */
	if (!err && !(o->flags & XSKX_SOCKET_NO_RX)) {
		struct xskx_pkt none[1];

		err = xskx_rx_burst(end->sock, none, 0);
		if (err)
			xskx_socket_close(end->sock);
	}
	if (err) {
		xskx_umem_destroy(end->umem);
		end->umem = NULL;
		end->sock = NULL;
		veth_end_close(end);
	}
	return err;
}

void veth_end_close(struct veth_end *end)
{
	if (end->sock)
		xskx_socket_close(end->sock);
	if (end->umem)
		xskx_umem_destroy(end->umem);
	if (end->own_port)
		xskx_port_close(end->port);
	memset(end, 0, sizeof(*end));
}

uint32_t veth_send(struct veth_end *end, uint32_t count, uint32_t len,
		   uint32_t seq0)
{
	uint8_t *area = xskx_umem_area(end->umem);
	uint32_t sent = 0;

	for (int step = 0; step < MAX_STEPS && sent < count; step++) {
		struct xskx_pkt pkts[BATCH];
		uint64_t frames[BATCH];
		uint32_t want = count - sent < BATCH ? count - sent : BATCH;
		uint32_t n = xskx_frame_alloc(end->umem, frames, want);
		int accepted;

		for (uint32_t i = 0; i < n; i++) {
			pkts[i] = (struct xskx_pkt){
				.addr = xskx_umem_tx_addr(end->umem, frames[i]),
				.len = len,
			};
			pkt_write(area + pkts[i].addr, seq0 + sent + i, len);
		}
		accepted = xskx_tx_burst(end->sock, pkts, n);
		if (accepted < 0)
			accepted = 0;
		if ((uint32_t)accepted < n)
			xskx_frame_free(end->umem, frames + accepted,
					n - (uint32_t)accepted);
		sent += (uint32_t)accepted;
		if (!accepted)
			xskx_socket_poll(end->sock, POLLOUT, POLL_MS);
	}
	return sent;
}

uint32_t veth_wait_completions(struct veth_end *end, uint32_t count)
{
	struct xskx_stats stats = { 0 };

	for (int step = 0; step < MAX_STEPS; step++) {
		/* The burst reclaims completions and kicks TX when asked. */
		xskx_tx_burst(end->sock, NULL, 0);
		if (xskx_socket_stats(end->sock, &stats) ||
		    stats.tx_completed >= count)
			break;
		xskx_socket_poll(end->sock, POLLOUT, POLL_MS);
	}
	return (uint32_t)stats.tx_completed;
}

int veth_receive(struct veth_end *end, uint32_t want, uint32_t seq0,
		 int max_wait_ms)
{
	uint32_t got = 0;
	int idle_ms = 0;

	for (int step = 0;
	     step < MAX_STEPS && got < want && idle_ms < max_wait_ms; step++) {
		struct xskx_pkt pkts[BATCH];
		int n = xskx_rx_burst(end->sock, pkts, BATCH);

		if (n < 0)
			return -1;
		for (int i = 0; i < n; i++) {
			uint32_t seq;

			if (!pkt_seq(pkts[i].data, pkts[i].len, &seq) ||
			    seq != seq0 + got + (uint32_t)i) {
				xskx_rx_release(end->sock, pkts, (uint32_t)n);
				return -1;
			}
		}
		xskx_rx_release(end->sock, pkts, (uint32_t)n);
		got += (uint32_t)n;
		if (n) {
			idle_ms = 0;
		} else {
			xskx_socket_poll(end->sock, POLLIN, POLL_MS);
			idle_ms += POLL_MS;
		}
	}
	return (int)got;
}

/* libbpf's query: libxdp 1.3.1 leaks a descriptor describing such a device. */
uint32_t veth_prog_id(const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (bpf_xdp_query((int)if_nametoindex(ifname), 0, &q))
		return 0;
	return q.drv_prog_id ? q.drv_prog_id : q.skb_prog_id;
}

void veth_expect_refused(const char *ifname, const struct xskx_port_opts *po,
			 const struct xskx_umem_opts *uo,
			 struct xskx_socket_opts *so, int want,
			 const char *const *words)
{
	struct xskx_socket *sock = NULL;
	bool own_port = !so->port;
	struct xskx_umem *umem;
	/* Refused by the port (no such interface) or by the socket's open. */
	int err = own_port ? xskx_port_open(&so->port, ifname, po) : 0;

	if (!err) {
		ck_assert_int_eq(xskx_umem_create(&umem, uo), 0);
		err = xskx_socket_open(&sock, umem, so);
		if (!err)
			xskx_socket_close(sock);
		ck_assert_int_eq(xskx_umem_destroy(umem), 0);
		if (own_port) {
			ck_assert_int_eq(xskx_port_close(so->port), 0);
			so->port = NULL;
		}
	}
	ck_assert_msg(err == want, "expected %s, got %s (%s)",
		      xskx_strerror(want), xskx_strerror(err),
		      xskx_last_error());
	for (; *words; words++)
		ck_assert_msg(strstr(xskx_last_error(), *words),
			      "the message does not name '%s': %s", *words,
			      xskx_last_error());
}
