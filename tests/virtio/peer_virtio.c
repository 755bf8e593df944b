// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * virtio_net moves packets on its own (NAPI, and QEMU's device emulation
 * behind it): pump() only yields for a moment, quiesce() waits for the
 * last softirq. Under TCG everything is some hundred times slower than on
 * hardware, hence the longer waits and limits than veth's.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "netns.h"
#include "peer_kernel.h"
#include "peer_virtio.h"

#define PUMP_SLEEP_NS 50000
#define QUIESCE_SLEEP_NS 100000000
/* A frame of the last scenario still crossing QEMU and the bridge. */
#define SETTLE_SLEEP_NS 100000000
#define DEFAULT_MTU 1500

struct virtio_peer {
	struct test_peer base; /* first: the scenarios see only this */
	bool zero_copy;
	enum test_xdp_prog prog[2];
	struct xskx_port *ports[2]; /* opened by the first bind on each NIC */
	uint32_t port_flags[2];	    /* set_port_flags()'s */
	/* The ring sizes the guest booted with, restored on destroy. */
	uint32_t rx_ring[2], tx_ring[2];
	bool rings_changed;
};

static const char *const nics[] = { PEER_VIRTIO_A, PEER_VIRTIO_B };

static struct virtio_peer *virtio_of(struct test_peer *peer)
{
	return (struct virtio_peer *)peer;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000,
			       .tv_nsec = ns % 1000000000 };

	nanosleep(&ts, NULL);
}

static void virtio_bind(struct test_peer *peer, enum test_port port,
			struct xskx_socket_opts *opts)
{
	struct virtio_peer *v = virtio_of(peer);
	XSKX_OPTS(xskx_port_opts, po, .xdp_mode = XSKX_XDP_NATIVE,
		  .flags = v->port_flags[port]);

	peer_kernel_xdp_obj(v->prog[port], &po);
	/* A failure leaves opts->port NULL: the socket's open reports it. */
	if (!v->ports[port])
		xskx_port_open(&v->ports[port], nics[port], &po);
	opts->port = v->ports[port];
	opts->queue_id = 0;
	/* A scenario that asks for copy mode itself (TX_QUEUE_CONSUMER) has it. */
	if (opts->copy_mode == XSKX_COPY_AUTO)
		opts->copy_mode = v->zero_copy ? XSKX_ZEROCOPY_FORCE :
						 XSKX_COPY_FORCE;
}

static int virtio_set_hw_rings(struct test_peer *peer, uint32_t *rx,
			       uint32_t *tx)
{
	uint32_t want_rx = *rx, want_tx = *tx;
	int err = 0;

	virtio_of(peer)->rings_changed = true;
	for (int p = 0; p < 2 && !err; p++) {
		*rx = want_rx;
		*tx = want_tx;
		err = peer_kernel_set_rings(nics[p], rx, tx);
	}
	return err;
}

static void virtio_set_port_flags(struct test_peer *peer, enum test_port port,
				  uint32_t flags)
{
	virtio_of(peer)->port_flags[port] = flags;
}

static int virtio_set_xdp(struct test_peer *peer, enum test_port port,
			  enum test_xdp_prog prog)
{
	virtio_of(peer)->prog[port] = prog;
	return 0;
}

static int virtio_set_mtu(struct test_peer *peer, uint32_t mtu)
{
	int err;

	/*
	 * Measured on 7.3.4: a zero-copy bind with XDP_USE_SG answers
	 * EOPNOTSUPP (virtio_net leaves xdp_zc_max_segs at 1), so a frame
	 * larger than a chunk has no zero-copy socket to go to.
	 */
	if (virtio_of(peer)->zero_copy && mtu > DEFAULT_MTU) {
		peer->unsupported_why =
			"virtio_net's zero-copy takes no multi-buffer (a bind with XDP_USE_SG and XDP_ZEROCOPY answers EOPNOTSUPP: its xdp_zc_max_segs is 1)";
		return -EOPNOTSUPP;
	}
	err = veth_link_set_mtu(PEER_VIRTIO_A, mtu);
	return err ? err : veth_link_set_mtu(PEER_VIRTIO_B, mtu);
}

static int virtio_pump(struct test_peer *peer)
{
	(void)peer;
	sched_yield();
	sleep_ns(PUMP_SLEEP_NS);
	return 1;
}

static int virtio_quiesce(struct test_peer *peer)
{
	(void)peer;
	sleep_ns(QUIESCE_SLEEP_NS);
	return 0;
}

static void virtio_destroy(struct test_peer *peer)
{
	struct virtio_peer *v = virtio_of(peer);

	for (int p = 0; p < 2; p++) {
		xskx_port_close(v->ports[p]);
		if (v->rings_changed)
			peer_kernel_set_rings(nics[p], &v->rx_ring[p],
					      &v->tx_ring[p]);
		veth_link_set_mtu(nics[p], DEFAULT_MTU);
	}
	free(v);
}

const char *peer_virtio_mode_name(bool zero_copy)
{
	return zero_copy ? "zc" : "copy";
}

struct test_peer *peer_virtio_create(bool zero_copy)
{
	struct virtio_peer *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	for (int p = 0; p < 2; p++) {
		int err = peer_kernel_get_rings(nics[p], &v->rx_ring[p],
						&v->tx_ring[p], NULL, NULL);

		if (err) {
			fprintf(stderr,
				"peer_virtio: %s: ETHTOOL_GRINGPARAM: %s\n",
				nics[p], xskx_strerror(err));
			free(v);
			return NULL;
		}
	}
	sleep_ns(SETTLE_SLEEP_NS);
	v->zero_copy = zero_copy;
	v->base = (struct test_peer){
		.name = zero_copy ? "virtio-zc" : "virtio-copy",
		.poll_timeout_ms = 50,
		.time_limit_s = 60,
		/*
		 * Measured: UNALIGNED_INV_DESC's descriptor straddling 4 KiB
		 * pages is refused in zero-copy on a UMEM of 4 KiB pages
		 * (peer.h); the guest boots with hugepages reserved.
		 */
		.unaligned_umem_flags = zero_copy ? XSKX_UMEM_HUGEPAGES : 0,
		.set_hw_rings = virtio_set_hw_rings,
		.set_mtu = virtio_set_mtu,
		.set_port_flags = virtio_set_port_flags,
		.bind = virtio_bind,
		.set_xdp = virtio_set_xdp,
		.pump = virtio_pump,
		.quiesce = virtio_quiesce,
		.destroy = virtio_destroy,
	};
	return &v->base;
}
