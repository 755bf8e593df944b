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
#include "peer_kernel.h"
#include "peer_veth.h"

#define PUMP_SLEEP_NS 20000
#define QUIESCE_SLEEP_NS 20000000

struct veth_peer {
	struct test_peer base; /* first: the scenarios see only this */
	enum xskx_xdp_mode mode;
	enum test_xdp_prog prog[2];
	struct xskx_port *ports[2]; /* opened by the first bind on each end */
	uint32_t port_flags[2];	    /* set_port_flags()'s */
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
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = v->mode,
		  .flags = v->port_flags[port]);

	peer_kernel_xdp_obj(v->prog[port], &po);
	/* A failure leaves opts->port NULL: the socket's open reports it. */
	if (!v->ports[port])
		xskx_port_open(&v->ports[port], ends[port], &po);
	opts->port = v->ports[port];
	opts->queue_id = 0;
}

static int veth_set_hw_rings(struct test_peer *peer, uint32_t *rx, uint32_t *tx)
{
	uint32_t want_rx = *rx, want_tx = *tx;
	int err = 0;

	(void)peer;
	for (int p = 0; p < 2 && !err; p++) {
		*rx = want_rx;
		*tx = want_tx;
		err = peer_kernel_set_rings(ends[p], rx, tx);
	}
	return err;
}

static void veth_set_port_flags(struct test_peer *peer, enum test_port port,
				uint32_t flags)
{
	veth_of(peer)->port_flags[port] = flags;
}

static int veth_set_xdp(struct test_peer *peer, enum test_port port,
			enum test_xdp_prog prog)
{
	struct veth_peer *v = veth_of(peer);

	if (prog == TEST_XDP_TAIL_GROW && v->mode == XSKX_XDP_NATIVE) {
		peer->unsupported_why =
			"native veth runs XDP in the buffer of the sender's skb, whose tailroom is what its allocation left over: bpf_xdp_adjust_tail() refuses to grow most packets with EINVAL (KERNEL_RULES.md, \"XDP programs\")";
		return -EOPNOTSUPP;
	}
	v->prog[port] = prog;
	return 0;
}

static int veth_set_mtu(struct test_peer *peer, uint32_t mtu)
{
	int err = veth_link_set_mtu(PEER_VETH_A, mtu);

	(void)peer;
	return err ? err : veth_link_set_mtu(PEER_VETH_B, mtu);
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
		/*
		 * Native: veth's kfuncs answer from the skb: a hash of type 0
		 * or XSKX_RSS_L4 (the skb's l4_hash) that is not a flow's, a timestamp of 0, no VLAN tag for a
		 * tag in the frame; generic: no device-bound program, the
		 * struct with valid 0 (KERNEL_RULES.md, "RX metadata").
		 */
		.rx_meta_fields = mode == XSKX_XDP_NATIVE ?
					  XSKX_RX_META_TIMESTAMP |
						  XSKX_RX_META_HASH :
					  0,
		.set_hw_rings = veth_set_hw_rings,
		.set_mtu = veth_set_mtu,
		.set_port_flags = veth_set_port_flags,
		.bind = veth_bind,
		.set_xdp = veth_set_xdp,
		.pump = veth_pump,
		.quiesce = veth_quiesce,
		.destroy = veth_destroy,
	};
	return &v->base;
}
