// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A process killed at each step of attaching, joining, leaving and
 * replacing xskx's XDP program (lib/kernel/xdp_share.c lists the steps)
 * leaves B of a veth pair usable: the next process opens a socket at once
 * (within the library's own bounded retries), receives, and once every
 * process has left no XDP program is attached.
 *
 * The victim is this program run as "victim IF QUEUE" under gdb: it opens
 * a receiving socket on IF's queue and closes it again, through the public
 * API; gdb stops it on the n-th call of the function that starts the step
 * (a function of another file, so a real call, never inlined), checks that
 * the backtrace holds the step's caller, and sends it SIGKILL. Nothing of
 * this is in the library: the code path is the one every process runs.
 *
 * Setups: nothing on B (the victim attaches the program, or leaves it as
 * its last user); another process serving queue 0 (the victim joins, or
 * leaves a program still used); a program left by a process killed while
 * serving (the victim replaces it). Plus a killed user that is not reaped
 * (a zombie: gone, whatever /proc still shows) and 256 users killed one
 * after the other beside one that stays (their entries must be reaped, or
 * the owner map fills up).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "child.h"
#include "helpers.h"
#include "netns.h"
#include "veth_io.h"
#include "xskx_test_drop_half_bpf.h"

#define VETH_A "xskxv0"
#define VETH_B "xskxv1"
#define QUEUES 4
#define PKTS 64
/* gdb loading an ASan build and running the victim, on a loaded box. */
#define GDB_WAIT_MS 120000
#define WAIT_MS 10000
#define HELPER_LIFETIME_S 300
/* One more than the owner map holds (XSKX_OWNER_MAP_ENTRIES). */
#define KILLED_USERS 257

enum setup {
	SETUP_FRESH,  /* nothing on B */
	SETUP_SHARED, /* another process serves B's queue 0 */
	SETUP_STALE,  /* a program left by a process killed while serving */
};

struct step {
	const char *name;
	enum setup setup;
	const char *function; /* where gdb stops the victim... */
	int hit;	      /* ...on its hit-th call... */
	const char *after;    /* ...after a call of this one (or NULL) */
	const char *caller;   /* a frame the backtrace must hold */
};

/* In the order a process runs them. */
static const struct step steps[] = {
	/* First user: load, claim, attach (xdp_load.c). */
	{ "ATTACH_BEFORE_LOAD", SETUP_FRESH, "bpf_object__load", 1, NULL,
	  "load_prog" },
	{ "ATTACH_BEFORE_RECORD", SETUP_FRESH, "xskx__owners_describe", 1, NULL,
	  "claim" },
	{ "ATTACH_BEFORE_ENTRY", SETUP_FRESH, "xskx__owners_enter", 1, NULL,
	  "claim" },
	{ "ATTACH_BEFORE_BIND", SETUP_FRESH, "bpf_prog_bind_map", 1,
	  "xskx__owners_enter", "claim" },
	{ "ATTACH_BEFORE_DEVICE", SETUP_FRESH, "bpf_xdp_attach", 1,
	  "xskx__owners_enter", "attach_to" },
	{ "ATTACH_BEFORE_CHECK", SETUP_FRESH, "xskx__xdp_find", 2, NULL,
	  "xskx__xdp_attach_new" },
	{ "ATTACH_BEFORE_SOCKET", SETUP_FRESH, "xskx__xdp_add_socket", 1, NULL,
	  "xskx_socket_open" },
	{ "ATTACH_SERVING", SETUP_FRESH, "xskx_socket_close", 1, NULL,
	  "victim" },
	/* Joining a program another process serves (xdp_share.c, join()). */
	{ "JOIN_BEFORE_FIND", SETUP_SHARED, "xskx__xdp_find", 1, NULL,
	  "xskx__xdp_share" },
	{ "JOIN_BEFORE_LAYOUT", SETUP_SHARED, "xskx__owners_check_layout", 1,
	  NULL, "join" },
	{ "JOIN_BEFORE_CENSUS", SETUP_SHARED, "xskx__owners_census", 1, NULL,
	  "join" },
	{ "JOIN_BEFORE_ENTRY", SETUP_SHARED, "xskx__owners_enter", 1, NULL,
	  "join" },
	{ "JOIN_BEFORE_RECOUNT", SETUP_SHARED, "xskx__owners_census", 2, NULL,
	  "join" },
	{ "JOIN_BEFORE_CHECK", SETUP_SHARED, "xskx__xdp_find", 2, NULL,
	  "join" },
	{ "JOIN_BEFORE_SOCKET", SETUP_SHARED, "xskx__xdp_add_socket", 1, NULL,
	  "xskx_socket_open" },
	{ "JOIN_SERVING", SETUP_SHARED, "xskx_socket_close", 1, NULL,
	  "victim" },
	/* Leaving a program another process still serves. */
	{ "LEAVE_SHARED_BEFORE_CLOSING", SETUP_SHARED, "xskx__owners_enter", 2,
	  NULL, "xskx__xdp_leave" },
	{ "LEAVE_SHARED_BEFORE_CENSUS", SETUP_SHARED, "xskx__owners_census", 3,
	  NULL, "xskx__xdp_leave" },
	{ "LEAVE_SHARED_BEFORE_REMOVAL", SETUP_SHARED, "xskx__owners_leave", 1,
	  NULL, "xskx__xdp_leave" },
	/* Leaving as the last user: detaching. */
	{ "LEAVE_LAST_BEFORE_CLOSING", SETUP_FRESH, "xskx__owners_enter", 2,
	  NULL, "xskx__xdp_leave" },
	{ "LEAVE_LAST_BEFORE_CENSUS", SETUP_FRESH, "xskx__owners_census", 1,
	  NULL, "xskx__xdp_leave" },
	{ "LEAVE_LAST_BEFORE_DETACH", SETUP_FRESH, "xskx__xdp_detach_id", 1,
	  NULL, "xskx__xdp_leave" },
	{ "LEAVE_LAST_BEFORE_REMOVAL", SETUP_FRESH, "xskx__owners_leave", 1,
	  NULL, "xskx__xdp_leave" },
	/* Replacing a program whose users died (replace_stale()). */
	{ "REPLACE_BEFORE_CENSUS", SETUP_STALE, "xskx__owners_census", 1, NULL,
	  "join" },
	{ "REPLACE_BEFORE_CLOSING", SETUP_STALE, "xskx__owners_enter", 1, NULL,
	  "replace_stale" },
	{ "REPLACE_BEFORE_RECOUNT", SETUP_STALE, "xskx__owners_census", 2, NULL,
	  "replace_stale" },
	{ "REPLACE_BEFORE_DETACH", SETUP_STALE, "xskx__xdp_detach_id", 1, NULL,
	  "replace_stale" },
	{ "REPLACE_BEFORE_REMOVAL", SETUP_STALE, "xskx__owners_leave", 1, NULL,
	  "replace_stale" },
	{ "REPLACE_BEFORE_LOAD", SETUP_STALE, "bpf_object__load", 1, NULL,
	  "load_prog" },
};

/* A process serving one queue of B until told to close ('q'). */

static const char *self_exe;

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}


