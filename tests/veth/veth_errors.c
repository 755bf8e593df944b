// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Each request the kernel backend must refuse gets its errno and a message
 * naming the culprit, before anything is bound or attached.
 */
#define _GNU_SOURCE /* setresuid, setresgid */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "veth_cases.h"
#include "veth_io.h"

static void pair_up(void)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };

	ck_assert_int_eq(veth_pair_create(&pair), 0);
}

static void pair_down(void)
{
	veth_pair_delete(PEER_VETH_A);
}

static void expect_refusal(const struct veth_end_opts *o, uint32_t frame_size,
			   enum xskx_copy_mode copy_mode, int want,
			   const char *const *words)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_size = frame_size);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = o->mode);
	XSKX_OPTS(xskx_socket_opts, so, .queue_id = o->queue,
		  .flags = o->flags, .copy_mode = copy_mode);

	veth_expect_refused(o->ifname, &po, &uo, &so, want, words);
}

START_TEST(missing_interface)
{
	struct veth_end_opts o = { .ifname = "xskx-nosuch" };
	const char *const words[] = { "xskx-nosuch", NULL };

	expect_refusal(&o, 0, XSKX_COPY_AUTO, -ENODEV, words);
}
END_TEST

START_TEST(queue_out_of_range)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B, .queue = 1 };
	const char *const words[] = { PEER_VETH_B, "queue 1", "1 RX queue",
				      NULL };

	pair_up();
	expect_refusal(&o, 0, XSKX_COPY_AUTO, -EINVAL, words);
	pair_down();
}
END_TEST

START_TEST(mtu_larger_than_frame)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .flags = XSKX_SOCKET_NO_TX };
	const char *const words[] = { PEER_VETH_B, "MTU 3000", "2048", NULL };

	pair_up();
	ck_assert_int_eq(veth_link_set_mtu(PEER_VETH_B, 3000), 0);
	expect_refusal(&o, 2048, XSKX_COPY_AUTO, -EINVAL, words);
	pair_down();
}
END_TEST

START_TEST(zero_copy_forced_on_veth)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B };
	const char *const words[] = { PEER_VETH_B, "zero-copy", NULL };

	pair_up();
	expect_refusal(&o, 0, XSKX_ZEROCOPY_FORCE, -EOPNOTSUPP, words);
	pair_down();
}
END_TEST

/* The sandbox's loopback has no native XDP: refused, or generic when allowed. */
START_TEST(native_xdp_unsupported)
{
	struct veth_end_opts o = { .ifname = "lo",
				   .mode = XSKX_XDP_NATIVE,
				   .flags = XSKX_SOCKET_NO_TX };
	const char *const words[] = { "lo", "native", NULL };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 256);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = XSKX_XDP_NATIVE,
		  .xdp_fallback = true);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_TX);
	struct xskx_port_info info;
	struct xskx_socket *sock;
	struct xskx_umem *umem;

	/* The sandbox's own loopback, with an MTU the frames hold. */
	ck_assert_int_eq(veth_link_set_mtu("lo", 1500), 0);
	expect_refusal(&o, 0, XSKX_COPY_AUTO, -EOPNOTSUPP, words);

	ck_assert_int_eq(xskx_port_open(&so.port, "lo", &po), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), 0);
	ck_assert_msg(xskx_socket_open(&sock, umem, &so) == 0,
		      "with xdp_fallback: %s", xskx_last_error());
	ck_assert_int_eq(xskx_port_info(so.port, &info), 0);
	ck_assert(info.xdp_attached);
	ck_assert_int_eq(info.xdp_mode, XSKX_XDP_GENERIC);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(so.port), 0);
}
END_TEST

START_TEST(verdicts_without_program)
{
	struct xskx_xdp_verdicts v;

	ck_assert_int_eq(xskx_xdp_prog_stats("xskx-nosuch", &v), -ENODEV);
	pair_up();
	ck_assert_int_eq(xskx_xdp_prog_stats(PEER_VETH_B, &v), -ENOENT);
	ck_assert_msg(strstr(xskx_last_error(), PEER_VETH_B), "%s",
		      xskx_last_error());
	pair_down();
}
END_TEST

