// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unprivileged use on veth: as root, this test attaches a program that is
 * not xskx's (xdp_plain_xskmap.bpf.c) to one end of a pair, as a node agent
 * or the AF_XDP device plugin would, and hands its XSKMAP to
 * xskx_unpriv_peer (unpriv_peer.c) run through setpriv as user nobody with
 * CAP_NET_RAW alone; one case per way of handing it over:
 *
 *   UNPRIV_FD_native   the map's fd, inherited across exec
 *   UNPRIV_PIN_native  the map pinned in this namespace's bpffs
 *   UNPRIV_UDS_native  the device plugin's Unix socket handshake, served
 *                      by a small server written from the plugin's
 *                      documentation (/connect, /xsk_map_fd, /fin)
 *
 * The peer receives what this process's xskx socket on the other end
 * sends and forwards it back; every packet must come back in order, and
 * the peer must close cleanly. The program stays attached throughout: the
 * library never detaches what it did not attach.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "unpriv_spawn.h"
#include "veth_io.h"
#include "xskx_test_plain_xskmap_bpf.h"

#define COUNT 200
#define PIN_PATH "/sys/fs/bpf/xskx_test_xsks_map"
#define UDS_DIR "/tmp/afxdp_dp/" PEER_VETH_B
#define UDS_PATH UDS_DIR "/afxdp.sock"

enum handover {
	BY_FD,
	BY_PIN,
	BY_UDS
};

struct plain_prog {
	struct bpf_object *obj;
	int ifindex;
	int prog_fd;
	int map_fd;
};

static void plain_attach(struct plain_prog *p, const char *ifname)
{
	struct bpf_program *prog;

	p->obj = bpf_object__open_mem(xskx_test_plain_xskmap_bpf_elf,
				      xskx_test_plain_xskmap_bpf_elf_size,
				      NULL);
	ck_assert_ptr_nonnull(p->obj);
	ck_assert_int_eq(bpf_object__load(p->obj), 0);
	prog = bpf_object__find_program_by_name(p->obj, "plain_xskmap");
	ck_assert_ptr_nonnull(prog);
	p->prog_fd = bpf_program__fd(prog);
	p->map_fd = bpf_object__find_map_fd_by_name(p->obj, "xsks_map");
	ck_assert_int_ge(p->map_fd, 0);
	p->ifindex = (int)if_nametoindex(ifname);
	ck_assert_int_gt(p->ifindex, 0);
	ck_assert_int_eq(bpf_xdp_attach(p->ifindex, p->prog_fd,
					XDP_FLAGS_DRV_MODE, NULL),
			 0);
}

/* The program this process attached is still the one on the device. */
static void plain_still_attached(const struct plain_prog *p)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), id = 0;

	ck_assert_int_eq(bpf_obj_get_info_by_fd(p->prog_fd, &info, &len), 0);
	ck_assert_int_eq(bpf_xdp_query_id(p->ifindex, XDP_FLAGS_DRV_MODE, &id),
			 0);
	ck_assert_uint_eq(id, info.id);
}

static void plain_detach(struct plain_prog *p)
{
	bpf_xdp_detach(p->ifindex, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(p->obj);
}

/*
 * The device plugin's side of the handshake, for one client: the pod's
 * hostname is taken as it comes (a real plugin checks it against the
 * kubelet's records), the map goes only for the one device it serves.
 */
static void serve_handshake(int listener, int map_fd)
{
	int c = accept(listener, NULL, NULL);
	char req[65];
	ssize_t n;

	if (c < 0)
		_exit(1);
	while ((n = recv(c, req, sizeof(req) - 1, 0)) > 0) {
		char control[CMSG_SPACE(sizeof(int))] = { 0 };
		const char *reply = "/nak";
		struct iovec iov;
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

		req[n] = '\0';
		if (!strncmp(req, "/connect,", 9)) {
			reply = "/host_ok";
		} else if (!strcmp(req, "/xsk_map_fd," PEER_VETH_B)) {
			struct cmsghdr *cmsg;

			reply = "/fd_ack";
			msg.msg_control = control;
			msg.msg_controllen = sizeof(control);
			cmsg = CMSG_FIRSTHDR(&msg);
			cmsg->cmsg_level = SOL_SOCKET;
			cmsg->cmsg_type = SCM_RIGHTS;
			cmsg->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cmsg), &map_fd, sizeof(int));
		} else if (!strncmp(req, "/xsk_map_fd,", 12)) {
			reply = "/fd_nak";
		} else if (!strcmp(req, "/fin")) {
			reply = "/fin_ack";
		}
		iov.iov_base = (void *)reply;
		iov.iov_len = strlen(reply);
		if (sendmsg(c, &msg, 0) < 0)
			_exit(1);
		if (!strcmp(reply, "/fin_ack"))
			_exit(0);
	}
	_exit(1);
}

static bool plugin_dir_made;

/* Unmount the plugin directory's tmpfs; remove the directory if made. */
static void plugin_dir_remove(void)
{
	ck_assert_int_eq(umount(XSKX_DEVICE_PLUGIN_DIR), 0);
	if (plugin_dir_made)
		ck_assert_int_eq(rmdir(XSKX_DEVICE_PLUGIN_DIR), 0);
}

