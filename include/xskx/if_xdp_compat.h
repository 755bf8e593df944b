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

#endif /* XSKX_IF_XDP_COMPAT_H */
