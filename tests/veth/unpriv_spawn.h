/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The root side of the unprivileged veth tests (test_unpriv.c,
 * test_handover.c): the children they start (a peer run through setpriv
 * as user nobody, an agent), each with its stdout on a pipe and dying with
 * the test, the lines those children say, their exit status, and the Unix
 * sockets the servers listen on. Failures are Check assertions.
 */
#ifndef XSKX_TESTS_VETH_UNPRIV_SPAWN_H
#define XSKX_TESTS_VETH_UNPRIV_SPAWN_H

#include <check.h>
#include <stddef.h>
#include <sys/types.h>

/* How long a child may stay silent, or take to exit. */
#define UNPRIV_WAIT_MS 20000

/* End the test as skipped when setpriv (util-linux) is not installed. */
void unpriv_need_setpriv(void);

/*
 * fork(), the child set to die with this process (PR_SET_PDEATHSIG), so
 * that no server or peer outlives a failed test holding ctest's pipes.
 */
pid_t unpriv_fork(void);

/*
 * Run argv[0] with argv, its stdout on a pipe whose reading end goes to
 * *out; the child dies with this process (unpriv_fork()).
 */
pid_t unpriv_start(char *const argv[], int *out);

/*
 * Run peer_argv through setpriv as user nobody (uid and gid 65534, no
 * supplementary groups), every capability set emptied but for caps: NULL
 * for none at all, or one name as setpriv spells it ("net_raw").
 */
pid_t unpriv_start_as_nobody(const char *caps, char *const peer_argv[],
			     int *out);

/* The child's next line on fd, without its newline; asserts it comes. */
void unpriv_read_line(int fd, char *line, size_t size);

/*
 * The child's exit code within UNPRIV_WAIT_MS: 128 when a signal ended
 * it, -1 when it did not end in time (then it is killed and reaped).
 */
int unpriv_wait_exit(pid_t pid);

/* A SOCK_SEQPACKET Unix socket bound at path and listening. */
int unpriv_listen(const char *path);

/*
 * A test case named name (argv[1] of test_main()) of one test that runs
 * with Check's loop index _i = i; a limit of 120 s when Check forks.
 */
void unpriv_add_case(Suite *s, const char *name, const TTest *test, int i);

#endif /* XSKX_TESTS_VETH_UNPRIV_SPAWN_H */
