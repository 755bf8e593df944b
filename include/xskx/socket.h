/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Sockets and the burst API.
 *
 * A socket is bound to one queue of one port (xskx/port.h): an interface
 * on the kernel backend (a real AF_XDP socket) or a simulated NIC's port.
 * The burst API is the same code for both.
 *
 * One packet's life:
 *   xskx_rx_burst()    RX ring -> packet views; refills FILL from the pool
 *                      in batches; kicks the peer only if FILL's
 *                      need_wakeup flag is set.
 *   xskx_rx_release()  frames of packets you are done with -> FILL when
 *                      it is due a refill, else the pool.
 *   xskx_tx_burst()    reclaims COMPLETION (into FILL or the pool, the
 *                      same way), then packet views
 *                      -> TX ring; kicks only if TX's need_wakeup flag is set
 *                      (always on a busy-polling port).
 *
 * Forwarding a received packet out of another socket on the same UMEM is
 * xskx_tx_burst() of the very views xskx_rx_burst() returned: no copy.
 */
#ifndef XSKX_SOCKET_H
#define XSKX_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/opts.h>
#include <xskx/port.h>
#include <xskx/ring.h>
#include <xskx/umem.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_umem;
struct xskx_socket;

/* opts.flags */
#define XSKX_SOCKET_NO_RX (1u << 0)	  /* no RX ring (TX only) */
#define XSKX_SOCKET_NO_TX (1u << 1)	  /* no TX ring (RX only) */
#define XSKX_SOCKET_NO_WAKEUP (1u << 2)	  /* bind without XDP_USE_NEED_WAKEUP */
#define XSKX_SOCKET_MULTI_BUFFER (1u << 4) /* XDP_USE_SG */

enum xskx_copy_mode {
	XSKX_COPY_AUTO = 0,	/* zero-copy where the driver has it, else copy */
	XSKX_COPY_FORCE,	/* XDP_COPY */
	XSKX_ZEROCOPY_FORCE,	/* XDP_ZEROCOPY: -EOPNOTSUPP where unsupported */
};

