/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The simulated NIC: a user-space model of a zero-copy AF_XDP driver plus
 * the kernel's xsk code, so that everything above the rings runs and is
 * tested with no NIC and no privileges. It follows the kernel's rules
 * (docs/KERNEL_RULES.md): the same ring layout, descriptor validation,
 * need_wakeup flags and XDP_STATISTICS counters.
 *
 * The model, per queue of a port:
 *
 *   wire/source -> hardware RX ring (buffers posted from FILL)
 *               -> NAPI poll (budget) -> XDP hook -> redirect: RX ring
 *                                                 -> pass / drop / tx
 *   TX ring -> validation -> wire (peer port) or sink -> COMPLETION ring
 *
 * A port's queues are picked by RSS: a hash of the IPv4/IPv6 addresses and
 * UDP/TCP ports, modulo the queue count.
 *
 * Two run modes. Deterministic: the NIC works only inside the sockets'
 * kicks (their simulated recvfrom/sendto/poll) and xskx_sim_poll() — for
 * tests, where every interleaving is reproducible. Threaded: the NIC (and the
 * traffic sources) run on a thread of their own between xskx_sim_start()
 * and xskx_sim_stop(), as a real NIC runs beside the application — for
 * benchmarks and TSan. Deterministic mode with busy_poll puts the NIC on the
 * application's core, as the kernel's busy polling does (see
 * xskx_sim_opts.busy_poll).
 */
#ifndef XSKX_SIM_H
#define XSKX_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/opts.h>
#include <xskx/port.h>
#include <xskx/umem.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_sim;
struct xskx_sim_port;

enum xskx_sim_mode {
	XSKX_SIM_DETERMINISTIC = 0,
	XSKX_SIM_THREADED,
};

/* What the NIC does when the socket's RX ring is full. */
enum xskx_sim_rx_full_policy {
	/*
	 * Stop the NAPI poll and leave the packet in the hardware ring for the
	 * next poll ("xsk: stop NAPI Rx processing on full XSK RQ"); applies
	 * when the socket uses need_wakeup, as in the kernel. The default.
	 */
	XSKX_SIM_RX_FULL_STOP = 0,
	/* Drop the packet and recycle its buffer (the older behaviour). */
	XSKX_SIM_RX_FULL_DROP,
};

struct xskx_sim_opts {
	size_t sz;
	enum xskx_sim_mode mode;
	/* Threaded mode: pin the NIC thread to this CPU + 1 (0: no pinning). */
	int cpu_plus_one;
	/*
	 * Deterministic mode only: every kick of a zero-copy socket (its
	 * recvfrom, sendto or poll) is a busy poll of the socket's queue, as
	 * with SO_PREFER_BUSY_POLL, where the driver's NAPI runs inside the
	 * application's syscalls, on its core, and never on its own: first the
	 * port's traffic sources put on the wire what is due (the wire fills
	 * posted hardware buffers, up to a source's burst), then one NAPI poll
	 * — a TX pass (up to hw_tx_ring_size) and RX within napi_budget —
	 * whichever ring the kick was for. Nothing moves between kicks, so the
	 * application must kick whenever it waits (XSKX_PORT_BUSY_POLL does)
	 * rather than only when a need_wakeup flag asks. xskx_sim_poll() still
	 * runs a full round.
	 */
	bool busy_poll;
};
#define xskx_sim_opts__last_field busy_poll

/* Create an empty simulated machine: add ports, wires and sources to it. */
int xskx_sim_create(struct xskx_sim **sim, const struct xskx_sim_opts *opts);

/*
 * Stop the NIC thread if running and free every port, source and wire.
 * Sockets on its ports must be closed first (-EBUSY otherwise).
 */
int xskx_sim_destroy(struct xskx_sim *sim);

/*
 * The deepest hardware ring a simulated port takes (hw_ring_size,
 * hw_tx_ring_size), as a driver's ethtool rx_max_pending / tx_max_pending;
 * deeper is refused with -EINVAL naming this limit.
 */
#define XSKX_SIM_MAX_HW_RING 65536

