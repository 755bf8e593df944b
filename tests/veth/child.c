// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <check.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

char veth_child_read(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c = 0;

	if (poll(&pfd, 1, timeout_ms) != 1 || read(fd, &c, 1) != 1)
		return 0;
	return c;
}

int veth_child_start(struct veth_child *c, veth_child_main run, uint32_t arg,
		     int wait_ms)
{
	int cmd[2], report[2];

	ck_assert_int_eq(pipe(cmd), 0);
	ck_assert_int_eq(pipe(report), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(cmd[1]);
		close(report[0]);
		run(arg, cmd[0], report[1]);
		_exit(2);
	}
	close(cmd[0]);
	close(report[1]);
	c->cmd = cmd[1];
	c->report = report[0];
	if (veth_child_read(c->report, wait_ms) == 'y')
		return 0;
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	veth_child_forget(c);
	return -1;
}

void veth_child_forget(struct veth_child *c)
{
	close(c->cmd);
	close(c->report);
	c->pid = 0;
}

void veth_child_stop(struct veth_child *c, int wait_ms)
{
	int status;

	ck_assert_int_eq(write(c->cmd, "q", 1), 1);
	ck_assert_int_eq(veth_child_read(c->report, wait_ms), 'd');
	ck_assert_int_eq(waitpid(c->pid, &status, 0), c->pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	veth_child_forget(c);
}