/*
 * libxdp keeps a UMEM's first socket bound to its queue until the UMEM's last
 * socket closes: reopening that queue meanwhile is refused with -EBUSY that
 * says so, and works again once the UMEM has no socket.
 */
START_TEST(first_queue_held_by_umem)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B, .queues = 2 };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_socket_opts, q0, .queue_id = 0,
		  .flags = XSKX_SOCKET_NO_TX);
	XSKX_OPTS(xskx_socket_opts, q1, .queue_id = 1,
		  .flags = XSKX_SOCKET_NO_TX);
	struct xskx_socket *first, *second, *again = NULL;
	struct xskx_umem *umem;
	struct xskx_port *port;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	port = veth_port_open(PEER_VETH_B, XSKX_XDP_NATIVE);
	ck_assert_msg(port, "%s", xskx_last_error());
	q0.port = q1.port = port;
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), 0);
	ck_assert_msg(!xskx_socket_open(&first, umem, &q0), "%s", xskx_last_error());
	ck_assert_msg(!xskx_socket_open(&second, umem, &q1), "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(first), 0);

	ck_assert_int_eq(xskx_socket_open(&again, umem, &q0), -EBUSY);
	ck_assert_msg(strstr(xskx_last_error(), "queue 0") &&
			      strstr(xskx_last_error(), PEER_VETH_B) &&
			      strstr(xskx_last_error(), "first socket"),
		      "%s", xskx_last_error());

	ck_assert_int_eq(xskx_socket_close(second), 0);
	ck_assert_msg(!xskx_socket_open(&again, umem, &q0), "%s", xskx_last_error());
	ck_assert_int_eq(xskx_socket_close(again), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(port), 0);
	pair_down();
}
END_TEST

/*
 * A queue another socket of this process holds, on another UMEM: the bind's
 * -EBUSY comes at once (no waiting for a teardown) and says whose it is.
 */
START_TEST(queue_bound_in_this_process)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .flags = XSKX_SOCKET_NO_TX };
	const char *const words[] = { PEER_VETH_B, "queue 0", "this process",
				      NULL };
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_TX);
	struct veth_end holder;

	pair_up();
	ck_assert_msg(veth_end_open(&holder, &o) == 0, "%s", xskx_last_error());
	/* The same port: one per interface and process. */
	so.port = holder.port;
	veth_expect_refused(PEER_VETH_B, NULL, &uo, &so, -EBUSY, words);
	veth_end_close(&holder);
	pair_down();
}
END_TEST

/* Someone else's XDP program on the interface: -EBUSY naming it and the fix. */
START_TEST(foreign_program_in_the_way)
{
	/* The smallest XDP program there is: return XDP_PASS. */
	struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .mode = XSKX_XDP_GENERIC,
				   .flags = XSKX_SOCKET_NO_TX };
	const char *const words[] = { PEER_VETH_B, "'other'", "detach", NULL };
	int ifindex, fd;

	pair_up();
	ifindex = (int)if_nametoindex(PEER_VETH_B);
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "other", "GPL", pass, 2, NULL);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bpf_xdp_attach(ifindex, fd, XDP_FLAGS_SKB_MODE, NULL), 0);
	expect_refusal(&o, 0, XSKX_COPY_AUTO, -EBUSY, words);
	ck_assert_int_eq(bpf_xdp_detach(ifindex, XDP_FLAGS_SKB_MODE, NULL), 0);
	close(fd);
	pair_down();
}
END_TEST

/* Without CAP_NET_RAW: -EPERM saying what is missing (in a child: setuid). */
START_TEST(unprivileged)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .flags = XSKX_SOCKET_NO_TX };
	const char *const words[] = { "CAP_NET_RAW", NULL };
	int status;
	pid_t child;

	pair_up();
	child = fork();
	ck_assert_int_ge(child, 0);
	if (!child) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		expect_refusal(&o, 0, XSKX_COPY_AUTO, -EPERM, words);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the unprivileged child failed (status 0x%x)", status);
	pair_down();
}
END_TEST

