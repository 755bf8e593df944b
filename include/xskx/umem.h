/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * UMEM: the packet buffer area shared with the peer, cut into frames, and the
 * frame pool that hands those frames out.
 *
 * Frame ownership is the invariant everything rests on: at any moment each
 * frame is in exactly one place — the pool, the FILL ring, the NIC, the RX
 * ring, the application, the TX ring or the COMPLETION ring.
 * xskx_umem_census() counts them.
 *
 * A UMEM and the sockets on it are used from one thread at a time (like the
 * rings themselves: single producer, single consumer). A program with one
 * thread per queue gives each thread its own UMEM.
 */
#ifndef XSKX_UMEM_H
#define XSKX_UMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx/opts.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xskx_umem;

/* Chunk-mode flag, the kernel's XDP_UMEM_UNALIGNED_CHUNK_FLAG. */
#define XSKX_UMEM_UNALIGNED (1u << 0)
/*
 * Map the area from 2 MiB hugepages (MAP_HUGETLB), physically contiguous per
 * 2 MiB: what unaligned chunks that straddle a 4 KiB page need on a
 * zero-copy driver. The system must have them reserved (vm.nr_hugepages):
 * -ENOMEM names how many otherwise. Not with a caller's area (map yours
 * with MAP_HUGETLB instead).
 */
#define XSKX_UMEM_HUGEPAGES (1u << 16)
/*
 * With tx_metadata_len: the kernel computes a checksum that a packet's TX
 * metadata asks for (XDP_TXMD_FLAGS_CHECKSUM) in software before the packet
 * leaves, instead of leaving it to the device (the kernel's
 * XDP_UMEM_TX_SW_CSUM, 6.11+; copy mode). On veth, whose "offload" hands the
 * unfinished checksum to the peer, this is what puts a correct one on the
 * wire.
 */
#define XSKX_UMEM_TX_SW_CSUM (1u << 1)

#define XSKX_UMEM_DEFAULT_FRAME_COUNT 4096
#define XSKX_UMEM_DEFAULT_FRAME_SIZE 4096
#define XSKX_RING_DEFAULT_SIZE 2048
/*
 * The largest ring xskx makes (4M entries: 64 MiB of TX descriptors). The
 * kernel takes any non-zero power of two it can allocate at once — 1 is
 * the smallest; on a 6.18 kernel with 23 GiB of RAM RX and TX rings up to
 * 2^30 entries and FILL and COMPLETION up to 2^31
 * (scripts/kernel-ring-limits.sh) — so this limit is xskx's own: deeper
 * rings hold more descriptors than a UMEM sensibly has frames to give
 * them, and a ring's memory is taken whole at bind.
 */
#define XSKX_RING_MAX_SIZE (1u << 22)

/* Bytes the kernel keeps in front of every frame's data (XDP_PACKET_HEADROOM). */
#define XSKX_XDP_PACKET_HEADROOM 256
/*
 * The most metadata an XDP program can put in front of a packet's data
 * (bpf_xdp_adjust_meta(): a multiple of 4 bytes, at most 32), inside that
 * headroom: xskx_pkt_meta().
 */
#define XSKX_XDP_META_MAX 32
/*
 * TX metadata (xskx_umem_opts.tx_metadata_len): the kernel takes a multiple
 * of 8 below 256; xskx needs room for struct xsk_tx_metadata (24 bytes).
 */
#define XSKX_TX_METADATA_LEN_MIN 24
#define XSKX_TX_METADATA_LEN_MAX 248

struct xskx_umem_opts {
	size_t sz;
	/*
	 * The area. NULL: the library maps frame_count * frame_size bytes
	 * itself (page-aligned, zeroed) and unmaps them on destroy. Non-NULL:
	 * the caller's page-aligned area of `size` bytes; frame_count is then
	 * size / frame_size and must not be set.
	 */
	void *area;
	uint64_t size;
	uint32_t frame_count;	/* 0: XSKX_UMEM_DEFAULT_FRAME_COUNT */
	uint32_t frame_size;	/* chunk size; 0: XSKX_UMEM_DEFAULT_FRAME_SIZE */
	uint32_t headroom;	/* extra headroom in front of each packet: at most frame_size - 704 */
	uint32_t fill_size;	/* FILL ring entries; 0: XSKX_RING_DEFAULT_SIZE */
	uint32_t comp_size;	/* COMPLETION ring entries; 0: likewise */
	uint32_t flags;		/* XSKX_UMEM_UNALIGNED, _HUGEPAGES, _TX_SW_CSUM */
	/*
	 * Bytes kept in front of every TX packet's data for its TX metadata
	 * (struct xsk_tx_metadata at their start: xskx_tx_meta()), registered
	 * with the kernel's XDP_UMEM_TX_METADATA_LEN (Linux 6.8+): 0 (none),
	 * or a multiple of 8 in [XSKX_TX_METADATA_LEN_MIN,
	 * XSKX_TX_METADATA_LEN_MAX]. Every TX descriptor of the UMEM then
	 * needs that room inside its frame, in front of its data (the kernel
	 * drops one without it as invalid): xskx_umem_tx_addr() leaves it.
	 */
	uint32_t tx_metadata_len;
};
#define xskx_umem_opts__last_field tx_metadata_len

/*
 * Validate the configuration exactly as the kernel's XDP_UMEM_REG does,
 * allocate the area (unless given) and put every frame in the pool.
 * Registration with a peer happens when the first socket opens on it.
 *
 * Returns 0, or -EINVAL with a message naming the field, its value and the
 * allowed range (frame size outside [2048, page size], not a power of two in
 * aligned mode, area not page-aligned or not a multiple of the frame size,
 * headroom too large, ring size not a power of two, unknown flag,
 * XSKX_UMEM_HUGEPAGES with a caller's area, tx_metadata_len not a multiple
 * of 8 in its range, XSKX_UMEM_TX_SW_CSUM without it), -E2BIG for an opts struct with
 * an unknown non-zero tail, -ENOMEM (with XSKX_UMEM_HUGEPAGES: too few
 * hugepages reserved, the message naming how many and vm.nr_hugepages). No
 * syscall but the area's mmap.
 */
