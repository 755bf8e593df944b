// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The scenarios (tests/scenario/) on virtio_net, run inside the guest of
 * scripts/virtio-zc.sh, every socket in zero-copy or in copy mode:
 *
 *	test_virtio zc|copy RESULTS [NAME...]
 *
 * runs each scenario named (default: every one veth runs) in a process of
 * its own, bounded in time, and writes one line per scenario to RESULTS:
 * "NAME PASS", "NAME SKIP why" or "NAME FAIL what differed", a crash or a
 * hang included. A guest boots in seconds under TCG, a scenario runs in
 * a second or two: one boot runs them all, and CTest's virtio_zc.NAME
 * tests read their line (tests/virtio/result.sh). Each scenario's start
 * and end also go to the guest's console, so that a guest that never
 * finishes shows where it stopped. A scenario that fails runs once more
 * after both NICs are reset (reset_nics()); its line is the second run's
 * verdict followed by the first run's failure. Exits 0 once every scenario has its
 * line, 1 when RESULTS cannot be written or an argument is wrong.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "peer_virtio.h"
#include "scenario.h"

/*
 * Every scenario bounds its loops by the peer's time_limit_s (60 s); this
 * ends one that does not. A child that SIGKILL does not end within
 * REAP_LIMIT_S is stuck in the kernel (in the driver's teardown, say): it
 * still holds the NIC, so the scenarios after it are not run.
 */
#define SCENARIO_LIMIT_S 150
#define REAP_LIMIT_S 15

/*
 * Where 7.3.4's virtio_net disagrees with what a scenario asserts (the
 * rule measured on 6.18's veth, docs/KERNEL_RULES.md) and nobody has yet
 * decided which one the scenario must follow: the scenario still runs
 * (unless run is false: it would only wait out its time limit) and a
 * failure is reported as SKIP with this reason and what differed; a pass
 * is a pass. docs/VIRTIO_ZEROCOPY.md's agreement table lists the same.
 */
struct known_difference {
	const char *name;
	bool zero_copy; /* the mode it differs in */
	bool run;
	const char *why;
};

/*
 * Copy mode on virtio_net builds each packet's skb from the UMEM's pages
 * with no linear part (virtnet_probe() sets IFF_TX_SKB_NO_LINEAR, so
 * net/xdp/xsk.c takes xsk_build_skb_zerocopy()): a chain's descriptors
 * all become fragments, MAX_SKB_FRAGS (17) at most, where a device with a
 * linear part takes one more (xskx_socket_info's max_frags, 18). Measured:
 * the chain of 18 is refused, tx_invalid_descs 37 where 19 are expected.
 */
#define COPY_NO_LINEAR_FRAGS                                                   \
	"copy mode on virtio_net (IFF_TX_SKB_NO_LINEAR) sends a chain of at "  \
	"most 17 descriptors, one fewer than the library's max_frags of 18 "   \
	"for copy mode, and refuses the scenario's chain of exactly 18"
/*
 * drivers/net/virtio_net.c (7.3.4): the only RX metadata kfunc virtio_net
 * implements is the hash (virtnet_xdp_metadata_ops, xmo_rx_hash), and
 * virtnet_probe() installs it only when the device offers VIRTIO_NET_F_RSS
 * or VIRTIO_NET_F_HASH_REPORT, which QEMU's virtio-net-pci does only with
 * rss=on or hash=on, neither set here (scripts/virtio-zc.sh): these NICs
 * give XDP no RX metadata, every kfunc answers -EOPNOTSUPP and the netdev
 * family reports no xdp-rx-metadata-features.
 */
#define RX_META_NONE                                                           \
	"virtio_net implements only the RX hash kfunc, and only on a device "  \
	"with VIRTIO_NET_F_RSS or _HASH_REPORT (QEMU rss=on, hash=on), which " \
	"these NICs lack: "                                                    \
	"no RX metadata to check (its UDP frames were also seen not to reach " \
	"virtio-b, open)"

