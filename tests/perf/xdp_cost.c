// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xdp_cost: what xskx's XDP program costs a packet, against a bare redirect
 * program (bare_redirect.bpf.c), timed by the kernel with BPF_PROG_TEST_RUN
 * and a repeat count, side by side in one run:
 *
 *   bare        bpf_redirect_map() and nothing else
 *   xskx empty  xskx_redirect, deny list empty (the default)
 *   xskx full   xskx_redirect, XSKX_FILTER_MAX_ENTRIES IPv4 entries in each
 *               field, none matching the packet, the packet's own /24 among
 *               them so that each LPM lookup walks deep before it misses
 *
 * Each round times every variant once, in that order; the output gives per
 * variant the median and range of ns per packet over the rounds and the
 * median of its per-round ratio to bare.
 *
 * Both programs run on queue 0 of a veth (in a private network namespace,
 * tests/veth/netns.c) where an xskx socket is bound, so both find a socket
 * in their XSKMAP slot and answer XDP_REDIRECT, as on the data path. Without
 * BPF_F_TEST_XDP_LIVE_FRAMES the kernel runs the program and returns its
 * verdict without carrying the redirect out: what is timed is the program's
 * decision, which is where the two programs differ; the redirect itself
 * (the copy into the UMEM, the RX ring) would be the same for both. A
 * verdict other than XDP_REDIRECT fails the run (exit 1).
 *
 * Usage: xdp_cost [--repeat N] [--rounds R]   (defaults 1000000 and 9)
 */
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xdp/libxdp.h>
#include <xskx/xskx.h>

#include "frames.h"
#include "median.h"
#include "netns.h"
#include "xdp_query.h"
#include "xskx_test_bare_redirect_bpf.h"

#define IFNAME "xc0"
#define PEER "xc1"
#define MAX_ROUNDS 99

enum variant { BARE, XSKX_EMPTY, XSKX_FULL, VARIANTS };

static const char *const variant_names[VARIANTS] = {
	[BARE] = "bare redirect",
	[XSKX_EMPTY] = "xskx, empty list",
	[XSKX_FULL] = "xskx, full list",
};

struct rig {
	struct xskx_umem *umem;
	struct xskx_port *port;
	struct xskx_socket *sock;
	struct xdp_multiprog *mp;	/* what holds xskx's program on IFNAME */
	struct bpf_object *bare;
	int prog_fd[VARIANTS];
	int ifindex;
	uint8_t pkt[FRAME_MAX];	/* frames.c writes a whole one */
	uint32_t pkt_len;
	struct xskx_filter_entry *full;
	uint32_t full_n;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "xdp_cost: %s: %s\n", what,
		err ? strerror(err < 0 ? -err : err) : xskx_last_error());
	exit(1);
}

/* IFNAME's port (native XDP, generic where native fails) and its socket. */
static int open_socket(struct rig *r)
{
	XSKX_OPTS(xskx_port_opts, port_opts, .xdp_mode = XSKX_XDP_NATIVE,
		  .xdp_fallback = true);
	XSKX_OPTS(xskx_socket_opts, opts, .queue_id = 0,
		  .flags = XSKX_SOCKET_NO_TX);
	int err = xskx_port_open(&r->port, IFNAME, &port_opts);

	if (err)
		return err;
	opts.port = r->port;
	return xskx_socket_open(&r->sock, r->umem, &opts);
}

/* xskx's program on IFNAME (in libxdp's dispatcher, or alone). */
static int find_xskx_prog(struct rig *r)
{
	int fd = xdp_query_prog_fd(r->ifindex, "xskx_redirect", &r->mp);

	if (fd < 0)
		die("finding xskx_redirect on " IFNAME, fd);
	return fd;
}

/* The bare program, its XSKMAP slot 0 holding xskx's socket. */
static int load_bare(struct rig *r)
{
	__u32 key = 0, fd;
	int err;

	r->bare = bpf_object__open_mem(xskx_test_bare_redirect_bpf_elf,
				       xskx_test_bare_redirect_bpf_elf_size,
				       NULL);
	if (!r->bare)
		die("opening bare_redirect", errno);
	err = bpf_object__load(r->bare);
	if (err)
		die("loading bare_redirect", err);
	fd = (__u32)xskx_socket_fd(r->sock);
	err = bpf_map_update_elem(
		bpf_object__find_map_fd_by_name(r->bare, "bare_xsks"), &key,
		&fd, BPF_ANY);
	if (err)
		die("filling bare_xsks", errno);
	return bpf_program__fd(
		bpf_object__find_program_by_name(r->bare, "bare_redirect"));
}

static void add_v4(struct xskx_filter_entry *e, enum xskx_filter_field field,
		   uint32_t host_order, uint32_t rule)
{
	uint32_t net = htonl(host_order);

	memset(e, 0, sizeof(*e));
	e->field = field;
	e->rule_id = rule % XSKX_FILTER_MAX_RULES;
	e->prefix.family = AF_INET;
	e->prefix.len = 32;
	memcpy(e->prefix.addr, &net, sizeof(net));
}

/*
 * A full list that misses the packet: per field, every other address of
 * the packet's own /24, then /32s of 198.18.0.0/15 (RFC 2544's benchmark
 * range) up to XSKX_FILTER_MAX_ENTRIES.
 */