int xskx_umem_create(struct xskx_umem **umem, const struct xskx_umem_opts *opts);

/*
 * Free the UMEM. Returns -EBUSY (and frees nothing) while a socket is still
 * open on it. Frees it and returns -EIO, with a message giving the count,
 * when frames are unaccounted for (neither in the pool nor held by the
 * application once no socket is left): a frame was lost.
 */
int xskx_umem_destroy(struct xskx_umem *umem);

void *xskx_umem_area(const struct xskx_umem *umem);
uint64_t xskx_umem_size(const struct xskx_umem *umem);
uint32_t xskx_umem_frame_size(const struct xskx_umem *umem);
uint32_t xskx_umem_frame_count(const struct xskx_umem *umem);
uint32_t xskx_umem_headroom(const struct xskx_umem *umem);
/* The TX metadata room in front of each TX packet's data; 0: none. */
uint32_t xskx_umem_tx_metadata_len(const struct xskx_umem *umem);

/*
 * The frame size for an MTU: XDP_PACKET_HEADROOM + headroom + the Ethernet
 * header with two VLAN tags + MTU, rounded up to a power of two of at least
 * 2048. AF_XDP frames carry no skb_shared_info, so no tailroom is added:
 * at MTU 1500 this gives 2048, two frames per 4 KiB page. Returns 0 when the
 * result would exceed the page size: such an MTU needs multi-buffer
 * (XDP_USE_SG) rather than larger frames.
 */
uint32_t xskx_frame_size_for_mtu(uint32_t mtu, uint32_t headroom);

/* The largest MTU whose packets fit one frame of this UMEM (0: none does). */
uint32_t xskx_umem_max_mtu(const struct xskx_umem *umem);

/*
 * Take up to n free frames from the pool into addrs (frame start addresses;
 * xskx_umem_tx_addr() says where a packet in one starts). Returns how many
 * were taken, possibly fewer than n. O(1) per frame, no syscall. The frames
 * now belong to the application until given to xskx_tx_burst() or
 * xskx_frame_free().
 */
uint32_t xskx_frame_alloc(struct xskx_umem *umem, uint64_t *addrs, uint32_t n);

/*
 * Return n frames the application holds to the pool. Any address inside a
 * frame (with or without the unaligned-mode offset bits) returns that frame.
 * A frame the application does not hold (freed twice, already sent, never
 * allocated) or an address outside the UMEM is refused, counted in the
 * census (double_frees, foreign_frees) and reported: returns 0, or -EINVAL
 * naming the first refused address once every good one is back. O(1) per
 * frame, no syscall.
 */
int xskx_frame_free(struct xskx_umem *umem, const uint64_t *addrs, uint32_t n);

/* Frames in the pool right now. */
uint32_t xskx_umem_pool_count(const struct xskx_umem *umem);

/*
 * Where a TX packet built in a freshly allocated frame should start: the
 * frame start plus the UMEM headroom and the TX metadata room
 * (tx_metadata_len), as a UMEM address for the descriptor.
 */
uint64_t xskx_umem_tx_addr(const struct xskx_umem *umem, uint64_t frame);

/* Where each frame of the UMEM is right now. */
struct xskx_frame_census {
	uint32_t pool;		/* free in the library's pool */
	uint32_t fill;		/* in FILL rings, not yet taken by the peer */
	uint32_t nic;		/* taken by the peer, not yet on RX/COMPLETION */
	uint32_t rx;		/* on RX rings, not yet read by the library */
	uint32_t app;		/* held by the application */
	uint32_t tx;		/* on TX rings, not yet taken by the peer */
	uint32_t comp;		/* on COMPLETION rings, not yet reclaimed */
	uint32_t total;		/* the sum of the above */
	/*
	 * Frames the application gave back (xskx_rx_release, xskx_frame_free)
	 * or handed to xskx_tx_burst while not holding them — given back
	 * twice, sent after release, never handed out — refused and counted
	 * here instead of entering the pool a second time; also a frame the
	 * peer returned into a pool that already held them all.
	 */
	uint64_t double_frees;
	/* Addresses outside the UMEM given back, refused likewise. */
	uint64_t foreign_frees;
	/*
	 * xskx_umem_frame_count() - total: frames found nowhere (positive) or
	 * counted twice (negative). 0 in a healthy program, always; with
	 * nic_counted false it can only go negative.
	 */
	int64_t unaccounted;
	/*
	 * true when the peer reported `nic` itself (the simulated NIC), so
	 * total == xskx_umem_frame_count() is a real check; false when `nic`
	 * is derived as the frames found nowhere else (the kernel).
	 */
	bool nic_counted;
};

/*
 * Count every frame of the UMEM across the pool and the rings of every socket
 * on it. Exact when the peer is idle (the simulated NIC in deterministic
 * mode); a racy snapshot while a threaded peer runs. No syscall. Sized as
 * xskx_socket_stats() is: use the xskx_umem_census() macro.
 */
int xskx_umem_census_sized(struct xskx_umem *umem,
			   struct xskx_frame_census *census, size_t census_size);
#define xskx_umem_census(umem, census)                                         \
	xskx_umem_census_sized((umem), (census), sizeof(*(census)))

#ifdef __cplusplus
}
#endif

#endif /* XSKX_UMEM_H */