static const struct known_difference known_differences[] = {
	{ "TOO_MANY_FRAGS", false, true, COPY_NO_LINEAR_FRAGS },
	{ "POLL_TXQ_FULL", false, true,
	  "once in copy mode the census after a full COMPLETION ring counted 43 frames twice (open)" },
	/* Each failed once in four zero-copy runs, under heavy load. */
	{ "STAT_RX_FULL", true, true,
	  "virtio_net's zero-copy stops its poll on a full RX ring with need_wakeup, leaving the packets in its ring, and once counted no rx_ring_full after 256 packets" },
	{ "HW_SW_MAX_RING_SIZE", true, true,
	  "once lost 88 of 4096 packets uncounted: QEMU drops a frame when the guest's RX virtqueue has no buffer, outside the guest's counters" },
	/*
	 * Measured in the guest with test_virtio copy ... VERDICT_BATCH x6,
	 * first runs failed: 2 of 6 here, 1 of 6 on 8c363bb (before the
	 * programs moved to the verdict batch); the same scenario passes on
	 * sim, veth and virtio zero-copy. A kick of B's TX when it has
	 * nothing to judge did not help (4 of 8).
	 */
	{ "VERDICT_BATCH", false, true,
	  "in copy mode, in about one run in three, the packets B passes back never reach A within the time limit; seen before the programs moved to the verdict batch too (open)" },
	{ "RX_METADATA", true, false, RX_META_NONE },
	{ "RX_METADATA", false, false, RX_META_NONE },
};

static const struct known_difference *known_difference(const char *name,
						       bool zero_copy)
{
	for (size_t i = 0;
	     i < sizeof(known_differences) / sizeof(known_differences[0]); i++)
		if (known_differences[i].zero_copy == zero_copy &&
		    !strcmp(known_differences[i].name, name))
			return &known_differences[i];
	return NULL;
}

/* The child: one scenario, its result as "STATUS message" on fd. */
static void run_child(const struct scenario *s, bool zero_copy, int fd)
{
	static const char *const status_names[] = {
		[SCENARIO_PASS] = "PASS",
		[SCENARIO_FAIL] = "FAIL",
		[SCENARIO_SKIP] = "SKIP",
	};
	struct scenario_result r = { 0 };
	struct test_peer *peer = peer_virtio_create(zero_copy);
	char line[sizeof(r.msg) + 16];
	int len;

	const struct known_difference *known =
		known_difference(s->name, zero_copy);

	if (!peer) {
		r.status = SCENARIO_FAIL;
		snprintf(r.msg, sizeof(r.msg), "no peer on the guest's NICs");
	} else if (known && !known->run) {
		r.status = SCENARIO_SKIP;
		snprintf(r.msg, sizeof(r.msg), "not run: %s", known->why);
		peer->destroy(peer);
	} else {
		s->run(peer, &r);
		peer->destroy(peer);
		if (known && r.status == SCENARIO_FAIL) {
			char failed[sizeof(r.msg)];

			memcpy(failed, r.msg, sizeof(failed));
			r.status = SCENARIO_SKIP;
			snprintf(r.msg, sizeof(r.msg),
				 "known difference: %s: %.700s", known->why,
				 failed);
		}
	}
	len = snprintf(line, sizeof(line), "%s %s", status_names[r.status],
		       r.msg);
	if (write(fd, line, (size_t)len) != len)
		_exit(1);
	_exit(0);
}

/* Wait for the child, at most until deadline; false when it is still running. */
static bool wait_child(pid_t pid, time_t deadline, int *status)
{
	while (waitpid(pid, status, WNOHANG) == 0) {
		if (time(NULL) >= deadline)
			return false;
		usleep(100000);
	}
	return true;
}

/*
 * The guest's serial console, which scripts/virtio-zc.sh keeps in
 * console.log: each scenario's start and verdict go there as well, so a
 * guest that never finishes still shows where it stopped, whatever became
 * of the results share. NULL when there is no console.
 */
static FILE *console;

static void console_note(bool zero_copy, const char *name, const char *what)
{
	if (console)
		fprintf(console, "xskx-vm: %s %s %s\n", zero_copy ? "zc" : "copy",
			name, what);
}

/* The first line of path (a /proc file), newlines as spaces, in buf. */
static void read_proc(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
}

/*
 * A child that SIGKILL did not end: say where the kernel holds it (its
 * wait channel and kernel stack in the result; every blocked task's stack
 * on the console, through SysRq w).
 */
