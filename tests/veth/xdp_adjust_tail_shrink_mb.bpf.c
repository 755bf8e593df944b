// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* XDP_ADJUST_TAIL_SHRINK_MULTI_BUFF: a whole 4 KiB frame's worth less. */
#include "../scenario/xdp_tail.h"
#define ADJUST_TAIL_DELTA TEST_XDP_TAIL_MB_SHRINK
#include "xdp_adjust_tail_mb.bpf.h"