struct xskx_sim_port_opts {
	size_t sz;
	const char *name;	/* for messages; 0: "simN" */
	uint32_t queues;	/* RX/TX queue pairs; 0: 1 */
	uint32_t mtu;		/* 0: 1500 */
	uint32_t hw_ring_size;	/* hardware RX descriptors per queue; 0: 2048 */
	uint32_t hw_tx_ring_size; /* hardware TX descriptors per queue; 0: 256 */
	uint32_t napi_budget;	/* packets per NAPI RX poll; 0: 64 */
	/*
	 * Hardware RX descriptors are refilled from FILL when at least this
	 * many are empty; 1 refills single descriptors. 0: 32.
	 */
	uint32_t refill_batch;
	enum xskx_sim_rx_full_policy rx_full_policy;
	bool no_zero_copy;	/* behave like a driver without zero-copy */
	uint32_t max_frags;	/* multi-buffer fragments per packet; 0: 18 */
};
#define xskx_sim_port_opts__last_field max_frags

int xskx_sim_port_create(struct xskx_sim *sim,
			 const struct xskx_sim_port_opts *opts,
			 struct xskx_sim_port **port);

/*
 * Open the library's port (xskx/port.h) on a simulated port, as
 * xskx_port_open() opens one on an interface: sockets are then opened on
 * its queues. The options' XDP fields are the kernel's and not used here;
 * XSKX_PORT_BUSY_POLL makes the burst API kick whenever it would wait.
 * Returns 0, -EINVAL (NULL arguments, unknown flag, XSKX_PORT_NAPI) or
 * -EBUSY (this simulated port has a library port open already).
 */
int xskx_port_open_sim(struct xskx_port **port, struct xskx_sim_port *sim_port,
		       const struct xskx_port_opts *opts);

/*
 * Join two ports like a veth pair: what one transmits arrives on the
 * other's RX side. A port has at most one wire, and none while it writes
 * a capture (-EBUSY).
 */
int xskx_sim_wire(struct xskx_sim_port *a, struct xskx_sim_port *b);

/* The verdicts of the XDP hook, the kernel's XDP_* actions. */
enum xskx_xdp_verdict {
	XSKX_XDP_ABORTED = 0,
	XSKX_XDP_DROP,
	XSKX_XDP_PASS,
	XSKX_XDP_TX,
	XSKX_XDP_REDIRECT,	/* to the socket bound to this queue */
};

/*
 * The XDP program of a port: called from the NAPI poll for every received
 * packet, with the packet's bytes inside the UMEM frame (it may rewrite
 * them, e.g. swap MACs before XDP_TX); for a multi-buffer packet, its first
 * buffer, as a program without frags support sees it. NULL restores the
 * default, which redirects to the socket bound to the queue and passes the
 * packet to the (simulated) stack when none is, counting it for the queue
 * (xskx_port_rx_no_socket(), xskx/port.h); a hook of yours counts nothing. This callback and the sink
 * run inside the NIC's work (on the NIC thread in threaded mode) and must
 * not call back into the machine, its ports or their sockets. -EBUSY while
 * a library port opened with XSKX_PORT_RX_METADATA is open on the port
 * (xskx's program fills the RX metadata there, as on the kernel backend,
 * where such a port takes no xdp_obj).
 */
typedef enum xskx_xdp_verdict (*xskx_sim_xdp_fn)(uint8_t *data, uint32_t len,
						 uint32_t queue, void *ctx);

int xskx_sim_port_set_xdp(struct xskx_sim_port *port, xskx_sim_xdp_fn fn,
			  void *ctx);

