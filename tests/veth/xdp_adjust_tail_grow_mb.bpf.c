// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP_ADJUST_TAIL_GROW_MULTI_BUFF: 2047 bytes more, which the last fragment
 * of a 6144-byte packet (2048 bytes in a 4 KiB page) still has room for.
 */
#define ADJUST_TAIL_DELTA 2047
#include "xdp_adjust_tail_mb.bpf.h"