struct xskx_socket_opts {
	size_t sz;
	/*
	 * The interface (xskx/port.h) and its queue, for xskx_socket_open();
	 * xskx_socket_open_queue() takes them as arguments.
	 */
	struct xskx_port *port;
	uint32_t queue_id;
	uint32_t rx_size;	/* RX ring entries; 0: XSKX_RING_DEFAULT_SIZE */
	uint32_t tx_size;	/* TX ring entries; 0: likewise */
	uint32_t flags;		/* XSKX_SOCKET_* */
	enum xskx_copy_mode copy_mode;
	/*
	 * FILL is refilled when at least this many slots are free (or at once
	 * when the peer has run dry). 0: 64. Never one descriptor at a time.
	 */
	uint32_t refill_batch;
	/*
	 * Frames put on FILL when the socket opens, within fill_max. 0: none;
	 * the first xskx_rx_burst() or xskx_socket_poll() fills FILL up to
	 * fill_max, once every socket of the UMEM is open and the shares are
	 * final (docs/FRAME_SHARING.md). Packets that arrive before are
	 * dropped and counted by the peer; xskx_rx_burst(sock, NULL, 0) after
	 * the last socket of the UMEM opened posts the shares at once.
	 */
	uint32_t fill_frames;
	/*
	 * The most frames this queue keeps out with the peer for receiving:
	 * on FILL, in the NIC and on RX (docs/FRAME_SHARING.md). 0: a fair
	 * share — the UMEM's frames less the largest tx_reserve and the
	 * fill_max other queues chose, divided equally among the receiving
	 * queues of the UMEM; shares are recomputed as sockets open and
	 * close. Not bounded by the FILL ring: a zero-copy NIC keeps frames
	 * in its own RX descriptors too. A socket sharing another's FILL ring
	 * (same port and queue) uses the first one's. At most the UMEM's
	 * frame count.
	 */
	uint32_t fill_max;
	/*
	 * Frames that filling FILL leaves in the pool for the application's
	 * own packets (xskx_frame_alloc), so that receiving can never starve
	 * sending. 0: half of the UMEM's frames, rounded up, for a socket with
	 * both an RX and a TX ring, none otherwise. XSKX_TX_RESERVE_NONE: none — for
	 * forwarders that only transmit the frames they received.
	 */
	uint32_t tx_reserve;
	/*
	 * The TX metadata requests this socket's packets will make
	 * (XSKX_TX_META_*; xskx_tx_meta()), on a UMEM with tx_metadata_len.
	 * Each must be one the socket's mode on its device honours
	 * (xskx_socket_info's tx_metadata_supported): the open fails with
	 * -EOPNOTSUPP naming the request and the device otherwise, and
	 * xskx_tx_burst() refuses a packet asking for one not given here.
	 */
	uint32_t tx_metadata;
	/*
	 * Coalesce TX wakeups. With tx_kick_batch N, a TX call
	 * (xskx_tx_burst(), xskx_rx_forward(), xskx_tx_submit()) wakes the
	 * peer once at least N packets wait on the TX ring, or once the
	 * first of them has waited tx_kick_usec microseconds; with
	 * tx_kick_usec 0, on the first call that queues none (the
	 * application has nothing more to send right now). A full TX ring,
	 * xskx_tx_reclaim() and xskx_socket_poll() (as poll(2) does) always
	 * wake it. For copy mode, where every
	 * wakeup is a sendto() and the kernel sends only inside it: fewer
	 * syscalls, each sending more, for at most that much latency — as
	 * long as the application keeps calling (a packet queued by the
	 * last call before it stops waits for xskx_tx_reclaim() or
	 * xskx_socket_poll()).
	 * tx_kick_batch 0: wake the peer on every call that queued packets
	 * (the default). tx_kick_batch at most tx_size; tx_kick_usec at most
	 * XSKX_TX_KICK_USEC_MAX, and only with tx_kick_batch.
	 */
	uint32_t tx_kick_batch;
	uint32_t tx_kick_usec;
};
#define xskx_socket_opts__last_field tx_kick_usec

/* The longest tx_kick_usec: one second. */
#define XSKX_TX_KICK_USEC_MAX 1000000u

/*
 * xskx_socket_opts.tx_metadata and struct xsk_tx_metadata's flags: the
 * kernel's XDP_TXMD_FLAGS_* values.
 *
 * TIMESTAMP: when the packet completes, the peer writes the time it left
 * into the metadata (completion.tx_timestamp); xskx_tx_timestamps() hands
 * those over. Copy mode: a software time, CLOCK_TAI, taken as the kernel
 * frees the packet's skb; zero-copy: the device's clock.
 *
 * CHECKSUM: the peer computes the checksum from csum_start (bytes from the
 * data's start) to the packet's end and stores it at csum_start +
 * csum_offset, where the application put the pseudo-header's sum (as
 * CHECKSUM_PARTIAL has it); csum_start + csum_offset + 2 must be at most
 * the packet's length. Copy mode hands the request to the device as an
 * skb checksum offload (XSKX_UMEM_TX_SW_CSUM: computed in software
 * first); zero-copy: the device computes it.
 *
 * LAUNCH_TIME: the device sends the packet at request.launch_time (its
 * clock); zero-copy only, on a device that reports it.
 */
#define XSKX_TX_META_TIMESTAMP (1u << 0)
#define XSKX_TX_META_CHECKSUM (1u << 1)
#define XSKX_TX_META_LAUNCH_TIME (1u << 2)

#define XSKX_TX_RESERVE_NONE UINT32_MAX