/* A plugin server in a child, its socket where pods find it. */
static pid_t start_plugin(int map_fd)
{
	int listener;
	pid_t pid;

	/*
	 * A tmpfs of this mount namespace on the plugin's directory alone:
	 * nothing lands there for the host, and the rest of /tmp stays
	 * visible (the tree may be under it, as a CI clone is). An empty
	 * directory made for it is removed at the end (plugin_dir_remove).
	 */
	plugin_dir_made = mkdir(XSKX_DEVICE_PLUGIN_DIR, 0755) == 0;
	ck_assert(plugin_dir_made || errno == EEXIST);
	ck_assert_int_eq(mount("tmpfs", XSKX_DEVICE_PLUGIN_DIR, "tmpfs", 0,
			       "mode=0755"),
			 0);
	ck_assert_int_eq(mkdir(UDS_DIR, 0755), 0);
	listener = unpriv_listen(UDS_PATH);
	ck_assert_int_eq(chmod(UDS_PATH, 0777), 0);
	pid = unpriv_fork();
	if (!pid)
		serve_handshake(listener, map_fd);
	close(listener);
	return pid;
}

/* The peer, user nobody with CAP_NET_RAW alone. */
static pid_t start_peer(const char *how, const char *arg, int *out)
{
	char count[16];
	char *argv[] = { XSKX_UNPRIV_PEER, PEER_VETH_B, (char *)how,
			 (char *)arg,	   count,	NULL };

	snprintf(count, sizeof(count), "%d", COUNT);
	return unpriv_start_as_nobody("net_raw", argv, out);
}

/* Check's loop index _i is the enum handover. */
START_TEST(unprivileged_forwarder)
{
	enum handover how = (enum handover)_i;
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_end_opts a_opts = { .ifname = PEER_VETH_A,
					.mode = XSKX_XDP_NATIVE };
	const char *names[] = { "fd", "pin", "uds" };
	pid_t peer, plugin = 0;
	struct plain_prog prog;
	struct veth_end a;
	char arg[64], line[128];
	int out;

	unpriv_need_setpriv();
	ck_assert_int_eq(veth_pair_create(&pair), 0);
	plain_attach(&prog, PEER_VETH_B);
	switch (how) {
	case BY_FD:
		/* Inherited across exec, as an agent hands it to its child. */
		ck_assert_int_eq(fcntl(prog.map_fd, F_SETFD, 0), 0);
		snprintf(arg, sizeof(arg), "%d", prog.map_fd);
		break;
	case BY_PIN:
		ck_assert_int_eq(chmod("/sys/fs/bpf", 0755), 0);
		ck_assert_int_eq(bpf_obj_pin(prog.map_fd, PIN_PATH), 0);
		ck_assert_int_eq(chmod(PIN_PATH, 0666), 0);
		snprintf(arg, sizeof(arg), "%s", PIN_PATH);
		break;
	case BY_UDS:
		plugin = start_plugin(prog.map_fd);
		snprintf(arg, sizeof(arg), "%s", UDS_PATH);
		break;
	}
	ck_assert_msg(veth_end_open(&a, &a_opts) == 0, "%s", xskx_last_error());

	peer = start_peer(names[how], arg, &out);
	unpriv_read_line(out, line, sizeof(line));
	ck_assert_msg(
		!strcmp(line, "ready"),
		"the unprivileged peer did not start (%s): see its stderr",
		line);
	ck_assert_uint_eq(veth_send(&a, COUNT, 64, 0), COUNT);
	ck_assert_int_eq(veth_receive(&a, COUNT, 0, 5000), COUNT);
	unpriv_read_line(out, line, sizeof(line));
	ck_assert_str_eq(line, "done 200");
	ck_assert_int_eq(unpriv_wait_exit(peer), 0);
	if (plugin) {
		ck_assert_int_eq(unpriv_wait_exit(plugin), 0);
		plugin_dir_remove();
	}
	close(out);

	/* Never detached by the peer, and its socket left the map. */
	plain_still_attached(&prog);
	veth_end_close(&a);
	plain_detach(&prog);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

/*
 * A map that is not an XSKMAP, handed over by mistake: the port refuses it
 * when it opens, naming the map, not at the first socket's map update.
 */
START_TEST(not_an_xskmap)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	XSKX_OPTS(xskx_port_opts, po, .flags = XSKX_PORT_XSKMAP_FD);
	struct xskx_port *port = NULL;
	int err;

	ck_assert_int_eq(veth_pair_create(&pair), 0);
	po.xskmap_fd =
		bpf_map_create(BPF_MAP_TYPE_ARRAY, "not_xsks", 4, 4, 4, NULL);
	ck_assert_int_ge(po.xskmap_fd, 0);
	err = xskx_port_open(&port, PEER_VETH_B, &po);
	ck_assert_msg(err == -EINVAL &&
			      strstr(xskx_last_error(), "is not an XSKMAP") &&
			      strstr(xskx_last_error(), "'not_xsks'"),
		      "%d: %s", err, xskx_last_error());
	ck_assert_ptr_null(port);
	close(po.xskmap_fd);
	veth_pair_delete(PEER_VETH_A);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("unpriv");

	veth_sandbox_enter();
	unpriv_add_case(s, "UNPRIV_FD_native", unprivileged_forwarder, BY_FD);
	unpriv_add_case(s, "UNPRIV_PIN_native", unprivileged_forwarder, BY_PIN);
	unpriv_add_case(s, "UNPRIV_UDS_native", unprivileged_forwarder, BY_UDS);
	unpriv_add_case(s, "UNPRIV_NOT_XSKMAP", not_an_xskmap, 0);
	return test_main(s, argc, argv);
}