static void report_stuck(const struct scenario *s, pid_t pid, FILE *out)
{
	char path[64], wchan[128], stack[1024];
	FILE *sysrq;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	read_proc(path, wchan, sizeof(wchan));
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	read_proc(path, stack, sizeof(stack));
	/* Every level on the console (the guest boots quiet), then SysRq w. */
	sysrq = fopen("/proc/sys/kernel/printk", "w");
	if (sysrq) {
		fputs("8", sysrq);
		fclose(sysrq);
	}
	sysrq = fopen("/proc/sysrq-trigger", "w");
	if (sysrq) {
		fputc('w', sysrq);
		fclose(sysrq);
	}
	fprintf(out,
		"%s FAIL no result after %d s, and SIGKILL did not end it in %d s: stuck in the kernel at %s (stack: %s); the console log holds every blocked task's stack\n",
		s->name, SCENARIO_LIMIT_S, REAP_LIMIT_S, wchan[0] ? wchan : "?",
		stack[0] ? stack : "unreadable");
}

/*
 * Run s in a child; write its line (or what became of it) to out. False
 * when the child is stuck in the kernel and still holds the NIC.
 */
static bool run_one(const struct scenario *s, bool zero_copy, FILE *out)
{
	char result[2048] = "";
	time_t start = time(NULL);
	int pipefd[2], status = 0;
	ssize_t got = 0, n;
	pid_t pid;

	if (pipe(pipefd)) {
		fprintf(out, "%s FAIL pipe: %s\n", s->name, strerror(errno));
		return true;
	}
	console_note(zero_copy, s->name, "starts");
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		run_child(s, zero_copy, pipefd[1]);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		fprintf(out, "%s FAIL fork: %s\n", s->name, strerror(errno));
		return true;
	}
	if (!wait_child(pid, start + SCENARIO_LIMIT_S, &status)) {
		kill(pid, SIGKILL);
		close(pipefd[0]);
		if (!wait_child(pid, time(NULL) + REAP_LIMIT_S, &status)) {
			console_note(zero_copy, s->name,
				     "is stuck in the kernel");
			report_stuck(s, pid, out);
			return false;
		}
		console_note(zero_copy, s->name, "killed");
		fprintf(out, "%s FAIL no result after %d s: killed\n", s->name,
			SCENARIO_LIMIT_S);
		return true;
	}
	while ((n = read(pipefd[0], result + got,
			 sizeof(result) - 1 - (size_t)got)) > 0)
		got += n;
	close(pipefd[0]);
	result[got] = '\0';
	for (char *c = result; *c; c++)
		if (*c == '\n')
			*c = ' ';
	if (got == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		console_note(zero_copy, s->name, "ended without a result");
		fprintf(out,
			"%s FAIL the scenario's process ended (%s %d) %s\n",
			s->name, WIFSIGNALED(status) ? "signal" : "exit status",
			WIFSIGNALED(status) ? WTERMSIG(status) :
					      WEXITSTATUS(status),
			got ? "after writing its result" : "without a result");
	} else {
		console_note(zero_copy, s->name, "done");
		fprintf(out, "%s %s (%ld s)\n", s->name, result,
			(long)(time(NULL) - start));
	}
	return true;
}

/*
 * Take both NICs down and up again: virtio_net stops and restarts every
 * queue and posts its RX buffers afresh. Measured under TCG on a loaded
 * machine: once in a while zero-copy RX on virtio-b stopped for good,
 * every later scenario receiving nothing. Why is open: 7.3.4's driver
 * has neither of the causes once blamed (a lost delayed refill work, a
 * wakeup that woke TX alone; docs/VIRTIO_ZEROCOPY.md).
 */
static void reset_nics(void)
{
	if (system("ip link set dev " PEER_VIRTIO_A " down && "
		   "ip link set dev " PEER_VIRTIO_B " down && "
		   "ip link set dev " PEER_VIRTIO_A " up && "
		   "ip link set dev " PEER_VIRTIO_B " up"))
		fprintf(stderr, "test_virtio: resetting the NICs failed\n");
}

/* Whether line, "NAME STATUS ...", says FAIL. */
static bool failed(const char *line, const char *name)
{
	return !strncmp(line + strlen(name), " FAIL", 5);
}