/*
 * Open a socket on a queue of a port and bind it. The first socket on a UMEM
 * registers the UMEM with the backend and owns its FILL/COMPLETION pair; a
 * later socket on the same port and queue shares that pair, and one on
 * another port or queue gets its own, fed from the same frame pool. A later
 * socket inherits the first one's need_wakeup and multi-buffer mode (the
 * kernel's shared-UMEM rule): its own XSKX_SOCKET_NO_WAKEUP and
 * XSKX_SOCKET_MULTI_BUFFER are not used. A UMEM serves the backend of its
 * first socket for its whole life. Of several sockets with an RX ring on
 * one port and queue, the newest receives the queue's packets (it holds
 * the queue's XSKMAP slot); when it closes, the newest one left does.
 *
 * The first socket with an RX ring on a kernel port attaches the port's XDP
 * program (xskx/port.h) and every receiving socket takes its queue's XSKMAP
 * slot.
 *
 * Returns 0, or a negative errno with a message naming the culprit: -EINVAL
 * (no port, ring size not a power of two or above XSKX_RING_MAX_SIZE, queue
 * out of range, unknown flag, a UMEM with too few frames: every receiving
 * queue needs its fill_max or one frame, plus the largest tx_reserve, and
 * the message names the numbers), -EBUSY (the queue is held by another
 * socket, another process's XDP program differs), -EOPNOTSUPP (zero-copy
 * forced where there is none, native XDP without fallback on a driver
 * without it). Rings longer than the UMEM's frames can ever fill (64 frames
 * under 2048-entry rings), which the kernel takes, open with a warning
 * naming the frames, the rings and the sizes that would do.
 * Syscalls: socket, setsockopt, mmap and bind on the kernel backend.
 */
int xskx_socket_open(struct xskx_socket **sock, struct xskx_umem *umem,
		     const struct xskx_socket_opts *opts);

/*
 * xskx_socket_open() with the port and the queue as arguments, as they are
 * required: opts may be NULL (every default), and its port and queue_id,
 * when set, must agree with them (-EINVAL naming both otherwise).
 */
int xskx_socket_open_queue(struct xskx_socket **sock, struct xskx_port *port,
			   uint32_t queue_id, struct xskx_umem *umem,
			   const struct xskx_socket_opts *opts);

/*
 * Unbind and free the socket. On the simulated NIC every frame it held (on
 * its rings or in the peer) goes back to the UMEM's pool. On the kernel
 * backend what is left on RX and COMPLETION (and, in copy mode, on TX and
 * FILL) goes back at once; frames the kernel itself still holds come back when the
 * UMEM's last socket closes while the application holds no frame, and until
 * then the census counts them under nic. Frames the application holds stay
 * the application's. Returns 0 or a negative errno.
 */
int xskx_socket_close(struct xskx_socket *sock);

/* A received packet, or one to transmit. */
struct xskx_pkt {
	uint64_t addr;		/* UMEM address of the data, as in xdp_desc */
	uint32_t len;
	uint32_t options;	/* XDP_PKT_CONTD: more fragments follow */
	uint8_t *data;		/* the data, inside the UMEM (RX only) */
};

/*
 * The size bytes of metadata in front of a received packet's data: what
 * the XDP program put there with bpf_xdp_adjust_meta() (the simulated
 * NIC's hook, with xskx_sim_xdp_buff.meta_len), ending where the data
 * begins. NULL for a packet without data (a TX view) or a size above
 * XSKX_XDP_META_MAX. Valid only for the first fragment of a packet and
 * only as far as the program put that much metadata there: nothing in the
 * descriptor says how much it did (bytes beyond it are whatever the frame's
 * headroom held), so the program and the application agree on a layout.
 * xskx's own program puts none.
 */
static inline void *xskx_pkt_meta(const struct xskx_pkt *pkt, size_t size)
{
	if (!pkt->data || size > XSKX_XDP_META_MAX)
		return NULL;
	return pkt->data - size;
}

/*
 * The TX metadata of a packet about to be sent on a UMEM with
 * tx_metadata_len: the struct xsk_tx_metadata at the start of the
 * tx_metadata_len bytes in front of pkt's data (pkt->addr, offset bits
 * included in unaligned mode), zeroed, and XDP_TX_METADATA set in
 * pkt->options so that the descriptor carries it. Fill in flags
 * (XSKX_TX_META_*, as the socket's tx_metadata allows) and the request.
 * NULL, with a message, when the UMEM has no tx_metadata_len or that room
 * is not inside pkt's frame. No syscall.
 */