static struct veth_end_opts rx_opts(uint32_t queue)
{
	return (struct veth_end_opts){ .ifname = VETH_B,
				       .mode = XSKX_XDP_NATIVE,
				       .queue = queue,
				       .flags = XSKX_SOCKET_NO_TX };
}

/*
 * Open, waiting out a killed process's socket on the queue: the kernel
 * frees it after an RCU grace period, which on a loaded machine can outlast
 * the library's bind retries. Bounded: 50 x 100 ms.
 */
static int open_after_teardown(struct veth_end *end, uint32_t queue,
			       enum xskx_xdp_mode mode)
{
	struct veth_end_opts o = rx_opts(queue);
	int err;

	o.mode = mode;
	err = veth_end_open(end, &o);

	for (int i = 0;
	     i < 50 && err == -EBUSY && strstr(xskx_last_error(), "torn down");
	     i++) {
		usleep(100000);
		err = veth_end_open(end, &o);
	}
	return err;
}

/* Serve queue until told 'q' (or killed); exits 0 once closed. */
static void helper_main(uint32_t queue, int cmd, int report)
{
	struct veth_end end;
	char ok = open_after_teardown(&end, queue, XSKX_XDP_NATIVE) ? 'n' : 'y';

	if (ok != 'y')
		fprintf(stderr, "helper on queue %u: %s\n", queue,
			xskx_last_error());
	if (write(report, &ok, 1) != 1 || ok != 'y')
		_exit(1);
	if (veth_child_read(cmd, HELPER_LIFETIME_S * 1000) == 'q') {
		veth_end_close(&end);
		_exit(write(report, "d", 1) == 1 ? 0 : 1);
	}
	_exit(2);
}

