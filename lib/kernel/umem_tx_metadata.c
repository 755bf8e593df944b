// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A UMEM registration with TX metadata room (umem_tx_metadata.h). */
#define _GNU_SOURCE /* dup3 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xskx/if_xdp_compat.h>

#include "backend.h"
#include "log_internal.h"
#include "umem_tx_metadata.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif

/*
 * struct xdp_umem_reg as Linux 6.8 grew it; older UAPI headers stop at
 * flags, and the kernel takes the longer form by its size.
 */
struct umem_reg_tx_metadata {
	uint64_t addr;
	uint64_t len;
	uint32_t chunk_size;
	uint32_t headroom;
	uint32_t flags;
	uint32_t tx_metadata_len;
};

static int register_on(int fd, const struct xskx_peer_umem *umem,
		       uint32_t flags)
{
	struct umem_reg_tx_metadata reg = {
		.addr = (uint64_t)(uintptr_t)umem->area,
		.len = umem->size,
		.chunk_size = umem->frame_size,
		.headroom = umem->headroom,
		.flags = flags | XDP_UMEM_TX_METADATA_LEN |
			 (umem->unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0),
		.tx_metadata_len = umem->tx_metadata_len,
	};

	return setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) ? -errno
									: 0;
}

/*
 * The kernel took this very registration without the TX metadata flags a
 * moment ago, so its EINVAL is about them: which one it does not know.
 */
static int refused(const struct xskx_peer_umem *umem)
{
	int probe = -1;

	if (umem->tx_sw_csum) {
		probe = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
		if (probe >= 0 && !register_on(probe, umem, 0)) {
			close(probe);
			return xskx__fail(
				-EOPNOTSUPP,
				"umem: this kernel refuses XDP_UMEM_TX_SW_CSUM (XSKX_UMEM_TX_SW_CSUM needs Linux 6.11 or later); leave the flag out and let the device compute checksums");
		}
		if (probe >= 0)
			close(probe);
	}
	return xskx__fail(
		-EOPNOTSUPP,
		"umem: this kernel refuses XDP_UMEM_TX_METADATA_LEN (tx_metadata_len %u needs Linux 6.8 or later); create the UMEM with tx_metadata_len 0",
		umem->tx_metadata_len);
}

static int map_ring(int fd, uint64_t desc, uint32_t entries, off_t pgoff,
		    void **map)
{
	*map = mmap(NULL, desc + entries * sizeof(uint64_t),
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, pgoff);
	return *map == MAP_FAILED ? -errno : 0;
}

/* FILL and COMPLETION on fd, mapped; the old ones unmapped only on success. */
static int move_rings(int fd, int old_fd, const struct xskx_peer_umem *umem,
		      struct xsk_ring_prod *fill, struct xsk_ring_cons *comp)
{
	struct xdp_mmap_offsets off, old;
	socklen_t len = sizeof(off);
	void *fmap, *cmap;
	int err;

	if (setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &umem->fill_size,
		       sizeof(umem->fill_size)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &umem->comp_size,
		       sizeof(umem->comp_size)) ||
	    getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &len))
		return -errno;
	len = sizeof(old);
	if (getsockopt(old_fd, SOL_XDP, XDP_MMAP_OFFSETS, &old, &len))
		return -errno;
	err = map_ring(fd, off.fr.desc, umem->fill_size,
		       XDP_UMEM_PGOFF_FILL_RING, &fmap);
	if (err)
		return err;
	err = map_ring(fd, off.cr.desc, umem->comp_size,
		       XDP_UMEM_PGOFF_COMPLETION_RING, &cmap);
	if (err) {
		munmap(fmap, off.fr.desc + umem->fill_size * sizeof(uint64_t));
		return err;
	}
	munmap((char *)fill->ring - old.fr.desc,
	       old.fr.desc + umem->fill_size * sizeof(uint64_t));
	munmap((char *)comp->ring - old.cr.desc,
	       old.cr.desc + umem->comp_size * sizeof(uint64_t));
	fill->producer = (void *)((char *)fmap + off.fr.producer);
	fill->consumer = (void *)((char *)fmap + off.fr.consumer);
	fill->flags = (void *)((char *)fmap + off.fr.flags);
	fill->ring = (char *)fmap + off.fr.desc;
	comp->producer = (void *)((char *)cmap + off.cr.producer);
	comp->consumer = (void *)((char *)cmap + off.cr.consumer);
	comp->flags = (void *)((char *)cmap + off.cr.flags);
	comp->ring = (char *)cmap + off.cr.desc;
	return 0;
}

int xskx__umem_register_tx_metadata(struct xsk_umem *xumem,
				    const struct xskx_peer_umem *umem,
				    struct xsk_ring_prod *fill,
				    struct xsk_ring_cons *comp)
{
	int old_fd = xsk_umem__fd(xumem);
	int fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	int err;

	if (fd < 0)
		return xskx__fail(-errno, "umem: socket(AF_XDP): %s",
				  xskx_strerror(errno));
	err = register_on(fd, umem,
			  umem->tx_sw_csum ? XDP_UMEM_TX_SW_CSUM : 0);
	if (err == -EINVAL)
		err = refused(umem);
	else if (err)
		err = xskx__fail(err,
				 "umem: registering with tx_metadata_len %u (XDP_UMEM_REG): %s",
				 umem->tx_metadata_len, xskx_strerror(-err));
	if (!err) {
		err = move_rings(fd, old_fd, umem, fill, comp);
		if (err)
			xskx__fail(err, "umem: FILL/COMPLETION rings for the TX metadata registration: %s",
				   xskx_strerror(-err));
	}
	if (!err && dup3(fd, old_fd, O_CLOEXEC) < 0)
		err = xskx__fail(-errno, "umem: dup3: %s", xskx_strerror(errno));
	close(fd);
	return err;
}