/*
 * A packet as an XDP program that resizes it sees it, bpf_xdp_adjust_tail()
 * style: the hook may set len anywhere from XSKX_SIM_XDP_MIN_LEN (an
 * Ethernet header) to len + tailroom, growing into the bytes after the
 * packet in its buffer (the UMEM frame in zero-copy mode; their content is
 * whatever the buffer held, where xskx_sim_xdp_adjust_tail() zeroes them
 * as the kernel's helper does) or cutting its end off. A
 * length outside that range makes the verdict XSKX_XDP_ABORTED. A
 * multi-buffer packet shows its first buffer with tailroom 0: the hook
 * resizes it with xskx_sim_xdp_adjust_tail() only, and len must be left as
 * that leaves it (XSKX_XDP_ABORTED otherwise).
 *
 * Metadata, bpf_xdp_adjust_meta() style: meta_len starts at 0; the hook may
 * set it to reserve that many bytes in front of data, writes them at
 * data - meta_len, and a socket receives them there, in front of the
 * packet's data (the first fragment's, for a chain), in zero-copy mode (in
 * the UMEM frame, where the hook wrote them) and in copy mode (copied with
 * the packet, as the kernel's copy mode does). meta_len must be a multiple
 * of 4 and at most XSKX_XDP_META_MAX (xskx/umem.h), as the kernel's helper requires;
 * any other value makes the verdict XSKX_XDP_ABORTED. The metadata goes
 * to a socket only (XSKX_XDP_REDIRECT), never out of a port or to the sink.
 */
struct xskx_sim_xdp_buff {
	uint8_t *data;
	uint32_t len;
	uint32_t tailroom;
	uint32_t queue;
	uint32_t meta_len;
};

#define XSKX_SIM_XDP_MIN_LEN 14

typedef enum xskx_xdp_verdict (*xskx_sim_xdp_buff_fn)(
	struct xskx_sim_xdp_buff *xdp, void *ctx);

/*
 * Install a hook that may resize packets, in place of the port's XDP hook
 * (either setter replaces the other's hook; NULL restores the default).
 * Same rules as xskx_sim_port_set_xdp().
 */
int xskx_sim_port_set_xdp_buff(struct xskx_sim_port *port,
			       xskx_sim_xdp_buff_fn fn, void *ctx);

/*
 * bpf_xdp_adjust_tail() for a resizing hook: grow (offset > 0) or shrink
 * the packet xdp, the one the hook was called with, at its end, by the
 * kernel's rules (docs/KERNEL_RULES.md, "Multi-buffer"). A single-buffer
 * packet ends anywhere from XSKX_SIM_XDP_MIN_LEN to the end of its buffer
 * (len and tailroom follow). A multi-buffer packet shrinks from its tail
 * (whole fragments go, their frames back to the driver, then the last one
 * left is cut; the first buffer gets shorter only once no fragment is
 * left) down to XSKX_SIM_XDP_MIN_LEN bytes in all, and grows in its last
 * fragment, up to the end of that fragment's frame. Grown bytes are zero.
 * Returns 0, or -EINVAL when the packet cannot be resized so and is left
 * unchanged. Only valid inside the hook, on the buffer it was given; no
 * syscall, no lock.
 */
int xskx_sim_xdp_adjust_tail(struct xskx_sim_xdp_buff *xdp, int offset);

/*
 * Packets that leave a port with no wire (and XDP_PASS packets, which go to
 * the "stack") are counted by the port; a sink callback also sees each one.
 */
enum xskx_sim_sink_kind {
	XSKX_SIM_SINK_TX = 0,	/* transmitted on a port without a wire */
	XSKX_SIM_SINK_STACK,	/* XDP_PASS: handed to the stack */
};

typedef void (*xskx_sim_sink_fn)(enum xskx_sim_sink_kind kind,
				 const uint8_t *data, uint32_t len,
				 uint32_t queue, void *ctx);

int xskx_sim_port_set_sink(struct xskx_sim_port *port, xskx_sim_sink_fn fn,
			   void *ctx);

/*
 * Put one packet on the port's RX side as if it came from the wire: RSS
 * picks the queue, and the packet lands in the next posted hardware buffer
 * (zero-copy) or runs through the copy-mode driver at once. Deterministic
 * mode only. Returns 0 when the NIC took the packet, or a negative errno
 * saying why it did not: -ENOBUFS, no free hardware buffer (the packet is
 * dropped and counted in rx_missed, as on a wire: not logged), -ENETDOWN
 * (link down), -EMSGSIZE or
 * -EINVAL (a frame over the MTU or shorter than an Ethernet header),
 * -EBUSY (the NIC thread runs). What happens after the NIC took it (the
 * XDP program's verdict, a copy-mode socket without a free frame) is
 * counted where it happens (xskx_sim_port_stats(), xskx_socket_stats()).
 */