static void helper_start(struct veth_child *h, uint32_t queue)
{
	if (veth_child_start(h, helper_main, queue, WAIT_MS))
		ck_abort_msg("the helper on queue %u could not open", queue);
}

static void helper_kill(struct veth_child *h, bool reap)
{
	ck_assert_int_eq(kill(h->pid, SIGKILL), 0);
	if (reap)
		ck_assert_int_eq(waitpid(h->pid, NULL, 0), h->pid);
	veth_child_forget(h);
}

/* The victim: what every process does, open a receiver and close it. */
static int victim(const char *ifname, uint32_t queue)
{
	struct veth_end_opts o = rx_opts(queue);
	struct veth_end end;

	o.ifname = ifname;
	if (veth_end_open(&end, &o)) {
		fprintf(stderr, "victim: %s\n", xskx_last_error());
		return 1;
	}
	veth_end_close(&end);
	return 0;
}

/*
 * Run gdb on the victim until step's breakpoint, then SIGKILL it: "break
 * F", "ignore 1 N-1", "run"; with an after function, first stop there,
 * and then set the breakpoint on F (number 2).
 */
static void kill_victim_at(const struct step *s, uint32_t queue)
{
	char bp[96], after[96], ignore[32], queue_text[16];
	char out[] = "/tmp/xskx-gdb-XXXXXX", buf[65536];
	const char *argv[40];
	int64_t end_ms = now_ms() + GDB_WAIT_MS;
	int status = 0, n = 0, fd = mkstemp(out);
	ssize_t len;
	pid_t pid;

	ck_assert_int_ge(fd, 0);
	unlink(out);
	snprintf(bp, sizeof(bp), "break %s", s->function);
	snprintf(after, sizeof(after), "break %s", s->after ? s->after : "");
	snprintf(ignore, sizeof(ignore), "ignore %d %d", s->after ? 2 : 1,
		 s->hit - 1);
	snprintf(queue_text, sizeof(queue_text), "%u", queue);
	argv[n++] = "gdb";
	argv[n++] = "-nx";
	argv[n++] = "-q";
	argv[n++] = "-batch";
	argv[n++] = "-ex";
	argv[n++] = "set breakpoint pending on";
	argv[n++] = "-ex";
	argv[n++] = "set pagination off";
	argv[n++] = "-ex";
	argv[n++] = s->after ? after : bp;
	if (s->after) {
		argv[n++] = "-ex";
		argv[n++] = "run";
		argv[n++] = "-ex";
		argv[n++] = "delete 1";
		argv[n++] = "-ex";
		argv[n++] = bp;
	}
	argv[n++] = "-ex";
	argv[n++] = ignore;
	argv[n++] = "-ex";
	argv[n++] = s->after ? "continue" : "run";
	argv[n++] = "-ex";
	argv[n++] = "bt";
	argv[n++] = "-ex";
	argv[n++] = "signal SIGKILL";
	argv[n++] = "--args";
	argv[n++] = self_exe;
	argv[n++] = "victim";
	argv[n++] = VETH_B;
	argv[n++] = queue_text;
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		/* LeakSanitizer cannot run under ptrace; the victim is killed. */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execvp("gdb", (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0 && now_ms() < end_ms)
		usleep(20000);
	if (now_ms() >= end_ms) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	ck_assert_msg(
		WIFEXITED(status) && WEXITSTATUS(status) != 127,
		"gdb did not run (is it installed? scripts/install-deps.sh installs it):\n%s",
		buf);
	ck_assert_msg(
		strstr(buf, s->after ? "Breakpoint 2, " : "Breakpoint 1, ") &&
			strstr(buf, s->caller) &&
			strstr(buf, "terminated with signal SIGKILL"),
		"step %s: the victim was not killed at %s (call %d) in %s:\n%s",
		s->name, s->function, s->hit, s->caller, buf);
}

static void pair_create(void)
{
	struct veth_pair_opts pair = { .name = VETH_A,
				       .peer = VETH_B,
				       .queues = QUEUES };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
}

/* PKTS packets from A's queue to B's queue of the same number. */
static void expect_traffic(struct veth_end *rx, uint32_t queue)
{
	struct veth_end_opts o = { .ifname = VETH_A,
				   .mode = XSKX_XDP_NATIVE,
				   .queue = queue,
				   .flags = XSKX_SOCKET_NO_RX };
	struct veth_end tx;

	ck_assert_msg(veth_end_open(&tx, &o) == 0, "%s", xskx_last_error());
	ck_assert_uint_eq(veth_send(&tx, PKTS, 64, 0), PKTS);
	ck_assert_int_eq(veth_receive(rx, PKTS, 0, 2000), PKTS);
	ck_assert_uint_eq(veth_wait_completions(&tx, PKTS), PKTS);
	veth_end_close(&tx);
}

/*
 * A new process's socket on queue opens at once and receives; in mode, for
 * a program left by dead processes is replaced, not merely joined.
 */
static void expect_usable(uint32_t queue, enum xskx_xdp_mode mode,
			  const char *after)
{
	struct veth_end rx;
	int64_t start = now_ms();
	int err = open_after_teardown(&rx, queue, mode);

	ck_assert_msg(err == 0, "after %s: %s", after, xskx_last_error());
	printf("after %s: open in %lld ms\n", after,
	       (long long)(now_ms() - start));
	expect_traffic(&rx, queue);
	veth_end_close(&rx);
}

static void leave_nothing_attached(const char *after)
{
	ck_assert_msg(veth_prog_id(VETH_B) == 0,
		      "after %s and every user gone, program %u is attached",
		      after, veth_prog_id(VETH_B));
}

/* A program on B whose one user was killed while serving. */
static void leave_stale_program(void)
{
	struct veth_child dead;

	helper_start(&dead, 0);
	ck_assert_uint_ne(veth_prog_id(VETH_B), 0);
	helper_kill(&dead, true);
	ck_assert_uint_ne(veth_prog_id(VETH_B), 0);
}

START_TEST(killed_at_step)
{
	const struct step *s = &steps[_i];
	struct veth_child other;

	pair_create();
	if (s->setup == SETUP_STALE)
		leave_stale_program();
	if (s->setup == SETUP_SHARED)
		helper_start(&other, 0);
	kill_victim_at(s, s->setup == SETUP_SHARED ? 1 : 0);
	if (s->setup == SETUP_SHARED) {
		/* Beside the other user, on the victim's queue. */
		expect_usable(1, XSKX_XDP_NATIVE, s->name);
		ck_assert_uint_ne(veth_prog_id(VETH_B), 0);
		veth_child_stop(&other, WAIT_MS);
	} else {
		/* Stale: replaced in generic mode, where no joiner could go. */
		expect_usable(0,
			      s->setup == SETUP_STALE ? XSKX_XDP_GENERIC :
							XSKX_XDP_NATIVE,
			      s->name);
	}
	leave_nothing_attached(s->name);
	veth_pair_delete(VETH_A);
}
END_TEST

/* Whether pid is a zombie, waited for at most WAIT_MS. */
static bool becomes_zombie(pid_t pid)
{
	char path[32], buf[256], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int64_t end_ms = now_ms() + WAIT_MS; now_ms() < end_ms;
	     usleep(1000)) {
		int fd = open(path, O_RDONLY);
		ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (fd >= 0)
			close(fd);
		if (len <= 0)
			return false;
		buf[len] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'Z')
			return true;
	}
	return false;
}

