/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A forked child that a veth test drives over two pipes: commands in, one
 * byte per report out. The child says 'y' once it is ready, and on 'q'
 * closes what it opened, says 'd' and exits 0. It dies with the test
 * (PR_SET_PDEATHSIG), so no child outlives a failed case.
 */
#ifndef XSKX_TESTS_VETH_CHILD_H
#define XSKX_TESTS_VETH_CHILD_H

#include <stdint.h>
#include <sys/types.h>

struct veth_child {
	pid_t pid;
	int cmd;    /* to the child */
	int report; /* from the child */
};

/* The child's body: never returns (it _exit()s). */
typedef void (*veth_child_main)(uint32_t arg, int cmd, int report);

/* One byte from fd within timeout_ms; 0 when none came. */
char veth_child_read(int fd, int timeout_ms);

/*
 * Fork a child running run(arg, ...) and wait up to wait_ms for its 'y'.
 * 0 when it came; -1 when it did not, the child killed and reaped.
 */
int veth_child_start(struct veth_child *c, veth_child_main run, uint32_t arg,
		     int wait_ms);

/* 'q', then its 'd' and a clean exit within wait_ms, asserted; forgotten. */
void veth_child_stop(struct veth_child *c, int wait_ms);

/* Close the pipes of a child that is gone (stopped or killed and reaped). */
void veth_child_forget(struct veth_child *c);

#endif /* XSKX_TESTS_VETH_CHILD_H */
