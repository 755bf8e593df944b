// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Several processes on one interface, each on its own queues, sharing one
 * XDP program (native mode: generic XDP on veth sees queue 0 only).
 *
 * MULTIPROC_QUEUES: on a veth pair with 4 queues, receivers forked on B's
 * queues 0-1 and 2-3 each get exactly their own traffic, sent by this
 * process from A's queue of the same number (veth hands A's TX queue N to
 * B's RX queue N); one is killed, the other keeps receiving and the dead
 * one's queues pass to the stack; a new receiver takes the freed queues;
 * the program is the same from first to last and detached with the last.
 * MULTIPROC_REFUSED: a process asking for another mode or another program
 * than the one serving (with or without RX metadata too), or for
 * multi-buffer packets from a program loaded without xdp.frags, is
 * refused, told what differs and whose it is.
 * MULTIPROC_RX_META_JOINED: a process joining the RX metadata program
 * another attached bound to the device learns it is bound, from the
 * program's record.
 * MULTIPROC_LEAVING: a program whose only user is detaching it (its entry
 * in the owner map says "closing") is not joined: the joiner steps back,
 * and gives up with -EBUSY while that lasts, leaking no descriptor.
 * MULTIPROC_CHURN: receivers joining and leaving at once, over and over
 * (40 cycles each, or as many as 20 s allow on a loaded machine); none
 * ever sees its program change or vanish while it has a socket open.
 */
#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "stream.h"
#include "veth_cases.h"
#include "veth_io.h"
#include "xskx_shared.h"
#include "xskx_test_drop_half_bpf.h"

#define QUEUES 4
#define PKTS 128
/* A packet's sequence number says the queue it was sent on. */
#define SEQ_PER_QUEUE 1000000u
#define BURST 64
#define WAIT_MS 10000
#define CHILD_LIFETIME_S 60
#define CHURN_CHILDREN 4
#define CHURN_CYCLES 40
/*
 * A churning process starts no cycle after this long: on a loaded machine
 * (an ASan build verifying the program at every attach) it may manage
 * fewer than CHURN_CYCLES; what it checks holds for every cycle it runs.
 */
#define CHURN_BUDGET_S 20
/* Its last cycle after the budget, however slow: past that, it hangs. */
#define CHURN_HANG_S 120

/* A receiver's answer to 'c': what arrived on each of its two queues. */
struct counts {
	uint32_t got[2];
	uint32_t wrong; /* another queue's packet, or out of order */
};

/* A receiver is a child (child.h): 'c' asks for its counts. */

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void count_packets(struct veth_end *end, uint32_t queue,
			  uint32_t *got, uint32_t *next_seq, uint32_t *wrong)
{
	struct xskx_pkt pkts[BURST];
	int n = xskx_rx_burst(end->sock, pkts, BURST);

	for (int i = 0; i < n; i++) {
		uint32_t seq;

		if (!pkt_seq(pkts[i].data, pkts[i].len, &seq) ||
		    seq / SEQ_PER_QUEUE != queue ||
		    (*got && seq != *next_seq)) {
			(*wrong)++;
			continue;
		}
		*next_seq = seq + 1;
		(*got)++;
	}
	if (n > 0)
		xskx_rx_release(end->sock, pkts, (uint32_t)n);
}

/* The child: receive on queues q0 and q0 + 1 of B until told to stop. */
static void serve(uint32_t q0, int cmd, int report)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = XSKX_XDP_NATIVE,
				   .flags = XSKX_SOCKET_NO_TX };
	struct veth_end ends[2];
	struct counts c = { 0 };
	uint32_t next_seq[2] = { 0 };
	int64_t end_ms = now_ms() + CHILD_LIFETIME_S * 1000;
	char ok = 'y';

	for (uint32_t i = 0; i < 2; i++) {
		o.queue = q0 + i;
		o.port = i ? ends[0].port : NULL; /* one port per interface */
		if (veth_end_open(&ends[i], &o)) {
			fprintf(stderr, "receiver on queue %u: %s\n", o.queue,
				xskx_last_error());
			ok = 'n';
			break;
		}
	}
	if (write(report, &ok, 1) != 1 || ok != 'y')
		_exit(1);
	while (now_ms() < end_ms) {
		char what;

		for (uint32_t i = 0; i < 2; i++)
			count_packets(&ends[i], q0 + i, &c.got[i], &next_seq[i],
				      &c.wrong);
		what = veth_child_read(cmd, 1);
		if (what == 'c' && write(report, &c, sizeof(c)) != sizeof(c))
			_exit(1);
		if (what == 'q') {
			veth_end_close(&ends[1]);
			veth_end_close(&ends[0]);
			_exit(write(report, "d", 1) == 1 ? 0 : 1);
		}
	}
	_exit(2);
}