int xskx_sim_port_inject(struct xskx_sim_port *port, const void *data,
			 uint32_t len);

/*
 * A traffic source: UDP/IPv4 frames from 192.0.2.1 to 192.0.2.2, port 9,
 * of pkt_size bytes (Ethernet header included, at least 60, at most MTU +
 * 14), `flows` distinct UDP source ports (1024 + sequence % flows) spread
 * by RSS, with a 64-bit big-endian sequence number in the first payload
 * bytes. Runs inside xskx_sim_poll() or on the NIC thread.
 */
struct xskx_sim_source_opts {
	size_t sz;
	uint32_t pkt_size;	/* 0: 64 */
	uint64_t count;		/* packets to send; 0: no limit */
	uint64_t rate_pps;	/* 0: as fast as the hardware ring takes them */
	uint32_t flows;		/* 0: 1 */
	uint32_t burst;		/* packets per injection round; 0: 64 */
};
#define xskx_sim_source_opts__last_field burst

int xskx_sim_port_add_source(struct xskx_sim_port *port,
			     const struct xskx_sim_source_opts *opts);

/*
 * Captures: a pcap or pcapng file (read with libpcap) replayed as traffic
 * arriving on a port, and what a port sends written to a pcap file; see
 * docs/CAPTURES.md. A replayed frame arrives as a source's does (RSS picks
 * its queue; source_packets counts it) with the bytes it was recorded with.
 *
 * The file is read whole when the source is added, so that every bad frame
 * is found before any is sent: a file that is not a capture, is cut short
 * or corrupt, records a link type other than Ethernet (DLT_EN10MB), or
 * holds a frame cut to the capture's snapshot length, shorter than an
 * Ethernet header or longer than the port's MTU + 14 + two VLAN tags is
 * refused with -EINVAL (-EMSGSIZE for the long frame, -ENOENT and the like
 * for a file that cannot be opened), and the log names the file and the
 * frame's number, counted from 1 as tcpdump and Wireshark count them.
 */
enum xskx_sim_capture_timing {
	/* As fast as the hardware ring takes them, as rate_pps 0 above. */
	XSKX_SIM_CAPTURE_ASAP = 0,
	/* rate_pps frames a second, whatever the capture's timestamps say. */
	XSKX_SIM_CAPTURE_RATE,
	/*
	 * The frames' own timing: frame k is due when as much time has passed
	 * since the first went as had passed between them when recorded (a
	 * timestamp earlier than the one before counts as the same time). A
	 * further loop starts where the last frame went.
	 */
	XSKX_SIM_CAPTURE_RECORDED,
};

/* Loop through the capture until the machine is destroyed. */
#define XSKX_SIM_CAPTURE_FOREVER UINT64_MAX

struct xskx_sim_capture_source_opts {
	size_t sz;
	const char *path;	/* the capture file: required */
	enum xskx_sim_capture_timing timing;
	uint64_t rate_pps;	/* XSKX_SIM_CAPTURE_RATE: required, others: 0 */
	uint64_t loops;		/* times through the file; 0: once */
	uint32_t burst;		/* frames per injection round at most; 0: 64 */
};
#define xskx_sim_capture_source_opts__last_field burst

/* Replay a capture on the port (see above). Returns 0 or a negative errno. */
int xskx_sim_port_add_capture_source(
	struct xskx_sim_port *port,
	const struct xskx_sim_capture_source_opts *opts);

/* The timestamps of a written capture. */
enum xskx_sim_capture_clock {
	/* When the port sent the frame (CLOCK_REALTIME). */
	XSKX_SIM_CAPTURE_CLOCK_REALTIME = 0,
	/*
	 * The k-th frame written (from 0) at k microseconds after the epoch:
	 * a run that sends the same frames writes the same file, byte for byte.
	 */
	XSKX_SIM_CAPTURE_CLOCK_COUNT,
};

