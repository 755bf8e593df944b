/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Small traffic helpers for the veth tests that are not scenarios: one
 * socket on its own UMEM, sending and receiving test packets (stream.h)
 * with every loop bounded in steps and time.
 */
#ifndef XSKX_TESTS_VETH_IO_H
#define XSKX_TESTS_VETH_IO_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/xskx.h>

struct veth_end {
	struct xskx_port *port;
	bool own_port; /* opened by veth_end_open(), closed with the end */
	struct xskx_umem *umem;
	struct xskx_socket *sock;
};

/*
 * Frames of 4096 bytes unless frame_size says otherwise (0). The end opens
 * its own port on ifname with mode and the busy-poll settings, unless port
 * names one already open (a second socket on an interface this process
 * serves: one port per interface and process).
 */
struct veth_end_opts {
	struct xskx_port *port;
	const char *ifname;
	uint32_t queue;
	uint32_t flags; /* XSKX_SOCKET_* */
	bool busy_poll; /* XSKX_PORT_BUSY_POLL */
	enum xskx_xdp_mode mode;
	uint32_t frame_size;
	uint32_t busy_poll_usec, busy_poll_budget; /* 0: the library's defaults */
};

/*
 * The port of ifname with XDP in mode, for a test that opens its sockets
 * itself; NULL with the library's message in xskx_last_error() on failure.
 */
struct xskx_port *veth_port_open(const char *ifname, enum xskx_xdp_mode mode);

/* Open the port, create the UMEM, open the socket. 0 or the first errno. */
int veth_end_open(struct veth_end *end, const struct veth_end_opts *opts);

void veth_end_close(struct veth_end *end);

/*
 * Send count test packets of len bytes numbered from seq0. Returns how many
 * the socket accepted before the step budget ran out.
 */
uint32_t veth_send(struct veth_end *end, uint32_t count, uint32_t len,
		   uint32_t seq0);

/*
 * Drive TX until the socket has count completions in all (its tx_completed
 * counter), bounded. Returns the completions counted.
 */
uint32_t veth_wait_completions(struct veth_end *end, uint32_t count);

/*
 * Receive until want packets arrived or about max_wait_ms passed without
 * one; every packet must be a test packet, in sequence from seq0. Returns
 * how many arrived, or -1 on a packet out of order.
 */
int veth_receive(struct veth_end *end, uint32_t want, uint32_t seq0,
		 int max_wait_ms);

/*
 * Open a socket with so on a UMEM made with uo, on so->port or else on a
 * port of ifname opened with po (closing all of it again should it open):
 * the port's or the socket's open must fail with want, its message naming
 * each of words (NULL-terminated). Fails the test case otherwise.
 */
void veth_expect_refused(const char *ifname, const struct xskx_port_opts *po,
			 const struct xskx_umem_opts *uo,
			 struct xskx_socket_opts *so, int want,
			 const char *const *words);

/*
 * The id of the XDP program attached to ifname (libxdp's dispatcher when it
 * has one), 0 when none.
 */
uint32_t veth_prog_id(const char *ifname);

#endif /* XSKX_TESTS_VETH_IO_H */
