/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The test peer: what a scenario needs from the world on the other side of
 * the rings, so that one scenario runs unchanged on the simulated NIC
 * (peer_sim.c) and on a veth pair in a private network namespace
 * (tests/veth/peer_veth.c).
 *
 * The world is two ports joined like a veth pair, A and B: a packet sent
 * from a socket on A arrives on B and the reverse. Each port has at least
 * queue 0, where every scenario binds its sockets, and an XDP program that
 * by default redirects every packet to the socket bound to its queue.
 * Scenarios create the UMEMs and sockets themselves with the public API
 * (link.c); the peer only says where to bind and keeps the world turning.
 *
 * Writing another peer: embed struct test_peer as the first member of your
 * own struct, fill in every field below, and hand it out from a constructor
 * of your own (see peer_sim.h). The scenarios call the operations from the
 * one thread that runs them, in this order:
 *
 *	set_mtu()         at most once, first of all
 *	set_hw_rings()    at most once, before any socket opens
 *	set_port_flags()  at most once per port, before any socket opens
 *	bind()            once per socket, before xskx_socket_open()
 *	set_xdp()         at most once per port, before any socket opens
 *	pump()            many times while traffic runs
 *	quiesce()         once, after the traffic, before the final census
 *	destroy()         once, after every socket and UMEM is gone
 */
#ifndef XSKX_TEST_PEER_H
#define XSKX_TEST_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

enum test_port {
	TEST_PORT_A = 0,
	TEST_PORT_B = 1,
};

/* The XDP programs a scenario may ask for on a port. */
enum test_xdp_prog {
	TEST_XDP_REDIRECT =
		0, /* the default: every packet to the queue's socket */
	/*
	 * Drop every other packet that reaches the port's program, starting
	 * with the second (1st redirected, 2nd dropped, 3rd redirected...),
	 * as the kernel selftests' xsk_xdp_drop does.
	 */
	TEST_XDP_DROP_HALF,
	/*
	 * Resize every packet by TEST_XDP_TAIL_DELTA bytes, shorter or
	 * longer, then redirect it (xdp_tail.h), as the kernel selftests'
	 * xsk_xdp_adjust_tail does with bpf_xdp_adjust_tail().
	 */
	TEST_XDP_TAIL_SHRINK,
	TEST_XDP_TAIL_GROW,
	/*
	 * bpf_xdp_adjust_tail() on every packet, multi-buffer aware: -4096
	 * bytes (SHRINK), +2047 bytes (GROW), then to the queue's socket.
	 */
	TEST_XDP_ADJUST_TAIL_SHRINK_MB,
	TEST_XDP_ADJUST_TAIL_GROW_MB,
	/*
	 * Put the count of packets seen before this one in TEST_XDP_META_LEN
	 * bytes of metadata in front of it (bpf_xdp_adjust_meta), then to the
	 * queue's socket (xdp_meta.h), as the kernel selftests'
	 * xsk_xdp_populate_metadata does; _MB with frags support.
	 */
	TEST_XDP_META_COUNT,
	TEST_XDP_META_COUNT_MB,
};

/* pump() and quiesce() are exact: the peer moves only inside them and kicks. */
#define TEST_PEER_DETERMINISTIC (1u << 0)
/*
 * The peer counts the frames it holds (the census reports nic_counted), so
 * "census total == frame count" is a real check, and scenarios insist on it.
 */
#define TEST_PEER_COUNTS_FRAMES (1u << 1)