struct xskx_sim_capture_opts {
	size_t sz;
	const char *path;	/* created or truncated: required */
	enum xskx_sim_capture_clock clock;
	bool stack;		/* also XDP_PASS packets (XSKX_SIM_SINK_STACK) */
};
#define xskx_sim_capture_opts__last_field stack

/*
 * Write every frame the port transmits on no wire (XSKX_SIM_SINK_TX: what
 * the sink sees) to a pcap file (link type Ethernet, nanosecond
 * timestamps), whole, besides the sink callback if one is set; the
 * port's capture_frames counts them. The writing runs in the NIC's work
 * (on the NIC thread in threaded mode), through stdio's buffer. -EINVAL
 * for a port that has a wire (its frames go to the peer) or a capture open
 * already, -errno when the file cannot be created.
 */
int xskx_sim_port_capture_open(struct xskx_sim_port *port,
			       const struct xskx_sim_capture_opts *opts);

/*
 * Flush and close the port's capture file: it is complete once this
 * returns 0; -EIO (the log names the file) when a write failed, -ENOENT
 * when no capture is open. xskx_sim_destroy() closes a capture left open,
 * logging a failure.
 */
int xskx_sim_port_capture_close(struct xskx_sim_port *port);

/*
 * Faults: with tx_stalled the NIC takes nothing from the TX rings; with
 * link_down the simulated sendto/recvfrom fail with -ENETDOWN (which the
 * burst API counts in kick_retries, as "try again") and nothing moves; with
 * wakeup_error every wakeup fails hard. All can be changed at any time.
 */
struct xskx_sim_faults {
	bool tx_stalled;
	bool link_down;
	/*
	 * A negative errno that every wakeup (sendto, recvfrom, poll) of the
	 * port's sockets fails with, as one that is not "try again" (-ENXIO,
	 * say): how a program copes with a wakeup that fails hard. 0: none.
	 */
	int wakeup_error;
};

int xskx_sim_port_set_faults(struct xskx_sim_port *port,
			     const struct xskx_sim_faults *faults);

/* The port's own counters, summed over its queues. */
struct xskx_sim_port_stats {
	uint64_t rx_packets;	/* arrived from the wire or a source */
	uint64_t rx_missed;	/* arrived with no hardware buffer to take it */
	uint64_t xdp_redirect;	/* delivered to an RX ring */
	uint64_t xdp_pass;
	uint64_t xdp_drop;	/* XDP_DROP and XDP_ABORTED */
	uint64_t xdp_tx;
	uint64_t xdp_redirect_err; /* redirect with no socket or RX ring full */
	uint64_t napi_polls;
	uint64_t napi_stops;	/* polls cut short by a full RX ring */
	uint64_t hw_refills;	/* refills of the hardware RX ring */
	uint64_t tx_packets;	/* sent on the wire / to the sink */
	uint64_t tx_bytes;
	uint64_t wire_drops;	/* sent to a peer that had no buffer, was down,
				   or whose MTU the frame exceeds */
	uint64_t source_packets; /* generated by this port's sources */
	uint64_t wasted_polls;	/* packets the poll processed, then dropped */
	uint64_t capture_frames; /* written to the capture file */
};

/* Sized as xskx_socket_stats() is (xskx/socket.h). */
int xskx_sim_port_stats_sized(const struct xskx_sim_port *port,
			      struct xskx_sim_port_stats *stats,
			      size_t stats_size);
#define xskx_sim_port_stats(port, stats)                                       \
	xskx_sim_port_stats_sized((port), (stats), sizeof(*(stats)))

/*
 * Deterministic mode: run the NIC for one round — sources inject, then
 * every queue of every port gets one NAPI poll (RX within budget, refill,
 * and TX for queues that are awake). Returns the number of packets moved
 * (0: idle), or -EBUSY while the NIC thread runs.
 */
int xskx_sim_poll(struct xskx_sim *sim);

/* Threaded mode: start and stop the NIC thread. */
int xskx_sim_start(struct xskx_sim *sim);
int xskx_sim_stop(struct xskx_sim *sim);

/* Deterministic mode: true while a source still has packets to send. */
bool xskx_sim_sources_active(const struct xskx_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_SIM_H */