struct xsk_tx_metadata *xskx_tx_meta(struct xskx_umem *umem,
				     struct xskx_pkt *pkt);

/*
 * The TX time of a packet sent with XSKX_TX_META_TIMESTAMP: its address
 * (as it was in the descriptor) and completion.tx_timestamp, in ns.
 */
struct xskx_tx_timestamp {
	uint64_t addr;
	uint64_t tx_timestamp;
};

/*
 * Take up to max TX timestamps, oldest first, of packets that completed
 * since the last call: the reclaim inside xskx_tx_burst() and
 * xskx_tx_reclaim() reads each completed packet's timestamp before its
 * frame returns to the pool, and keeps up to the TX ring's size of them;
 * beyond that the newest are counted in tx_timestamps_dropped. Returns
 * how many, or -EINVAL (NULL arguments, or a socket opened without
 * XSKX_TX_META_TIMESTAMP). No syscall.
 */
int xskx_tx_timestamps(struct xskx_socket *sock, struct xskx_tx_timestamp *ts,
		       uint32_t max);

/*
 * The packet that starts at pkts[0]: with multi-buffer (XSKX_SOCKET_MULTI_BUFFER)
 * a chain of fragments, each but the last with XDP_PKT_CONTD. Returns how
 * many of the n entries it spans (1 for a packet in one frame), and its
 * total length in *len (may be NULL); 0 when its chain does not end within
 * the n entries (*len then the bytes of those n). The next packet starts at
 * pkts[returned]:
 *
 *	for (i = 0; i < n; i += frags)
 *		frags = xskx_pkt_frags(&pkts[i], n - i, &len);
 *
 * xskx_rx_burst() returns whole packets only, so a received burst never
 * yields 0; xskx_tx_burst() takes a chain whole or not at all.
 */
uint32_t xskx_pkt_frags(const struct xskx_pkt *pkts, uint32_t n,
			uint32_t *len);

/*
 * Receive up to max packets into pkts. Returns the number received (0 when
 * none) or a negative errno when a needed kick failed for a reason other
 * than "try again" (-ENXIO...). After draining RX it refills FILL from the
 * pool when the batch watermark is met; when RX is empty, kicks the peer if FILL's
 * need_wakeup flag is set (always on a busy-polling port), never
 * otherwise. The frames of returned packets belong to the application until
 * given back by xskx_rx_release() or xskx_tx_burst(). With multi-buffer a
 * burst holds whole packets only (xskx_pkt_frags() walks them): a chain max
 * would cut stays on RX for the next burst, and -EINVAL says when the next
 * packet alone has more fragments than max. When the kick fails
 * after packets were received, the packets are returned and the error comes
 * from the next burst on the socket (xskx_tx_burst likewise).
 */
int xskx_rx_burst(struct xskx_socket *sock, struct xskx_pkt *pkts,
		  uint32_t max);

/*
 * Give the frames of n packets back: straight onto the socket's FILL ring
 * when the refill would post them now anyway (FILL lacks a refill batch or
 * the peer asked for frames, all n fit the queue's share, and the pool
 * holds the TX reserve), else to the pool, from where a later
 * xskx_rx_burst() refills FILL in a batch. No syscall. A packet whose frame
 * the application does not hold (released twice, already sent) or whose
 * address is outside the UMEM is refused and counted (the census's
 * double_frees and foreign_frees): returns 0, or -EINVAL naming the first
 * refused one once every good frame is back.
 */
int xskx_rx_release(struct xskx_socket *sock, const struct xskx_pkt *pkts,
		    uint32_t n);

