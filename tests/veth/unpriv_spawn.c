// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "unpriv_spawn.h"

#define SETPRIV "/usr/bin/setpriv"

void unpriv_need_setpriv(void)
{
	if (access(SETPRIV, X_OK))
		test_skip(
			"setpriv (util-linux) is not installed: scripts/install-deps.sh");
}

pid_t unpriv_fork(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return pid;
}

pid_t unpriv_start(char *const argv[], int *out)
{
	int pipefd[2];
	pid_t pid;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = unpriv_fork();
	if (!pid) {
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

pid_t unpriv_start_as_nobody(const char *caps, char *const peer_argv[],
			     int *out)
{
	char inh[64], ambient[64], bounding[64];
	const char *keep = caps ? ",+" : "";
	char *argv[32] = {
		SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups",
		inh,	 ambient,	  bounding
	};
	size_t n = 7;

	if (!caps)
		caps = "";
	snprintf(inh, sizeof(inh), "--inh-caps=-all%s%s", keep, caps);
	snprintf(ambient, sizeof(ambient), "--ambient-caps=-all%s%s", keep,
		 caps);
	snprintf(bounding, sizeof(bounding), "--bounding-set=-all%s%s", keep,
		 caps);
	for (size_t i = 0; peer_argv[i]; i++) {
		ck_assert_uint_lt(n + 1, sizeof(argv) / sizeof(argv[0]));
		argv[n++] = peer_argv[i];
	}
	argv[n] = NULL;
	return unpriv_start(argv, out);
}

void unpriv_read_line(int fd, char *line, size_t size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t n = 0;

	while (n + 1 < size) {
		char c;

		ck_assert_msg(poll(&pfd, 1, UNPRIV_WAIT_MS) == 1,
			      "the child said nothing for %d ms",
			      UNPRIV_WAIT_MS);
		if (read(fd, &c, 1) != 1 || c == '\n')
			break;
		line[n++] = c;
	}
	line[n] = '\0';
}

int unpriv_wait_exit(pid_t pid)
{
	int status = 0;

	for (int i = 0; i < UNPRIV_WAIT_MS / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

int unpriv_listen(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int listener = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	ck_assert_int_ge(listener, 0);
	ck_assert_uint_lt(strlen(path), sizeof(addr.sun_path));
	strcpy(addr.sun_path, path);
	ck_assert_int_eq(bind(listener, (struct sockaddr *)&addr, sizeof(addr)),
			 0);
	ck_assert_int_eq(listen(listener, 1), 0);
	return listener;
}

void unpriv_add_case(Suite *s, const char *name, const TTest *test, int i)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test, i, i + 1);
	suite_add_tcase(s, tc);
}