/*
 * A user killed and not reaped yet is a zombie: its sockets are closed,
 * it serves nothing. The next process's program goes with it.
 */
START_TEST(zombie_is_gone)
{
	struct veth_child dead;
	pid_t pid;

	pair_create();
	helper_start(&dead, 0);
	pid = dead.pid;
	helper_kill(&dead, false);
	ck_assert_msg(becomes_zombie(pid), "process %d never became a zombie",
		      (int)pid);
	expect_usable(0, XSKX_XDP_NATIVE, "a user killed and not reaped");
	leave_nothing_attached("a user killed and not reaped");
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	veth_pair_delete(VETH_A);
}
END_TEST

/*
 * One process keeps serving queue 0 while KILLED_USERS others join on
 * queue 1 and are killed, one after the other: more than the owner map
 * holds, so their entries must be reaped as they die.
 */
START_TEST(killed_users_reaped)
{
	struct veth_child stays, killed;

	pair_create();
	helper_start(&stays, 0);
	for (int i = 0; i < KILLED_USERS; i++) {
		helper_start(&killed, 1);
		helper_kill(&killed, true);
	}
	expect_usable(1, XSKX_XDP_NATIVE, "256 users killed");
	veth_child_stop(&stays, WAIT_MS);
	leave_nothing_attached("256 users killed");
	veth_pair_delete(VETH_A);
}
END_TEST