/*
 * Reclaim completions, then put up to n packets on the TX ring and kick the
 * peer if TX holds descriptors and TX's need_wakeup flag is set (always on a
 * busy-polling port). Returns how many packets were accepted (their
 * frames now belong to the library and return to the pool when completed) —
 * fewer than n when the TX ring is full or a bad packet ends the burst: the
 * rest stay the caller's, to retry or release — or a negative errno when the
 * kick failed for a reason other than "try again". With multi-buffer, a
 * chain of fragments is accepted whole or not at all, and a chain that
 * reaches xskx_socket_info's max_frags with XDP_PKT_CONTD still set is
 * refused (-EINVAL, naming the limit): the kernel would drop it whole.
 *
 * Every packet is checked before it reaches the ring, so that none can be
 * swallowed by the peer without its frame coming back: options only
 * XDP_PKT_CONTD (and only with XSKX_SOCKET_MULTI_BUFFER) and
 * XDP_TX_METADATA (on a UMEM with tx_metadata_len), len at least 1,
 * on such a UMEM the metadata room inside the frame in front of the data,
 * and a packet's metadata asking only for what the socket's tx_metadata
 * allows, its checksum inside the packet (the kernel's copy mode would
 * otherwise fail every sendto from that packet on, the descriptor stuck
 * at the head of TX: docs/KERNEL_RULES.md, "TX metadata"),
 * the address inside the UMEM, the data inside its frame (len at most the
 * frame size less the address's offset in the frame, in both chunk modes),
 * the frame held by the application, a chain ended inside the burst. The
 * first bad packet ends the burst: when it is pkts[0] the call returns
 * -EINVAL with a message naming it and why, and counts it in tx_rejected;
 * otherwise the call returns its index and the next call, starting with it,
 * returns that -EINVAL. A kick that fails hard after packets were accepted
 * likewise comes from the next call on the socket. xskx_tx_burst_status()
 * reports both from the call that meets them.
 */
int xskx_tx_burst(struct xskx_socket *sock, const struct xskx_pkt *pkts,
		  uint32_t n);

/*
 * xskx_tx_burst() with its count and its error apart, as libbpf's batch
 * map calls report theirs: *accepted is how many of pkts the TX ring took
 * (their frames now the library's), whatever the result; pkts[*accepted]
 * onward stay the caller's. Returns 0 when nothing went wrong — all n
 * accepted, or TX full (*accepted < n: retry the rest later) — or the
 * negative errno of what this very call met: -EINVAL for the bad packet
 * pkts[*accepted] (at any index; counted in tx_rejected, a message names
 * its index, address and fault), or the error of a kick that failed hard
 * after the accepted packets went on the ring (-ENXIO...; they stay
 * there). Never defers an error to a later call; -EINVAL also for a NULL
 * accepted. Same checks, kicks and cost as xskx_tx_burst().
 */
int xskx_tx_burst_status(struct xskx_socket *sock, const struct xskx_pkt *pkts,
			 uint32_t n, uint32_t *accepted);

/*
 * Move completed TX frames from COMPLETION to the pool. Returns how many,
 * or a negative errno: -EINVAL for a NULL socket, or the error of its kick
 * when that failed for a reason other than "try again" (-ENXIO...; the
 * completions are reclaimed all the same). xskx_tx_burst() does this
 * itself; call it to drain after the last burst. When descriptors are
 * still queued on TX and the peer asks for a wakeup (always so in copy
 * mode, where the kernel sends only inside sendto), it kicks once first.
 */
int xskx_tx_reclaim(struct xskx_socket *sock);

/*
 * Wait up to timeout_ms (0: don't wait; -1: forever) for RX to be non-empty
 * (POLLIN) or TX to have room (POLLOUT), as poll(2) on the socket does —
 * including its kick when a need_wakeup flag is set. Returns the ready
 * events (0 on timeout) or a negative errno. On the simulated NIC in
 * deterministic mode it never sleeps.
 */
int xskx_socket_poll(struct xskx_socket *sock, short events, int timeout_ms);

