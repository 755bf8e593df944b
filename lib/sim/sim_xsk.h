/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The simulated NIC's AF_XDP socket, shaped like the kernel's syscalls.
 *
 * lib/sim/backend_sim.c drives a simulated socket exactly as libxdp drives a
 * kernel one: socket(), setsockopt(XDP_UMEM_REG), setsockopt(XDP_*_RING),
 * mmap of each ring, bind(), then sendto()/recvfrom()/poll() as wakeups
 * (sim_wakeup.h) and getsockopt(XDP_STATISTICS / XDP_OPTIONS). Each call here validates its
 * arguments as the kernel does and fails with the kernel's errno; the
 * reason, naming the culprit ("bind: queue 4 out of range: port sim0 has 2
 * queues"), is kept for xskx__last_reason() (lib/log_internal.h), as errno
 * is, not logged: the caller logs it with its context or retries.
 */
#ifndef XSKX_SIM_XSK_H
#define XSKX_SIM_XSK_H

#include <linux/if_xdp.h>
#include <stdint.h>

struct xskx_sim;
struct xskx_sim_port;
struct sim_xsk;

/* socket(AF_XDP, SOCK_RAW, 0) */
int xskx__sim_xsk_socket(struct xskx_sim *sim, struct sim_xsk **xsk);

/* struct xdp_umem_reg as Linux 6.8 has it (6.1's headers stop at flags). */
struct sim_umem_reg {
	uint64_t addr;
	uint64_t len;
	uint32_t chunk_size;
	uint32_t headroom;
	uint32_t flags; /* XDP_UMEM_UNALIGNED_CHUNK_FLAG, _TX_SW_CSUM, _TX_METADATA_LEN */
	uint32_t tx_metadata_len;
};

/*
 * setsockopt(XDP_UMEM_REG): -EINVAL (the checks of the kernel's
 * xdp_umem_reg()), -EFAULT (no area), -EBUSY (already registered or bound).
 */
int xskx__sim_xsk_umem_reg(struct sim_xsk *xsk, const struct sim_umem_reg *reg);

/*
 * setsockopt(XDP_RX_RING / XDP_TX_RING / XDP_UMEM_FILL_RING /
 * XDP_UMEM_COMPLETION_RING, entries): -EINVAL when not a non-zero power of
 * two or when that ring exists already (the kernel's xsk_init_queue()),
 * -EBUSY once the socket is bound. A new TX ring has XDP_RING_NEED_WAKEUP
 * set, as in the kernel: TX needs one wakeup to start.
 */
int xskx__sim_xsk_set_ring(struct sim_xsk *xsk, int which, uint32_t entries);

/* What mmap(XDP_PGOFF_* / XDP_UMEM_PGOFF_*) plus XDP_MMAP_OFFSETS yield. */
struct sim_ring_map {
	uint32_t *producer;
	uint32_t *consumer;
	uint32_t *flags;
	void *desc; /* uint64_t[] for FILL/COMP, xdp_desc[] for RX/TX */
	uint32_t entries;
};

/* which: XDP_RX_RING, XDP_TX_RING, XDP_UMEM_FILL_RING, XDP_UMEM_COMPLETION_RING */
int xskx__sim_xsk_map_ring(struct sim_xsk *xsk, int which, struct sim_ring_map *map);

/*
 * bind(): flags are the sockaddr_xdp flags (XDP_SHARED_UMEM, XDP_COPY,
 * XDP_ZEROCOPY, XDP_USE_NEED_WAKEUP, XDP_USE_SG); shared is the socket whose
 * UMEM this one shares (with XDP_SHARED_UMEM), else NULL. As in the kernel,
 * the shared socket decides the FILL/COMPLETION pair: bound to the same port
 * and queue, its pair is used (this socket must have set none); bound
 * elsewhere, this socket brings its own pair for (port, queue_id), which
 * must be free. Errors as the kernel's xsk_bind(): -EINVAL, -EBUSY (bound
 * already, queue held), -EOPNOTSUPP (XDP_ZEROCOPY on a port without it),
 * -EBADF (shared socket not bound), -ENODEV (no port). A down link does not
 * fail bind.
 */
int xskx__sim_xsk_bind(struct sim_xsk *xsk, struct xskx_sim_port *port,
		       uint32_t queue_id, uint16_t flags, struct sim_xsk *shared);

/*
 * setsockopt(XDP_MAX_TX_SKB_BUDGET): descriptors a copy-mode sendto sends
 * at most, in [32, the TX ring's entries] (lib/kernel_rules.h); -EACCES
 * outside, or without a TX ring. 32 until set.
 */
int xskx__sim_xsk_set_tx_budget(struct sim_xsk *xsk, uint32_t budget);

/*
 * getsockopt(XDP_STATISTICS) and getsockopt(XDP_OPTIONS). Unlike the kernel,
 * rx_invalid_descs reports the FILL entries the NIC found invalid (the
 * kernel counts them on its FILL queue but reports its RX queue's count,
 * which nothing raises); rx_fill_ring_empty_descs and rx_invalid_descs are
 * the pair's, shared by the sockets on it.
 */
int xskx__sim_xsk_get_stats(struct sim_xsk *xsk, struct xdp_statistics *stats);
int xskx__sim_xsk_get_options(struct sim_xsk *xsk, struct xdp_options *opts);

/*
 * Frames of this socket's FILL/COMPLETION pair that the NIC holds: taken from
 * FILL and not yet on RX (posted in the hardware ring, DMA'd, recycled), and
 * taken from TX and not yet on COMPLETION (none: the simulated hardware
 * completes within the pass that takes them). Frames of invalid TX
 * descriptors are not held: zero-copy never completes them, copy mode
 * completes them at once. For the frame census.
 */
uint32_t xskx__sim_xsk_frames_in_nic(const struct sim_xsk *xsk);

/*
 * The most descriptors one TX packet may span on this bound socket, as the
 * kernel's: the port's max_frags in zero-copy mode (xdp_zc_max_segs), one
 * skb's buffers (SIM_COPY_MAX_FRAGS) in copy mode; 1 without XDP_USE_SG.
 */
uint32_t xskx__sim_xsk_tx_max_frags(const struct sim_xsk *xsk);

/*
 * close(): unbind, release the queue (a later bind on it succeeds at once),
 * free the rings. Every frame the application side will never see again is
 * handed to give_back so the library can return it to its pool: the entries
 * left on this socket's RX and TX rings, and — when this was the last socket
 * using its FILL/COMPLETION pair — the entries left on FILL and COMPLETION
 * plus every frame the NIC held for the pair. While another socket shares
 * the pair, the NIC keeps those. One call per entry, with the frame's start
 * (aligned mode) or, in unaligned mode, a FILL entry's address plus its
 * offset (where the NIC would have put the data) and the other entries'
 * addresses without their offset bits; entries pointing outside the UMEM
 * are skipped. give_back may be NULL. A UMEM owner's registration lives on while a socket shares it, as in
 * the kernel.
 */
void xskx__sim_xsk_close(struct sim_xsk *xsk,
		         void (*give_back)(uint64_t addr, void *ctx), void *ctx);

#endif /* XSKX_SIM_XSK_H */