struct test_peer {
	/* For messages: "sim", "sim-threaded", "veth-generic"... */
	const char *name;
	/* TEST_PEER_* */
	unsigned int caps;
	/*
	 * Why the last operation that returned -EOPNOTSUPP cannot be done,
	 * for the scenario's SKIP line; NULL when it says nothing more.
	 */
	const char *unsupported_why;
	/*
	 * How long xskx_socket_poll() may wait for an event: 0 where the
	 * peer moves only when pumped, a few milliseconds where it moves on
	 * its own.
	 */
	int poll_timeout_ms;
	/*
	 * How long one scenario may run before it fails as stuck, in
	 * seconds; every scenario loop is also bounded in steps.
	 */
	unsigned int time_limit_s;
	/*
	 * RX_METADATA: the XSKX_RX_META_* fields a port opened with
	 * XSKX_PORT_RX_METADATA gets for every UDP frame the other port
	 * sends, as measured on the peer's device in its XDP mode;
	 * rx_meta_vlan_inband what it adds for a frame whose VLAN tag is in
	 * its bytes; rx_meta_clock: the RX timestamp is the reception's
	 * CLOCK_MONOTONIC time (false: it is 0, no stamp taken).
	 */
	uint32_t rx_meta_fields;
	uint32_t rx_meta_vlan_inband;
	bool rx_meta_clock;
	/*
	 * The RX hash is an RSS hash of the flow: one per flow, of the type
	 * that says what it covered (XSKX_RSS_L3_* | XSKX_RSS_L4 |
	 * XSKX_RSS_L4_UDP for the scenario's UDP frames). False: of type 0
	 * or XSKX_RSS_L4 alone, and two flows may share one (veth,
	 * measured).
	 */
	bool rx_meta_rss;
	/*
	 * XSKX_UMEM_* flags every unaligned UMEM of a scenario gets on this
	 * peer. A zero-copy driver DMA-maps the UMEM and refuses a
	 * descriptor that crosses into a page not physically contiguous
	 * with its own (net/xdp/xsk_buff_pool.c, xp_check_dma_contiguity),
	 * which 4 KiB pages are only by chance: XSKX_UMEM_HUGEPAGES makes
	 * the pages contiguous, as the selftests' unaligned UMEMs are.
	 */
	uint32_t unaligned_umem_flags;

	/*
	 * Point opts at queue 0 of port: the library's port (xskx/port.h) on
	 * it, opened by the peer, and anything else the peer needs. The
	 * scenario sets the rest (ring sizes, flags, fill_frames).
	 */
	void (*bind)(struct test_peer *peer, enum test_port port,
		     struct xskx_socket_opts *opts);
	/*
	 * Size the hardware rings of both ports, in descriptors per queue,
	 * as ethtool -G does: *rx and *tx give the sizes, 0 asking for the
	 * largest the hardware takes; the sizes set are written back. 0,
	 * -EOPNOTSUPP when the ports' rings cannot be resized (the scenario
	 * is then skipped), or another negative errno.
	 */
	int (*set_hw_rings)(struct test_peer *peer, uint32_t *rx, uint32_t *tx);
	/*
	 * Give both ports this MTU (jumbo frames: 9000). 0, -EOPNOTSUPP
	 * when the peer's sockets cannot carry it (the scenario is then
	 * skipped, unsupported_why saying why), or another negative errno,
	 * which fails the scenario.
	 */
	int (*set_mtu)(struct test_peer *peer, uint32_t mtu);
	/*
	 * Open port's library port (xskx/port.h) with these XSKX_PORT_* flags
	 * when its first socket binds.
	 */
	void (*set_port_flags)(struct test_peer *peer, enum test_port port,
			       uint32_t flags);
	/*
	 * Install prog on port. 0, -EOPNOTSUPP when this peer cannot run it
	 * (the scenario is then skipped), or another negative errno.
	 */
	int (*set_xdp)(struct test_peer *peer, enum test_port port,
		       enum test_xdp_prog prog);
	/*
	 * Let the peer make progress once: on the simulated NIC in
	 * deterministic mode one xskx_sim_poll() round, elsewhere a short
	 * bounded wait (well under a millisecond to a millisecond) that lets
	 * the kernel or the NIC thread run. Returns the packets moved when
	 * the peer is TEST_PEER_DETERMINISTIC (0: idle), otherwise 1; or a
	 * negative errno, which fails the scenario.
	 */
	int (*pump)(struct test_peer *peer);
	/*
	 * Bring the peer to rest after the traffic so that the frame census
	 * is exact: nothing arrives, nothing moves between the rings and the
	 * peer any more (stop the NIC thread; let softirqs finish). Sockets
	 * stay open and usable for reading statistics and closing. Returns 0
	 * or a negative errno.
	 */
	int (*quiesce)(struct test_peer *peer);
	void (*destroy)(struct test_peer *peer);
};

#endif /* XSKX_TEST_PEER_H */