static void start_receiver(struct veth_child *r, uint32_t q0)
{
	if (veth_child_start(r, serve, q0, WAIT_MS))
		ck_abort_msg("the receiver on queues %u-%u could not open", q0,
			     q0 + 1);
}

/* Ask for the counts until both queues have want, bounded. */
static struct counts wait_counts(struct veth_child *r, uint32_t want)
{
	struct pollfd pfd = { .fd = r->report, .events = POLLIN };
	int64_t end_ms = now_ms() + WAIT_MS;
	struct counts c = { 0 };

	while (now_ms() < end_ms) {
		ck_assert_int_eq(write(r->cmd, "c", 1), 1);
		ck_assert_int_eq(poll(&pfd, 1, WAIT_MS), 1);
		ck_assert_int_eq(read(r->report, &c, sizeof(c)), sizeof(c));
		if (c.got[0] >= want && c.got[1] >= want)
			break;
		usleep(10000);
	}
	return c;
}

static void expect_counts(struct veth_child *r, uint32_t want)
{
	struct counts c = wait_counts(r, want);

	ck_assert_msg(c.got[0] == want && c.got[1] == want && !c.wrong,
		      "receiver %d: %u and %u packets, %u wrong; expected %u each",
		      (int)r->pid, c.got[0], c.got[1], c.wrong, want);
}


/* PKTS packets from each of A's queues in queues, numbered per queue. */
static void send_on(struct veth_end *tx, uint32_t *sent, uint32_t first,
		    uint32_t last)
{
	for (uint32_t q = first; q <= last; q++) {
		ck_assert_uint_eq(veth_send(&tx[q], PKTS, 64,
					    q * SEQ_PER_QUEUE + sent[q]),
				  PKTS);
		sent[q] += PKTS;
		ck_assert_uint_eq(veth_wait_completions(&tx[q], sent[q]),
				  sent[q]);
	}
}

/* The verdict counters once passed reached want, bounded. */
static struct xskx_xdp_verdicts verdicts_when_passed(uint64_t want)
{
	struct xskx_xdp_verdicts v = { 0 };

	for (int64_t end_ms = now_ms() + WAIT_MS; now_ms() < end_ms;
	     usleep(1000)) {
		ck_assert_msg(xskx_xdp_prog_stats(PEER_VETH_B, &v) == 0, "%s",
			      xskx_last_error());
		if (v.passed >= want)
			break;
	}
	return v;
}

static void pair_with_queues(void)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B,
				       .queues = QUEUES };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
}

