// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * XDP_ADJUST_TAIL_GROW_MULTI_BUFF: to one byte short of the end of the
 * last fragment's frame (../scenario/xdp_tail.h).
 */
#include "../scenario/xdp_tail.h"
#define ADJUST_TAIL_DELTA TEST_XDP_TAIL_MB_GROW
#include "xdp_adjust_tail_mb.bpf.h"