static void build_full_list(struct rig *r, uint32_t src, uint32_t dst)
{
	r->full = calloc(2 * XSKX_FILTER_MAX_ENTRIES, sizeof(*r->full));
	if (!r->full)
		die("calloc", ENOMEM);
	for (int f = 0; f < 2; f++) {
		uint32_t own = f == XSKX_FILTER_SRC ? src : dst, n = 0;

		for (uint32_t host = 0; host < 256; host++)
			if ((own & ~0xffu) + host != own)
				add_v4(&r->full[r->full_n++], f,
				       (own & ~0xffu) + host, n++);
		for (uint32_t a = 0xc6120000; n < XSKX_FILTER_MAX_ENTRIES; a++)
			add_v4(&r->full[r->full_n++], f, a, n++);
	}
}

static void rig_create(struct rig *r)
{
	struct veth_pair_opts pair = { .name = IFNAME, .peer = PEER };
	int err;

	memset(r, 0, sizeof(*r));
	if (veth_pair_create(&pair))
		exit(1);
	r->ifindex = (int)if_nametoindex(IFNAME);
	err = xskx_umem_create(&r->umem, NULL);
	if (!err)
		err = open_socket(r);
	if (err)
		die("opening the xskx socket", 0);
	r->prog_fd[XSKX_EMPTY] = r->prog_fd[XSKX_FULL] = find_xskx_prog(r);
	r->prog_fd[BARE] = load_bare(r);
	r->pkt_len = frame_udp_packet(r->pkt, "192.0.2.1", "198.51.100.1", 1);
	build_full_list(r, 0xc0000201, 0xc6336401);
}

static void rig_destroy(struct rig *r)
{
	free(r->full);
	bpf_object__close(r->bare);
	xdp_multiprog__close(r->mp);
	if (xskx_socket_close(r->sock) || xskx_umem_destroy(r->umem) ||
	    xskx_port_close(r->port))
		die("closing", 0);
	veth_pair_delete(IFNAME);
}

/* One timed run of repeat packets: ns per packet, as the kernel timed it. */
static double time_variant(struct rig *r, enum variant v, uint32_t repeat)
{
	struct xdp_md ctx = { .data_end = r->pkt_len,
			      .ingress_ifindex = (__u32)r->ifindex,
			      .rx_queue_index = 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = r->pkt,
		    .data_size_in = r->pkt_len, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = repeat);
	int err = xskx_filter_set(r->port, r->full,
				  v == XSKX_FULL ? r->full_n : 0);

	if (err)
		die("xskx_filter_set", 0);
	if (bpf_prog_test_run_opts(r->prog_fd[v], &opts))
		die("BPF_PROG_TEST_RUN", errno);
	if (opts.retval != XDP_REDIRECT) {
		fprintf(stderr, "xdp_cost: %s answered %u, not XDP_REDIRECT\n",
			variant_names[v], opts.retval);
		exit(1);
	}
	return opts.duration;
}

static void parse(int argc, char **argv, uint32_t *repeat, uint32_t *rounds)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		long v = strtol(argv[i + 1], NULL, 10);

		if (!strcmp(argv[i], "--repeat") && v > 0 && v <= 100000000)
			*repeat = (uint32_t)v;
		else if (!strcmp(argv[i], "--rounds") && v > 0 && v <= MAX_ROUNDS)
			*rounds = (uint32_t)v;
		else
			goto usage;
	}
	if (argc % 2 == 1)
		return;
usage:
	fprintf(stderr,
		"usage: xdp_cost [--repeat 1..100000000] [--rounds 1..%d]\n",
		MAX_ROUNDS);
	exit(2);
}

int main(int argc, char **argv)
{
	double ns[VARIANTS][MAX_ROUNDS], ratio[VARIANTS][MAX_ROUNDS];
	uint32_t repeat = 1000000, rounds = 9;
	struct rig r;

	parse(argc, argv, &repeat, &rounds);
	veth_sandbox_enter();
	rig_create(&r);
	for (uint32_t i = 0; i < rounds; i++)
		for (int v = 0; v < VARIANTS; v++)
			ns[v][i] = time_variant(&r, v, repeat);
	printf("BPF_PROG_TEST_RUN, %u rounds of %u packets per variant, 64-byte IPv4 UDP, queue 0 with a socket\n",
	       rounds, repeat);
	printf("%-18s %10s %16s %10s\n", "program", "ns/packet", "range",
	       "/ bare");
	/* The ratios first: median_sort() sorts the rounds in place. */
	for (int v = 0; v < VARIANTS; v++)
		for (uint32_t i = 0; i < rounds; i++)
			ratio[v][i] = ns[BARE][i] > 0 ? ns[v][i] / ns[BARE][i] : 0;
	for (int v = 0; v < VARIANTS; v++) {
		double lo, hi, mid;

		mid = median_sort(ns[v], rounds);
		lo = ns[v][0];
		hi = ns[v][rounds - 1];
		printf("%-18s %10.1f %7.1f-%-8.1f %9.2fx\n", variant_names[v],
		       mid, lo, hi, median_sort(ratio[v], rounds));
	}
	rig_destroy(&r);
	return 0;
}
