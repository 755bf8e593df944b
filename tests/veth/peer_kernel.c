// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "peer_kernel.h"
#include "xskx_test_adjust_tail_grow_mb_bpf.h"
#include "xskx_test_adjust_tail_shrink_mb_bpf.h"
#include "xskx_test_drop_half_bpf.h"
#include "xskx_test_meta_count_bpf.h"
#include "xskx_test_meta_count_mb_bpf.h"
#include "xskx_test_tail_grow_bpf.h"
#include "xskx_test_tail_shrink_bpf.h"

void peer_kernel_xdp_obj(enum test_xdp_prog prog, struct xskx_port_opts *po)
{
	switch (prog) {
	case TEST_XDP_REDIRECT:
		break;
	case TEST_XDP_DROP_HALF:
		po->xdp_obj = xskx_test_drop_half_bpf_elf;
		po->xdp_obj_size = xskx_test_drop_half_bpf_elf_size;
		break;
	case TEST_XDP_TAIL_SHRINK:
		po->xdp_obj = xskx_test_tail_shrink_bpf_elf;
		po->xdp_obj_size = xskx_test_tail_shrink_bpf_elf_size;
		break;
	case TEST_XDP_TAIL_GROW:
		po->xdp_obj = xskx_test_tail_grow_bpf_elf;
		po->xdp_obj_size = xskx_test_tail_grow_bpf_elf_size;
		break;
	case TEST_XDP_ADJUST_TAIL_SHRINK_MB:
		po->xdp_obj = xskx_test_adjust_tail_shrink_mb_bpf_elf;
		po->xdp_obj_size = xskx_test_adjust_tail_shrink_mb_bpf_elf_size;
		break;
	case TEST_XDP_ADJUST_TAIL_GROW_MB:
		po->xdp_obj = xskx_test_adjust_tail_grow_mb_bpf_elf;
		po->xdp_obj_size = xskx_test_adjust_tail_grow_mb_bpf_elf_size;
		break;
	case TEST_XDP_META_COUNT:
		po->xdp_obj = xskx_test_meta_count_bpf_elf;
		po->xdp_obj_size = xskx_test_meta_count_bpf_elf_size;
		break;
	case TEST_XDP_META_COUNT_MB:
		po->xdp_obj = xskx_test_meta_count_mb_bpf_elf;
		po->xdp_obj_size = xskx_test_meta_count_mb_bpf_elf_size;
		break;
	}
}

/* One SIOCETHTOOL ring request (ETHTOOL_GRINGPARAM or _SRINGPARAM). */
static int ring_ioctl(const char *ifname, struct ethtool_ringparam *ring)
{
	struct ifreq ifr = { .ifr_data = (char *)ring };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		err = -errno;
	close(fd);
	return err;
}

int peer_kernel_get_rings(const char *ifname, uint32_t *rx, uint32_t *tx,
			  uint32_t *max_rx, uint32_t *max_tx)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };
	int err = ring_ioctl(ifname, &ring);

	if (err)
		return err;
	*rx = ring.rx_pending;
	*tx = ring.tx_pending;
	if (max_rx)
		*max_rx = ring.rx_max_pending;
	if (max_tx)
		*max_tx = ring.tx_max_pending;
	return 0;
}

int peer_kernel_set_rings(const char *ifname, uint32_t *rx, uint32_t *tx)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };
	int err = ring_ioctl(ifname, &ring);

	if (err)
		return err;
	ring.cmd = ETHTOOL_SRINGPARAM;
	ring.rx_pending = *rx ? *rx : ring.rx_max_pending;
	ring.tx_pending = *tx ? *tx : ring.tx_max_pending;
	err = ring_ioctl(ifname, &ring);
	if (err)
		return err;
	*rx = ring.rx_pending;
	*tx = ring.tx_pending;
	return 0;
}