/* One socket of xskx_socket_poll_many(), as struct pollfd is of poll(2). */
struct xskx_poll_socket {
	struct xskx_socket *sock;
	short events;	/* POLLIN, POLLOUT */
	short revents;	/* set by the call */
};

/* The most sockets one xskx_socket_poll_many() waits on. */
#define XSKX_POLL_MANY_MAX 256u

/*
 * Wait up to timeout_ms (0: don't wait; -1: forever) until one of n sockets
 * is ready, as xskx_socket_poll() waits for one; each entry's revents says
 * what it is ready for. Plain poll(2) on the sockets' fds is not the same:
 * this refills FILL from the pool first for every socket waiting for RX
 * (with FILL empty the peer has nowhere to put a packet, and the wait would
 * never end), and it waits on sockets of the simulated NIC too, which have
 * no fd. Kernel sockets only: one poll(2), which kicks a socket whose
 * need_wakeup flag is set, as poll(2) does. With a simulated socket among
 * them: each socket polled in turn (kicks included), then, while none is
 * ready, again every millisecond; in deterministic mode, where the
 * simulated NIC never sleeps, after the first pass (as xskx_socket_poll()).
 * Returns how many entries have revents, 0 on timeout, or a negative errno
 * (-EINVAL for a NULL array or socket, n 0 or above XSKX_POLL_MANY_MAX).
 */
int xskx_socket_poll_many(struct xskx_poll_socket *socks, uint32_t n,
			  int timeout_ms);

/* The statistics of one socket. */
struct xskx_stats {
	/* The kernel's XDP_STATISTICS, with its names and meaning. */
	uint64_t rx_dropped;
	uint64_t rx_invalid_descs;
	uint64_t tx_invalid_descs;
	uint64_t rx_ring_full;
	uint64_t rx_fill_ring_empty_descs;
	uint64_t tx_ring_empty_descs;
	/* Counted by the library. */
	uint64_t rx_packets;	/* descriptors returned by xskx_rx_burst */
	uint64_t rx_bytes;
	uint64_t tx_packets;	/* descriptors accepted by xskx_tx_burst */
	uint64_t tx_bytes;
	uint64_t tx_completed;	/* frames reclaimed from COMPLETION */
	uint64_t rx_kicks;	/* wakeups issued for FILL/RX */
	uint64_t tx_kicks;	/* wakeups issued for TX */
	uint64_t kicks_skipped;	/* bursts that issued no kick */
	uint64_t kick_retries;	/* kicks answered "try again" (EAGAIN...) */
	uint64_t fill_refills;	/* batches put on FILL */
	uint64_t tx_ring_full;	/* bursts cut short by a full TX ring */
	uint64_t tx_rejected;	/* bad packets refused by xskx_tx_burst (-EINVAL) */
	/*
	 * COMPLETION entries outside the UMEM, left out of the pool: copy
	 * mode completes invalid TX descriptors too, whatever their address.
	 */
	uint64_t tx_bad_completions;
	/* TX timestamps not kept: xskx_tx_timestamps() was not called enough. */
	uint64_t tx_timestamps_dropped;
};

/*
 * Read the statistics: the peer's six counters (getsockopt XDP_STATISTICS
 * on the kernel backend) plus the library's own. The structure may grow:
 * the library fills stats_size bytes (what an older caller knows) and zeroes
 * what it does not know itself; the xskx_socket_stats() macro passes
 * sizeof(*stats). Returns 0 or a negative errno.
 */
int xskx_socket_stats_sized(struct xskx_socket *sock, struct xskx_stats *stats,
			    size_t stats_size);
#define xskx_socket_stats(sock, stats)                                         \
	xskx_socket_stats_sized((sock), (stats), sizeof(*(stats)))

/*
 * How the socket is bound: zero_copy as the peer reports it (XDP_OPTIONS),
 * need_wakeup and multi_buffer as the bind asked for them.
 */
