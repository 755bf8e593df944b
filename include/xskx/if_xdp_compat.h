/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * <linux/if_xdp.h>, plus the flags that older UAPI headers (Debian 12 ships
 * 6.1's) still lack. The values are the kernel's ABI and never change.
 */
#ifndef XSKX_IF_XDP_COMPAT_H
#define XSKX_IF_XDP_COMPAT_H

#include <linux/if_xdp.h>

/* bind flag: multi-buffer packets (kernel 6.6+) */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
/* descriptor option: more fragments of this packet follow (kernel 6.6+) */
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/*
 * TX metadata (kernel 6.8+; the software checksum flag 6.11+, launch time
 * 6.14+): a UMEM registered with XDP_UMEM_TX_METADATA_LEN keeps
 * tx_metadata_len bytes in front of every TX descriptor's data, and a
 * descriptor with XDP_TX_METADATA carries a struct xsk_tx_metadata there.
 */
#ifndef XDP_TX_METADATA
#define XDP_UMEM_TX_SW_CSUM (1 << 1)
#define XDP_UMEM_TX_METADATA_LEN (1 << 2)
#define XDP_TX_METADATA (1 << 1)
#define XDP_TXMD_FLAGS_TIMESTAMP (1 << 0)
#define XDP_TXMD_FLAGS_CHECKSUM (1 << 1)
/* XDP_TXMD_FLAGS_LAUNCH_TIME: below, as 6.8-6.13's headers lack it too. */

struct xsk_tx_metadata {
	__u64 flags;
	union {
		struct {
			/* XDP_TXMD_FLAGS_CHECKSUM: from the data's start */
			__u16 csum_start;
			/* where the checksum goes, from csum_start */
			__u16 csum_offset;
			/* XDP_TXMD_FLAGS_LAUNCH_TIME: the device's clock, ns */
			__u64 launch_time;
		} request;
		struct {
			/* XDP_TXMD_FLAGS_TIMESTAMP: filled on completion */
			__u64 tx_timestamp;
		} completion;
	};
};
#endif
#ifndef XDP_TXMD_FLAGS_LAUNCH_TIME
#define XDP_TXMD_FLAGS_LAUNCH_TIME (1 << 2)
#endif

#endif /* XSKX_IF_XDP_COMPAT_H */