static void on_alarm(int sig)
{
	(void)sig;
}

static void count_messages(enum xskx_log_level level, const char *msg,
			   void *ctx)
{
	(void)level;
	(void)msg;
	(*(uint32_t *)ctx)++;
}

/*
 * A signal handler that runs while a socket waits (without SA_RESTART, as
 * a program's stop handler is installed): both polls return -EINTR, which
 * the programs take for "look at the stop flag", with nothing logged — it
 * is not the socket's error. Nothing arrives meanwhile: IPv6 is off in the
 * sandbox, and nothing sends on the pair.
 */
START_TEST(poll_interrupted)
{
	struct veth_end_opts o = { .ifname = PEER_VETH_B,
				   .flags = XSKX_SOCKET_NO_TX };
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct xskx_poll_socket ps;
	struct veth_end end;
	uint32_t messages = 0;

	pair_up();
	ck_assert_msg(!veth_end_open(&end, &o), "%s", xskx_last_error());
	ck_assert_int_eq(sigaction(SIGALRM, &sa, &old), 0);
	xskx_set_log(count_messages, &messages);
	ualarm(100000, 0);
	ck_assert_int_eq(xskx_socket_poll(end.sock, POLLIN, 20000), -EINTR);
	ps = (struct xskx_poll_socket){ .sock = end.sock, .events = POLLIN };
	ualarm(100000, 0);
	ck_assert_int_eq(xskx_socket_poll_many(&ps, 1, 20000), -EINTR);
	xskx_set_log(NULL, NULL);
	ck_assert_uint_eq(messages, 0);
	ck_assert_int_eq(sigaction(SIGALRM, &old, NULL), 0);
	veth_end_close(&end);
	pair_down();
}
END_TEST

/*
 * No bpffs: libxdp cannot use its dispatcher and attaches the program alone;
 * the socket opens and says which mode it got.
 */
START_TEST(no_bpffs)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_count = 1024);
	XSKX_OPTS(xskx_socket_opts, so, .flags = XSKX_SOCKET_NO_TX);
	struct xskx_port_info info;
	struct xskx_socket *sock;
	struct xskx_umem *umem;

	pair_up();
	ck_assert_int_eq(umount2("/sys/fs/bpf", MNT_DETACH), 0);
	so.port = veth_port_open(PEER_VETH_B, XSKX_XDP_GENERIC);
	ck_assert_msg(so.port, "%s", xskx_last_error());
	ck_assert_int_eq(xskx_umem_create(&umem, &uo), 0);
	ck_assert_msg(!xskx_socket_open(&sock, umem, &so), "%s", xskx_last_error());
	ck_assert_int_eq(xskx_port_info(so.port, &info), 0);
	ck_assert_int_eq(info.xdp_mode, XSKX_XDP_GENERIC);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_port_close(so.port), 0);
	pair_down();
}
END_TEST

void add_error_cases(Suite *suite)
{
	veth_add_case(suite, "ERR_missing_interface", missing_interface);
	veth_add_case(suite, "ERR_queue_out_of_range", queue_out_of_range);
	veth_add_case(suite, "ERR_mtu_larger_than_frame",
		      mtu_larger_than_frame);
	veth_add_case(suite, "ERR_zero_copy_forced", zero_copy_forced_on_veth);
	veth_add_case(suite, "ERR_native_xdp_unsupported",
		      native_xdp_unsupported);
	veth_add_case(suite, "ERR_verdicts_without_program",
		      verdicts_without_program);
	veth_add_case(suite, "ERR_first_queue_held", first_queue_held_by_umem);
	veth_add_case(suite, "ERR_queue_bound_in_this_process",
		      queue_bound_in_this_process);
	veth_add_case(suite, "ERR_foreign_program", foreign_program_in_the_way);
	veth_add_case(suite, "ERR_unprivileged", unprivileged);
	veth_add_case(suite, "ERR_no_bpffs", no_bpffs);
	veth_add_case(suite, "ERR_poll_interrupted", poll_interrupted);
}
