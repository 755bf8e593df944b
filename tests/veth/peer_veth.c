// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel moves packets on its own (softirq, NAPI): pump() only yields
 * for a moment so that it can, and quiesce() waits for the last softirq to
 * finish, bounded.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "netns.h"
#include "peer_veth.h"
#include "xskx_test_drop_half_bpf.h"

#define PUMP_SLEEP_NS 20000
#define QUIESCE_SLEEP_NS 20000000

struct veth_peer {
	struct test_peer base; /* first: the scenarios see only this */
	enum xskx_xdp_mode mode;
	enum test_xdp_prog prog[2];
	struct xskx_port *ports[2]; /* opened by the first bind on each end */
};

static const char *const ends[] = { PEER_VETH_A, PEER_VETH_B };

static struct veth_peer *veth_of(struct test_peer *peer)
{
	return (struct veth_peer *)peer;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

static void veth_bind(struct test_peer *peer, enum test_port port,
		      struct xskx_socket_opts *opts)
{
	struct veth_peer *v = veth_of(peer);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = v->mode);

	if (v->prog[port] == TEST_XDP_DROP_HALF) {
		po.xdp_obj = xskx_test_drop_half_bpf_elf;
		po.xdp_obj_size = xskx_test_drop_half_bpf_elf_size;
	}
	/* A failure leaves opts->port NULL: the socket's open reports it. */
	if (!v->ports[port])
		xskx_port_open(&v->ports[port], ends[port], &po);
	opts->port = v->ports[port];
	opts->queue_id = 0;
}

static int veth_set_xdp(struct test_peer *peer, enum test_port port,
			enum test_xdp_prog prog)
{
	if (prog != TEST_XDP_REDIRECT && prog != TEST_XDP_DROP_HALF)
		return -EOPNOTSUPP;
	veth_of(peer)->prog[port] = prog;
	return 0;
}

static int veth_pump(struct test_peer *peer)
{
	(void)peer;
	sched_yield();
	sleep_ns(PUMP_SLEEP_NS);
	return 1;
}

/* Nothing is in flight on a veth pair once its softirqs have run. */
static int veth_quiesce(struct test_peer *peer)
{
	(void)peer;
	sleep_ns(QUIESCE_SLEEP_NS);
	return 0;
}

static void veth_destroy(struct test_peer *peer)
{
	for (int i = 0; i < 2; i++)
		xskx_port_close(veth_of(peer)->ports[i]);
	veth_pair_delete(PEER_VETH_A);
	free(veth_of(peer));
}

const char *peer_veth_mode_name(enum xskx_xdp_mode mode)
{
	return mode == XSKX_XDP_NATIVE ? "native" : "generic";
}

struct test_peer *peer_veth_create(enum xskx_xdp_mode mode)
{
	struct veth_pair_opts pair = { .name = PEER_VETH_A,
				       .peer = PEER_VETH_B };
	struct veth_peer *v;

	if (veth_pair_create(&pair))
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v) {
		veth_pair_delete(PEER_VETH_A);
		return NULL;
	}
	v->mode = mode;
	v->base = (struct test_peer){
		.name = mode == XSKX_XDP_NATIVE ? "veth-native" :
						  "veth-generic",
		.poll_timeout_ms = 10,
		.time_limit_s = 30,
		.bind = veth_bind,
		.set_xdp = veth_set_xdp,
		.pump = veth_pump,
		.quiesce = veth_quiesce,
		.destroy = veth_destroy,
	};
	return &v->base;
}