START_TEST(queues)
{
	struct veth_end_opts tx_opts = { .ifname = PEER_VETH_A,
					 .mode = XSKX_XDP_NATIVE,
					 .flags = XSKX_SOCKET_NO_RX };
	struct veth_child low, high, again;
	struct veth_end tx[QUEUES];
	uint32_t sent[QUEUES] = { 0 }, prog;
	struct xskx_xdp_verdicts v;
	int status;

	pair_with_queues();
	for (uint32_t q = 0; q < QUEUES; q++) {
		tx_opts.queue = q;
		tx_opts.port = q ? tx[0].port : NULL; /* one per interface */
		ck_assert_msg(veth_end_open(&tx[q], &tx_opts) == 0, "%s",
			      xskx_last_error());
	}
	start_receiver(&low, 0);
	prog = veth_prog_id(PEER_VETH_B);
	ck_assert_uint_ne(prog, 0);
	start_receiver(&high, 2);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);

	/* Each gets its own queues' packets, and only those. */
	send_on(tx, sent, 0, QUEUES - 1);
	expect_counts(&low, PKTS);
	expect_counts(&high, PKTS);

	/* Killed: the other keeps the program and receives; 0-1 pass. */
	ck_assert_int_eq(kill(low.pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(low.pid, &status, 0), low.pid);
	ck_assert(WIFSIGNALED(status));
	veth_child_forget(&low);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	send_on(tx, sent, 0, QUEUES - 1);
	expect_counts(&high, 2 * PKTS);
	v = verdicts_when_passed(2 * PKTS);
	ck_assert_uint_eq(v.passed, 2 * PKTS);
	ck_assert_uint_eq(v.redirected, 6 * PKTS);

	/* A newcomer takes the freed queues, in the same program. */
	start_receiver(&again, 0);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	send_on(tx, sent, 0, QUEUES - 1);
	expect_counts(&again, PKTS);
	expect_counts(&high, 3 * PKTS);

	/* The program stays while one user is left, and goes with it. */
	veth_child_stop(&again, WAIT_MS);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	veth_child_stop(&high, WAIT_MS);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	for (uint32_t q = QUEUES; q-- > 0;) /* tx[0] has the port */
		veth_end_close(&tx[q]);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

START_TEST(refused)
{
	struct veth_child r;
	char who[32];
	const char *const mode_words[] = { PEER_VETH_B, "runs in native mode",
					   who, "XSKX_XDP_NATIVE", NULL };
	const char *const obj_words[] = { PEER_VETH_B, "another object", who,
					  "xdp_obj", NULL };
	const char *const queue_words[] = { PEER_VETH_B, "queue 1", who, NULL };
	const char *const meta_words[] = { PEER_VETH_B, "without RX metadata",
					   who, "XSKX_PORT_RX_METADATA", NULL };
	const char *const frags_words[] = { PEER_VETH_B, "multi-buffer", who,
					    "XSKX_SOCKET_MULTI_BUFFER", NULL };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_port_opts, generic, .xdp_mode = XSKX_XDP_GENERIC);
	XSKX_OPTS(xskx_port_opts, other_obj, .xdp_mode = XSKX_XDP_NATIVE,
		  .xdp_obj = xskx_test_drop_half_bpf_elf,
		  .xdp_obj_size = xskx_test_drop_half_bpf_elf_size);
	XSKX_OPTS(xskx_port_opts, native, .xdp_mode = XSKX_XDP_NATIVE);
	XSKX_OPTS(xskx_port_opts, rx_meta, .xdp_mode = XSKX_XDP_NATIVE,
		  .flags = XSKX_PORT_RX_METADATA);
	XSKX_OPTS(xskx_socket_opts, queue3, .queue_id = 3,
		  .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, its_queue, .queue_id = 1,
		  .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, queue3_frags, .queue_id = 3,
		  .flags = XSKX_SOCKET_NO_TX | XSKX_SOCKET_MULTI_BUFFER);

	pair_with_queues();
	start_receiver(&r, 0);
	snprintf(who, sizeof(who), "process %d", (int)r.pid);
	veth_expect_refused(PEER_VETH_B, &generic, &uo, &queue3, -EBUSY,
			    mode_words);
	veth_expect_refused(PEER_VETH_B, &other_obj, &uo, &queue3, -EBUSY,
			    obj_words);
	/* The RX metadata program is another program: both must ask. */
	veth_expect_refused(PEER_VETH_B, &rx_meta, &uo, &queue3, -EBUSY,
			    meta_words);
	/* Multi-buffer packets need a program loaded with xdp.frags. */
	veth_expect_refused(PEER_VETH_B, &native, &uo, &queue3_frags, -EBUSY,
			    frags_words);
	/* Its queue: the kernel refuses the bind, the message says whose. */
	veth_expect_refused(PEER_VETH_B, &native, &uo, &its_queue, -EBUSY,
			    queue_words);

	veth_child_stop(&r, WAIT_MS);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/* The owner map of the XDP program on B, as bpf/xskx_shared.h declares it. */
static int owner_map_of_b(void)
{
	uint32_t ids[16] = { 0 };
	struct bpf_prog_info info = { .nr_map_ids = 16,
				      .map_ids = (uint64_t)(uintptr_t)ids };
	uint32_t len = sizeof(info);
	int prog = bpf_prog_get_fd_by_id(veth_prog_id(PEER_VETH_B));

	ck_assert_int_ge(prog, 0);
	ck_assert_int_eq(bpf_obj_get_info_by_fd(prog, &info, &len), 0);
	close(prog);
	for (uint32_t i = 0; i < info.nr_map_ids && i < 16; i++) {
		struct bpf_map_info map = { 0 };
		uint32_t map_len = sizeof(map);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &map, &map_len) &&
		    !strcmp(map.name, XSKX_OWNER_MAP_NAME))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	ck_abort_msg("no map %s on the program of %s", XSKX_OWNER_MAP_NAME,
		     PEER_VETH_B);
	return -1;
}

