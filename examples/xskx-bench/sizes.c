// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench: the sizes that make packets vanish without an error. An
 * interface's MTU counts the IP packet, so a frame carries MTU bytes plus
 * its Ethernet header and VLAN tag; what txonly sends beyond that, the
 * receiving side drops (a veth peer, a switch). A frame smaller than an
 * MTU-sized packet needs (xskx_umem_max_mtu() counts the library's L2
 * allowance of two VLAN tags) is dropped by the kernel on receive unless
 * the socket takes fragments (-F). The simulated port is created with an
 * MTU that fits the packets, so only the kernel backend is checked.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"

static int interface_mtu(const char *ifname, uint32_t *mtu)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFMTU, &ifr))
		err = -errno;
	else
		*mtu = (uint32_t)ifr.ifr_mtu;
	close(fd);
	return err;
}

void bench_check_sizes(struct bench *b)
{
	const struct bench_opts *o = b->opts;
	uint32_t mtu = 0, carried, frame_mtu;
	int err;

	if (o->sim)
		return;
	err = interface_mtu(o->ifname, &mtu);
	if (err) {
		fprintf(stderr,
			"xskx-bench: warning: cannot read the MTU of %s (%s): packet sizes unchecked\n",
			o->ifname, strerror(-err));
		return;
	}
	carried = mtu + bench_packet_l2_overhead(&o->packet);
	if (o->mode == BENCH_TXONLY && o->pkt_size > carried) {
		b->tx_over_mtu = true;
		fprintf(stderr,
			"xskx-bench: warning: %u-byte packets exceed what MTU %u of %s carries (%u bytes with the Ethernet header%s): the receiving side drops them; every one sent is counted in tx_over_mtu. Lower -s or raise the MTU (ip link set %s mtu N)\n",
			o->pkt_size, mtu, o->ifname, carried,
			o->packet.vlan ? " and VLAN tag" : "", o->ifname);
	}
	frame_mtu = xskx_umem_max_mtu(b->umem);
	if (o->mode != BENCH_TXONLY && !o->multi_buffer && mtu > frame_mtu)
		fprintf(stderr,
			"xskx-bench: warning: MTU %u of %s is larger than a %u-byte frame receives (MTU %u): the kernel drops larger packets (rx_dropped). Use -F (multi-buffer) or a larger -f\n",
			mtu, o->ifname, xskx_umem_frame_size(b->umem),
			frame_mtu);
}
