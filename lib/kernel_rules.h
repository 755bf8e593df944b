/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel's AF_XDP rules that both the core and the simulated NIC
 * apply, each stated once, with where the kernel states it. The core checks
 * them before any syscall so that its message names the field; the
 * simulated NIC checks them because it plays the kernel. Each side words its
 * own message around the same verdict.
 */
#ifndef XSKX_KERNEL_RULES_H
#define XSKX_KERNEL_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <xskx/umem.h>

/*
 * XDP_PACKET_HEADROOM (include/uapi/linux/bpf.h): the bytes in front of
 * every frame's data. Public, as XSKX_XDP_PACKET_HEADROOM (xskx/umem.h).
 */
_Static_assert(XSKX_XDP_PACKET_HEADROOM == 256, "XDP_PACKET_HEADROOM");

/* XDP_UMEM_MIN_CHUNK_SIZE (net/xdp/xdp_umem.c): the smallest chunk. */
#define XSKX_MIN_CHUNK_SIZE 2048

/* ETH_HLEN and VLAN_HLEN (include/uapi/linux/if_ether.h, linux/if_vlan.h). */
#define XSKX_ETH_HLEN 14
#define XSKX_VLAN_HLEN 4
/* VLAN tags a frame may carry (802.1ad: an S-tag and a C-tag). */
#define XSKX_MAX_VLANS 2

/*
 * What a frame holds beyond the MTU: the Ethernet header and two VLAN tags,
 * 22 bytes. The MTU counts neither; the FCS is
 * not in the frame (the NIC strips it before the buffer the XDP program
 * sees). Intel's drivers size their buffers with the FCS as well
 * (LIBIE_RX_LL_LEN, I40E_PACKET_HDR_PAD: 26); xskx does not.
 */
#define XSKX_L2_OVERHEAD (XSKX_ETH_HLEN + XSKX_MAX_VLANS * XSKX_VLAN_HLEN)

/*
 * The largest MTU whose frames fit a UMEM frame of frame_size bytes with
 * headroom bytes of UMEM headroom, after XDP_PACKET_HEADROOM; 0 when a
 * headroom the kernel accepts leaves no room for an L2 header.
 */
static inline uint32_t xskx_frame_max_mtu(uint32_t frame_size, uint32_t headroom)
{
	uint32_t overhead = XSKX_XDP_PACKET_HEADROOM + headroom + XSKX_L2_OVERHEAD;

	return frame_size > overhead ? frame_size - overhead : 0;
}

/*
 * TX_BATCH_SIZE (net/xdp/xsk.c): descriptors a copy-mode sendto() sends at
 * most before it returns; a TX ring with more needs another kick.
 */
#define XSKX_COPY_TX_BATCH 32

/*
 * XDP_MAX_TX_SKB_BUDGET (include/uapi/linux/if_xdp.h, kernel 6.17+): a
 * socket option that sets that per-sendto() budget. xsk_setsockopt()
 * accepts from XSKX_COPY_TX_BATCH to the TX ring's entries and answers
 * -EACCES otherwise, or when the socket has no TX ring (tx_entries 0);
 * older kernels answer -ENOPROTOOPT and keep 32.
 */
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9
#endif

static inline bool xskx__tx_budget_valid(uint32_t budget, uint32_t tx_entries)
{
	return tx_entries && budget >= XSKX_COPY_TX_BATCH &&
	       budget <= tx_entries;
}

static inline bool xskx_is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/*
 * What XDP_UMEM_REG keeps free in a chunk besides the UMEM headroom
 * (net/xdp/xdp_umem.c, xdp_umem_reg(), since "xsk: tighten UMEM headroom
 * validation to account for tailroom and min frame", also in 6.18.y):
 * XDP_PACKET_HEADROOM (256), the multi-buffer tailroom
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) (320 on x86_64) and 128
 * bytes for a minimum frame. Measured with scripts/umem-headroom-probe.py:
 * the largest headroom accepted is chunk - 704 on 6.18.44 and on 7.3.4.
 */
#define XSKX_UMEM_HEADROOM_RESERVE 704u

/* Why a UMEM registration is refused, in the order xdp_umem_reg() checks. */
enum xskx_umem_fault {
	XSKX_UMEM_FAULT_NONE = 0,
	XSKX_UMEM_FAULT_CHUNK_RANGE,	/* chunk_size outside [2048, page] */
	XSKX_UMEM_FAULT_FLAGS,		/* flags other than unaligned */
	XSKX_UMEM_FAULT_CHUNK_NOT_POW2, /* aligned mode, chunk not 2^n */
	XSKX_UMEM_FAULT_ADDR_ALIGN,	/* area not page-aligned */
	XSKX_UMEM_FAULT_LEN_TOO_LARGE,	/* area wraps, or 2^32 pages or more */
	XSKX_UMEM_FAULT_CHUNK_COUNT,	/* not 1 to 2^32 - 1 chunks */
	XSKX_UMEM_FAULT_LEN_NOT_MULTIPLE, /* aligned mode, a partial chunk */
	XSKX_UMEM_FAULT_HEADROOM,	  /* headroom > chunk - 704 */
	XSKX_UMEM_FAULT_TX_METADATA_LEN,  /* not a multiple of 8 below 256 */
};

/*
 * XDP_UMEM_TX_METADATA_LEN's length: a multiple of 8 below this (measured
 * on 6.18: 248 taken, 256 and 20 refused with EINVAL).
 */
#define XSKX_TX_METADATA_LEN_LIMIT 256

/* A registration as setsockopt(XDP_UMEM_REG) sees it. */
struct xskx_umem_geometry {
	uint64_t addr;
	uint64_t len;
	uint32_t chunk_size;
	uint32_t headroom;
	bool unaligned;
	uint32_t unknown_flags; /* flags neither side knows: refused */
	/* XDP_UMEM_TX_METADATA_LEN's length; 0 without the flag */
	uint32_t tx_metadata_len;
};

/*
 * The geometry checks of xdp_umem_reg() (net/xdp/xdp_umem.c), in its
 * order; page is the page size. Pinning the pages (-EFAULT for an area that
 * is not mapped) is not a geometry rule and is left to the caller.
 */
enum xskx_umem_fault
xskx__umem_geometry_check(const struct xskx_umem_geometry *g, uint64_t page);

#endif /* XSKX_KERNEL_RULES_H */