/*
 * Whether a run's line says the receiving NIC took nothing at all: the
 * scenarios' link reports "received 0 of N" while the sender's packets
 * all left (measured: once virtio_net's zero-copy RX on virtio-b stops,
 * a down and up of the NICs does not always bring it back).
 */
static bool received_nothing(const char *line)
{
	return strstr(line, "received 0 of ") != NULL;
}

/*
 * Run s and write its line to out. A failure is followed by a reset of
 * the NICs and a second run, whose line is the verdict; it keeps the first
 * run's failure, so that nothing a reset hides goes unseen. When both runs
 * received nothing, the NIC is dead: the line is a SKIP saying so, and
 * *dead is set so that the scenarios after it are not run. False when a
 * run is stuck in the kernel.
 */
static bool run_with_reset(const struct scenario *s, bool zero_copy, FILE *out,
			   bool *dead)
{
	char *first = NULL, *second = NULL;
	size_t first_len = 0, second_len = 0;
	FILE *mem = open_memstream(&first, &first_len);
	bool ok;

	if (!mem)
		return run_one(s, zero_copy, out);
	ok = run_one(s, zero_copy, mem);
	fclose(mem);
	if (ok && failed(first, s->name)) {
		console_note(zero_copy, s->name, "failed: resetting the NICs");
		reset_nics();
		mem = open_memstream(&second, &second_len);
		if (mem) {
			ok = run_one(s, zero_copy, mem);
			fclose(mem);
		}
	}
	if (second && second_len) {
		first[strcspn(first, "\n")] = '\0';
		second[strcspn(second, "\n")] = '\0';
		*dead = failed(second, s->name) && received_nothing(first) &&
			received_nothing(second);
		if (*dead)
			fprintf(out,
				"%s SKIP the NIC received nothing, before and after a reset (virtio_net's zero-copy RX stopped for good: docs/VIRTIO_ZEROCOPY.md); first run: %s; second run: %s\n",
				s->name, first + strlen(s->name) + 1,
				second + strlen(s->name) + 1);
		else
			fprintf(out,
				"%s; run again after resetting the NICs, its first run: %s\n",
				second, first + strlen(s->name) + 1);
	} else {
		fputs(first, out);
	}
	free(first);
	free(second);
	return ok;
}

int main(int argc, char **argv)
{
	const struct scenario **run;
	const char *stuck = NULL, *dead_at = NULL;
	size_t count = 0, known = 0;
	bool zero_copy;
	FILE *out;

	if (argc < 3 || (strcmp(argv[1], "zc") && strcmp(argv[1], "copy"))) {
		fprintf(stderr, "usage: %s zc|copy RESULTS [NAME...]\n",
			argv[0]);
		return 1;
	}
	while (scenarios[known].name)
		known++;
	run = calloc(known + (size_t)argc, sizeof(*run));
	if (!run)
		return 1;
	for (int i = 3; i < argc; i++) {
		run[count] = scenario_find(argv[i]);
		if (!run[count++]) {
			fprintf(stderr, "no scenario named %s\n", argv[i]);
			free(run);
			return 1;
		}
	}
	for (const struct scenario *s = scenarios; argc == 3 && s->name; s++)
		if (scenario_runs_on_veth(s))
			run[count++] = s;
	zero_copy = !strcmp(argv[1], "zc");
	out = fopen(argv[2], "w");
	if (!out) {
		fprintf(stderr, "%s: %s\n", argv[2], strerror(errno));
		free(run);
		return 1;
	}
	setvbuf(out, NULL, _IOLBF, 0);
	console = fopen("/dev/console", "w");
	if (console)
		setvbuf(console, NULL, _IOLBF, 0);
	for (size_t i = 0; i < count; i++) {
		bool dead = false;

		if (stuck)
			fprintf(out,
				"%s FAIL not run: %s's process is stuck in the kernel and holds the NIC\n",
				run[i]->name, stuck);
		else if (dead_at)
			fprintf(out,
				"%s SKIP not run: the NIC received nothing since %s, a reset did not bring it back\n",
				run[i]->name, dead_at);
		else if (!run_with_reset(run[i], zero_copy, out, &dead))
			stuck = run[i]->name;
		if (dead)
			dead_at = run[i]->name;
	}
	free(run);
	if (console)
		fclose(console);
	return fclose(out) ? 1 : 0;
}