/* The file descriptors this process has open. */
static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

/* Set the role of pid's entry in the owner map. */
static void set_role(int map, pid_t pid, enum xskx_owner_role role)
{
	struct xskx_prog_owner key = { 0 }, next;
	struct xskx_owner_entry entry;
	int found = 0;

	while (!bpf_map_get_next_key(map, found ? &key : NULL, &next)) {
		key = next;
		found = 1;
		if (key.pid != (uint32_t)pid)
			continue;
		ck_assert_int_eq(bpf_map_lookup_elem(map, &key, &entry), 0);
		entry.role = role;
		ck_assert_int_eq(bpf_map_update_elem(map, &key, &entry, BPF_EXIST),
				 0);
		return;
	}
	ck_abort_msg("process %d has no entry in the owner map", (int)pid);
}

START_TEST(leaving)
{
	const char *const words[] = { PEER_VETH_B, "being detached", NULL };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = XSKX_XDP_NATIVE);
	XSKX_OPTS(xskx_socket_opts, so, .queue_id = 2,
		  .flags = XSKX_SOCKET_NO_TX);
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = XSKX_XDP_NATIVE,
				   .queue = 2,
				   .flags = XSKX_SOCKET_NO_TX };
	struct veth_child r;
	struct veth_end end;
	uint32_t prog;
	int map, fds;

	pair_with_queues();
	start_receiver(&r, 0);
	prog = veth_prog_id(PEER_VETH_B);
	map = owner_map_of_b();
	fds = open_fds();
	set_role(map, r.pid, XSKX_OWNER_CLOSING);
	veth_expect_refused(PEER_VETH_B, &po, &uo, &so, -EBUSY, words);

	/* Serving again: joined, and the program stays with its user. */
	set_role(map, r.pid, XSKX_OWNER_SERVING);
	ck_assert_msg(veth_end_open(&end, &o) == 0, "%s", xskx_last_error());
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	veth_end_close(&end);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), prog);
	/* Every retry and the join gave back what they opened. */
	ck_assert_int_eq(open_fds(), fds);
	close(map);
	veth_child_stop(&r, WAIT_MS);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/*
 * Open, waiting out a socket of ours closed a moment ago: the kernel frees
 * its queue after an RCU grace period, which on a loaded machine can take
 * longer than the library's 255 ms of bind retries. Bounded: 100 x 100 ms.
 */
static int open_after_teardown(struct veth_end *end,
			       const struct veth_end_opts *o)
{
	int err = veth_end_open(end, o);

	for (int i = 0; i < 100 && err == -EBUSY &&
			strstr(xskx_last_error(), "torn down");
	     i++) {
		usleep(100000);
		err = veth_end_open(end, o);
	}
	return err;
}

/*
 * One churning child: open a socket on its queue, check the program stays
 * the one it joined until the socket is closed, again and again. Exits 0,
 * or 1 with the reason on stderr.
 */