/*
 * An xskx program without the record of its users, as an older xskx
 * killed between attaching its program and claiming it left one: the next
 * process replaces it once it is older than the library's grace period.
 */
START_TEST(unclaimed_replaced)
{
	struct bpf_object *obj =
		bpf_object__open_mem(xskx_test_drop_half_bpf_elf,
				     xskx_test_drop_half_bpf_elf_size, NULL);
	struct bpf_program *prog;

	pair_create();
	ck_assert_ptr_nonnull(obj);
	ck_assert_int_eq(bpf_object__load(obj), 0);
	prog = bpf_object__next_program(obj, NULL);
	ck_assert_int_eq(bpf_xdp_attach((int)if_nametoindex(VETH_B),
					bpf_program__fd(prog),
					XDP_FLAGS_DRV_MODE, NULL),
			 0);
	/* Attached, its owner map never bound: the maps die with obj. */
	bpf_object__close(obj);
	ck_assert_uint_ne(veth_prog_id(VETH_B), 0);
	expect_usable(0, XSKX_XDP_NATIVE, "a program left unclaimed");
	leave_nothing_attached("a program left unclaimed");
	veth_pair_delete(VETH_A);
}
END_TEST

static void add_case(Suite *suite, const char *name, const TTest *test, int i)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test, i, i + 1);
	suite_add_tcase(suite, tc);
}

int main(int argc, char **argv)
{
	Suite *suite = suite_create("attach_steps");

	self_exe = argv[0];
	if (argc == 4 && !strcmp(argv[1], "victim"))
		return victim(argv[2], (uint32_t)strtoul(argv[3], NULL, 10));
	veth_sandbox_enter();
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		add_case(suite, steps[i].name, killed_at_step, (int)i);
	add_case(suite, "ZOMBIE_IS_GONE", zombie_is_gone, 0);
	add_case(suite, "KILLED_USERS_REAPED", killed_users_reaped, 0);
	add_case(suite, "UNCLAIMED_REPLACED", unclaimed_replaced, 0);
	return test_main(suite, argc, argv);
}
