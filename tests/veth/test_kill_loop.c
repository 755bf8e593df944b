// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kill -9 at a random moment, restarted at once, 20 rounds: xskx-bench
 * receiving (rxdrop, native mode) on B of a veth pair while another
 * xskx-bench sends to it from A, all inside the test's network namespace.
 *
 * Odd rounds kill the receiver 0-400 ms after it was started, wherever it
 * is then (attaching, joining, replacing, receiving); even rounds first
 * wait until it receives, bounded (that is the check that a restart after
 * a kill comes up), then kill it 0-100 ms later. A last receiver must
 * receive and, stopped with SIGINT, leave no XDP program on B.
 *
 * usage: test_kill_loop XSKX_BENCH [SEED] (a seed given reruns a run; the
 * seed of every run is printed).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xskx/xskx.h>

#include "netns.h"
#include "veth_io.h"

#define VETH_A "xskxv0"
#define VETH_B "xskxv1"
#define ROUNDS 20
#define STARTUP_KILL_MS 400
#define SERVING_KILL_MS 100
/* A receiver's start under ASan on a loaded 2-core machine, with margin. */
#define COME_UP_MS 10000
#define STOP_MS 10000
/* Enough to see traffic, not enough to take a core. */
#define TX_RATE "20000"

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static pid_t spawn(const char *bench, const char *const *args)
{
	const char *argv[16] = { bench };
	pid_t pid;
	int n = 1;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Quiet: its summary is not what is checked here. */
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execv(bench, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static pid_t start_receiver(const char *bench)
{
	static const char *const args[] = { "-i", VETH_B, "-r", "-N",
					    "-d", "3600", NULL };

	return spawn(bench, args);
}

/* What B's program has redirected to a socket; 0 with no program. */
static uint64_t redirected(void)
{
	struct xskx_xdp_verdicts v = { 0 };

	return xskx_xdp_prog_stats(VETH_B, &v) ? 0 : v.redirected;
}

/*
 * Whether pid receives within COME_UP_MS: B's program redirects packets
 * while pid is its one user (its counters grow between two looks).
 */
static bool receives(pid_t pid, int64_t *took_ms)
{
	int64_t start = now_ms();
	uint64_t before = redirected();

	while (now_ms() - start < COME_UP_MS) {
		uint64_t now;

		if (waitpid(pid, NULL, WNOHANG) == pid) {
			fprintf(stderr, "the receiver %d exited\n", (int)pid);
			return false;
		}
		usleep(10000);
		now = redirected();
		if (now > before && before) {
			*took_ms = now_ms() - start;
			return true;
		}
		before = now;
	}
	return false;
}

static void kill_now(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* SIGINT: the program stops and exits 0, bounded (then SIGKILL). */
static bool stopped_by_sigint(pid_t pid)
{
	int64_t end = now_ms() + STOP_MS;
	int status = 0;

	kill(pid, SIGINT);
	while (now_ms() < end) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		usleep(10000);
	}
	kill_now(pid);
	return false;
}

int main(int argc, char **argv)
{
	static const char *const tx_args[] = { "-i", VETH_A,   "-t",
					       "-N", "--rate", TX_RATE,
					       "-d", "3600",   NULL };
	struct veth_pair_opts pair = { .name = VETH_A, .peer = VETH_B };
	unsigned int seed = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) :
				       (unsigned int)time(NULL) ^
					       (unsigned int)getpid();
	int64_t took_ms = 0, slowest_ms = 0;
	int failed = 0;
	pid_t tx, rx;

	if (argc < 2) {
		fprintf(stderr, "usage: %s XSKX_BENCH [SEED]\n", argv[0]);
		return 2;
	}
	veth_sandbox_enter();
	if (veth_pair_create(&pair))
		return 1;
	printf("seed %u (rerun: %s %s %u)\n", seed, argv[0], argv[1], seed);
	srand(seed);
	tx = spawn(argv[1], tx_args);
	for (int round = 1; round <= ROUNDS && !failed; round++) {
		int64_t delay_ms;

		rx = start_receiver(argv[1]);
		if (round % 2) {
			delay_ms = rand() % (STARTUP_KILL_MS + 1);
		} else {
			if (!receives(rx, &took_ms)) {
				fprintf(stderr,
					"round %d: the restarted receiver did not receive within %d ms\n",
					round, COME_UP_MS);
				failed = 1;
			}
			if (took_ms > slowest_ms)
				slowest_ms = took_ms;
			delay_ms = rand() % (SERVING_KILL_MS + 1);
		}
		usleep((useconds_t)delay_ms * 1000);
		kill_now(rx);
	}
	if (!failed) {
		rx = start_receiver(argv[1]);
		if (!receives(rx, &took_ms)) {
			fprintf(stderr, "the last receiver did not receive\n");
			failed = 1;
		}
		if (!stopped_by_sigint(rx)) {
			fprintf(stderr,
				"the last receiver did not exit 0 on SIGINT\n");
			failed = 1;
		}
	}
	kill_now(tx);
	if (!failed && veth_prog_id(VETH_B)) {
		fprintf(stderr, "after the last receiver: program %u on %s\n",
			veth_prog_id(VETH_B), VETH_B);
		failed = 1;
	}
	printf("%d rounds: %s; slowest restart received after %lld ms\n",
	       ROUNDS, failed ? "FAILED" : "passed", (long long)slowest_ms);
	veth_pair_delete(VETH_A);
	return failed;
}