static void churn(uint32_t queue)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = XSKX_XDP_NATIVE,
				   .queue = queue,
				   .flags = XSKX_SOCKET_NO_TX };

	int64_t end_ms = now_ms() + CHURN_BUDGET_S * 1000;

	for (int cycle = 0; cycle < CHURN_CYCLES && now_ms() < end_ms;
	     cycle++) {
		struct veth_end end;
		uint32_t joined, later;

		if (open_after_teardown(&end, &o)) {
			fprintf(stderr, "queue %u, cycle %d: %s\n", queue,
				cycle, xskx_last_error());
			_exit(1);
		}
		joined = veth_prog_id(PEER_VETH_B);
		usleep((useconds_t)(cycle % 3) * 500);
		later = veth_prog_id(PEER_VETH_B);
		veth_end_close(&end);
		if (!joined || later != joined) {
			fprintf(stderr,
				"queue %u, cycle %d: program %u when joined, %u later\n",
				queue, cycle, joined, later);
			_exit(1);
		}
	}
	_exit(0);
}

START_TEST(churning)
{
	pid_t pids[CHURN_CHILDREN];
	int64_t end_ms;
	int failed = 0;

	pair_with_queues();
	for (uint32_t i = 0; i < CHURN_CHILDREN; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			churn(i % QUEUES);
		}
	}
	end_ms = now_ms() + (CHURN_BUDGET_S + CHURN_HANG_S) * 1000;
	for (uint32_t i = 0; i < CHURN_CHILDREN; i++) {
		pid_t reaped;
		int status = 0;

		while ((reaped = waitpid(pids[i], &status, WNOHANG)) == 0 &&
		       now_ms() < end_ms)
			usleep(10000);
		if (reaped != pids[i]) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "churning process %d: %s %d\n",
				(int)pids[i],
				WIFEXITED(status) ? "exit" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
						    WTERMSIG(status));
			failed++;
		}
	}
	ck_assert_msg(!failed, "%d of %d churning processes failed (see above)",
		      failed, CHURN_CHILDREN);
	ck_assert_uint_eq(veth_prog_id(PEER_VETH_B), 0);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/* Open a port with RX metadata and a receiver on queue, all in *end. */
static int open_rx_meta(struct veth_end *end, uint32_t queue)
{
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = XSKX_XDP_NATIVE,
		  .flags = XSKX_PORT_RX_METADATA);
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_socket_opts, so, .queue_id = queue,
		  .flags = XSKX_SOCKET_NO_TX);
	int err;

	memset(end, 0, sizeof(*end));
	err = xskx_port_open(&end->port, PEER_VETH_B, &po);
	if (!err)
		err = xskx_umem_create(&end->umem, &uo);
	so.port = end->port;
	if (!err)
		err = xskx_socket_open(&end->sock, end->umem, &so);
	end->own_port = true;
	return err;
}

START_TEST(rx_meta_joined)
{
	struct xskx_port_info info;
	struct veth_end end;
	int ready[2], status;
	char ok = 'n';
	pid_t pid;

	pair_with_queues();
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ok = open_rx_meta(&end, 0) ? 'n' : 'y';
		if (ok != 'y')
			fprintf(stderr, "the first user: %s\n",
				xskx_last_error());
		if (write(ready[1], &ok, 1) != 1 || ok != 'y')
			_exit(1);
		sleep(CHILD_LIFETIME_S);
		_exit(0);
	}
	close(ready[1]);
	ok = veth_child_read(ready[0], WAIT_MS);
	close(ready[0]);
	if (ok != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ck_abort_msg("the first user could not open");
	}
	ck_assert_msg(open_rx_meta(&end, 2) == 0, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_port_info(end.port, &info), 0);
	/* veth gives the three fields in native mode (veth_options.c). */
	ck_assert_uint_ne(info.rx_metadata, 0);
	ck_assert_msg(info.rx_meta_bound == info.rx_metadata,
		      "the joiner's program delivers 0x%x of 0x%x: not bound",
		      info.rx_meta_bound, info.rx_metadata);
	veth_end_close(&end);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

void add_multiproc_cases(Suite *suite)
{
	veth_add_case(suite, "MULTIPROC_QUEUES_native", queues);
	veth_add_case(suite, "MULTIPROC_REFUSED_native", refused);
	veth_add_case(suite, "MULTIPROC_LEAVING_native", leaving);
	veth_add_case(suite, "MULTIPROC_CHURN_native", churning);
	veth_add_case(suite, "MULTIPROC_RX_META_JOINED_native", rx_meta_joined);
}