struct xskx_socket_info {
	bool zero_copy;
	bool need_wakeup;
	bool multi_buffer;
	uint32_t queue_id;
	const char *backend;	/* "kernel" or "sim" */
	/*
	 * The most descriptors one packet may span on TX, the kernel's limit
	 * for this socket: 1 without multi-buffer; in copy mode one skb's
	 * buffers (net.core.max_skb_frags + 1, 18 by default); in zero-copy
	 * mode the driver's xdp_zc_max_segs. xskx_tx_burst() refuses a chain
	 * still open at this many.
	 */
	uint32_t max_frags;
	/*
	 * TX metadata: the requests (XSKX_TX_META_*) the socket's mode on its
	 * device honours — copy mode: TIMESTAMP and CHECKSUM (the kernel
	 * does both); zero-copy: what the driver reports (xskx_port_info's
	 * tx_metadata); the simulated NIC: TIMESTAMP and CHECKSUM — and those
	 * the socket was opened with. 0 on a UMEM without tx_metadata_len.
	 */
	uint32_t tx_metadata_supported;
	uint32_t tx_metadata;
};

/* Sized as xskx_socket_stats() is; use the xskx_socket_info() macro. */
int xskx_socket_info_sized(const struct xskx_socket *sock,
			   struct xskx_socket_info *info, size_t info_size);
#define xskx_socket_info(sock, info)                                           \
	xskx_socket_info_sized((sock), (info), sizeof(*(info)))

/* The kernel socket's file descriptor; -EOPNOTSUPP on the simulated NIC. */
int xskx_socket_fd(const struct xskx_socket *sock);

struct xskx_umem *xskx_socket_umem(const struct xskx_socket *sock);

/*
 * Raw access to the four rings, for programs that drive them with libxdp's
 * inline ring operations themselves (xskx-bench --baseline does). Anything
 * taken this way must be accounted for by the caller.
 */
struct xskx_rings {
	struct xsk_ring_prod *fill;
	struct xsk_ring_cons *comp;
	struct xsk_ring_cons *rx;	/* NULL without an RX ring */
	struct xsk_ring_prod *tx;	/* NULL without a TX ring */
	void *area;
};

int xskx_socket_rings(struct xskx_socket *sock, struct xskx_rings *rings);

/* How a thread waits for a socket's packets. */
enum xskx_wakeup {
	XSKX_WAKEUP_BUSY_LOOP = 0, /* bursts back to back, never sleeping */
	XSKX_WAKEUP_POLL,	   /* xskx_socket_poll() before each burst */
};

/*
 * Choose how the calling thread should wait for the socket's packets.
 * XSKX_WAKEUP_POLL when the queue's NAPI runs in a kernel thread (threaded
 * NAPI) that may run on a CPU the calling thread may run on: a busy loop
 * there takes the CPU from the thread that delivers the packets. Otherwise
 * XSKX_WAKEUP_BUSY_LOOP: packets arrive from softirq context, or from the
 * simulated NIC's own thread, and sleeping only adds wakeups. XSKX_WAKEUP=
 * poll or loop in the environment overrides the choice. The choice and
 * its reason are logged at info level; *why, when why is not NULL, points
 * to the reason (a static string). Returns 0, or a negative errno: -EINVAL
 * for a NULL argument or an XSKX_WAKEUP other than poll or loop.
 * Syscalls: netlink (the queue's NAPI), sched_getaffinity.
 */
int xskx_socket_choose_wakeup(const struct xskx_socket *sock,
			      enum xskx_wakeup *mode, const char **why);

/*
 * The bare wakeups: recvfrom(MSG_DONTWAIT) and sendto(MSG_DONTWAIT) on the
 * kernel backend, their simulated equivalents on the simulated NIC. They
 * kick unconditionally; the burst API calls them only when a flag asks.
 * "Try again" (EAGAIN, EBUSY, ENOBUFS, ENETDOWN) returns 0 and counts in
 * kick_retries; other errors a negative errno.
 */
int xskx_socket_kick_rx(struct xskx_socket *sock);
int xskx_socket_kick_tx(struct xskx_socket *sock);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_SOCKET_H */
