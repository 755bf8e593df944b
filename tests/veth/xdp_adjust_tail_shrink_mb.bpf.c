// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* XDP_ADJUST_TAIL_SHRINK_MULTI_BUFF: a whole 4 KiB fragment's worth less. */
#define ADJUST_TAIL_DELTA (-4096)
#include "xdp_adjust_tail_mb.bpf.h"
