// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* UMEM creation with the kernel's validation, accessors, and the census. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "api.h"
#include "backend.h"
#include "kernel_rules.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "port_internal.h"
#include "frames/frame_pool.h"
#include "frames/umem_area.h"
#include "rings/rings.h"

#define XSKX_UMEM_ALL_FLAGS                                                    \
	(XSKX_UMEM_UNALIGNED | XSKX_UMEM_HUGEPAGES | XSKX_UMEM_TX_SW_CSUM)
#include "umem_internal.h"

static uint32_t log2_u32(uint32_t n)
{
	return 31 - (uint32_t)__builtin_clz(n);
}

int xskx__check_ring_size(const char *what, const char *field, uint32_t size)
{
	if (!xskx_is_power_of_2(size))
		return xskx__fail(-EINVAL,
				  "%s: %s %u is not a power of two, and the kernel takes only powers of two from 1 up; use e.g. 2048",
				  what, field, size);
	if (size > XSKX_RING_MAX_SIZE)
		return xskx__fail(-EINVAL,
				  "%s: %s %u is more than XSKX_RING_MAX_SIZE (%u entries), the largest ring xskx makes; use at most that",
				  what, field, size, XSKX_RING_MAX_SIZE);
	return 0;
}

/*
 * The kernel's XDP_UMEM_REG rules (lib/kernel_rules.h), checked before any
 * syscall so that the message can name the field. The area, when xskx
 * maps it, is not there yet: mmap() gives one page-aligned.
 */
static int check_geometry(const struct xskx_umem_opts *o, uint64_t page)
{
	struct xskx_umem_geometry g = {
		.addr = (uint64_t)(uintptr_t)o->area,
		.len = o->size,
		.chunk_size = o->frame_size,
		.headroom = o->headroom,
		.unaligned = o->flags & XSKX_UMEM_UNALIGNED,
		.unknown_flags = o->flags & ~XSKX_UMEM_ALL_FLAGS,
		.tx_metadata_len = o->tx_metadata_len,
	};

	switch (xskx__umem_geometry_check(&g, page)) {
	case XSKX_UMEM_FAULT_NONE:
		return 0;
	case XSKX_UMEM_FAULT_CHUNK_RANGE:
		return xskx__fail(-EINVAL,
				  "umem: frame_size %u out of range [%u, %lu] (the page size)",
				  o->frame_size, XSKX_MIN_CHUNK_SIZE,
				  (unsigned long)page);
	case XSKX_UMEM_FAULT_FLAGS:
		return xskx__fail(-EINVAL,
				  "umem: unknown flags 0x%x; the flags are XSKX_UMEM_UNALIGNED, XSKX_UMEM_HUGEPAGES and XSKX_UMEM_TX_SW_CSUM",
				  g.unknown_flags);
	case XSKX_UMEM_FAULT_CHUNK_NOT_POW2:
		return xskx__fail(-EINVAL,
				  "umem: frame_size %u is not a power of two; aligned mode needs one (or set XSKX_UMEM_UNALIGNED)",
				  o->frame_size);
	case XSKX_UMEM_FAULT_ADDR_ALIGN:
		return xskx__fail(-EINVAL,
				  "umem: area %p is not aligned to the page size %lu",
				  o->area, (unsigned long)page);
	case XSKX_UMEM_FAULT_LEN_TOO_LARGE:
		return xskx__fail(-EINVAL,
				  "umem: size %llu at area %p is too large: it must end below 2^64 and span fewer than 2^32 pages",
				  (unsigned long long)o->size, o->area);
	case XSKX_UMEM_FAULT_CHUNK_COUNT:
		return xskx__fail(-EINVAL,
				  "umem: size %llu holds %llu frames of %u bytes; it must hold 1 to %u",
				  (unsigned long long)o->size,
				  (unsigned long long)(o->size / o->frame_size),
				  o->frame_size, UINT32_MAX);
	case XSKX_UMEM_FAULT_LEN_NOT_MULTIPLE:
		return xskx__fail(-EINVAL,
				  "umem: size %llu is not a multiple of frame_size %u; aligned mode needs whole frames",
				  (unsigned long long)o->size, o->frame_size);
	case XSKX_UMEM_FAULT_HEADROOM:
		return xskx__fail(-EINVAL,
				  "umem: headroom %u too large: at most frame_size %u - %u = %u (XDP_PACKET_HEADROOM, the multi-buffer tailroom and a minimum frame, which the kernel keeps free)",
				  o->headroom, o->frame_size,
				  XSKX_UMEM_HEADROOM_RESERVE,
				  o->frame_size - XSKX_UMEM_HEADROOM_RESERVE);
	case XSKX_UMEM_FAULT_TX_METADATA_LEN:
		return xskx__fail(-EINVAL,
				  "umem: tx_metadata_len %u is not a multiple of 8, as the kernel's XDP_UMEM_TX_METADATA_LEN needs",
				  o->tx_metadata_len);
	}
	return -EINVAL;
}

/*
 * The TX metadata room's range: room for the struct that xskx_tx_meta()
 * hands out, and below the kernel's limit; the kernel's multiple of 8 is a
 * geometry rule (check_geometry()).
 */
static int check_tx_metadata(const struct xskx_umem_opts *o)
{
	if (o->tx_metadata_len &&
	    (o->tx_metadata_len < XSKX_TX_METADATA_LEN_MIN ||
	     o->tx_metadata_len > XSKX_TX_METADATA_LEN_MAX))
		return xskx__fail(-EINVAL,
				  "umem: tx_metadata_len %u: it must be 0 or from XSKX_TX_METADATA_LEN_MIN = %u (struct xsk_tx_metadata) to XSKX_TX_METADATA_LEN_MAX = %u (the kernel takes less than %u), a multiple of 8",
				  o->tx_metadata_len, XSKX_TX_METADATA_LEN_MIN,
				  XSKX_TX_METADATA_LEN_MAX,
				  XSKX_TX_METADATA_LEN_LIMIT);
	if ((o->flags & XSKX_UMEM_TX_SW_CSUM) && !o->tx_metadata_len)
		return xskx__fail(-EINVAL,
				  "umem: XSKX_UMEM_TX_SW_CSUM without tx_metadata_len: checksums are asked for in TX metadata; set tx_metadata_len to at least %u",
				  XSKX_TX_METADATA_LEN_MIN);
	return 0;
}

static int apply_defaults(struct xskx_umem_opts *o)
{
	if (!o->frame_size)
		o->frame_size = XSKX_UMEM_DEFAULT_FRAME_SIZE;
	if (!o->fill_size)
		o->fill_size = XSKX_RING_DEFAULT_SIZE;
	if (!o->comp_size)
		o->comp_size = XSKX_RING_DEFAULT_SIZE;
	if (o->area) {
		if (o->flags & XSKX_UMEM_HUGEPAGES)
			return xskx__fail(-EINVAL,
					  "umem: XSKX_UMEM_HUGEPAGES with a caller's area: the flag asks the library to map the area; map yours with MAP_HUGETLB, or leave area NULL");
		if (o->frame_count)
			return xskx__fail(-EINVAL,
					  "umem: frame_count %u given with a caller's area; the area's size decides the frame count",
					  o->frame_count);
		return 0;
	}
	if (o->size)
		return xskx__fail(-EINVAL,
				  "umem: size %llu given without an area; set frame_count instead",
				  (unsigned long long)o->size);
	if (!o->frame_count)
		o->frame_count = XSKX_UMEM_DEFAULT_FRAME_COUNT;
	o->size = (uint64_t)o->frame_count * o->frame_size;
	return 0;
}

static int map_area(struct xskx_umem *umem, bool hugepages)
{
	int err = xskx__umem_area_map(umem->size, hugepages, &umem->area,
				      &umem->mapped);

	if (!err)
		umem->area_owned = true;
	return err;
}

XSKX_API int xskx_umem_create(struct xskx_umem **umemp,
			      const struct xskx_umem_opts *opts)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct xskx_umem_opts o;
	struct xskx_umem *umem;
	int err;

	if (!umemp)
		return xskx__fail(-EINVAL, "umem: umem pointer is NULL");
	err = XSKX_OPTS_COPY(&o, opts, xskx_umem_opts);
	if (err)
		return err;
	err = apply_defaults(&o);
	if (!err)
		err = check_tx_metadata(&o);
	if (!err)
		err = check_geometry(&o, page);
	if (!err)
		err = xskx__check_ring_size("umem", "fill_size", o.fill_size);
	if (!err)
		err = xskx__check_ring_size("umem", "comp_size", o.comp_size);
	if (err)
		return err;

	umem = calloc(1, sizeof(*umem));
	if (!umem)
		return xskx__fail(-ENOMEM, "umem: out of memory");
	umem->area = o.area;
	umem->size = o.size;
	umem->frame_size = o.frame_size;
	umem->frame_shift = xskx_is_power_of_2(o.frame_size) ? log2_u32(o.frame_size) : 0;
	umem->frame_count = (uint32_t)(o.size / o.frame_size);
	umem->usable_frames = umem->frame_count;
	umem->headroom = o.headroom;
	umem->tx_metadata_len = o.tx_metadata_len;
	umem->fill_size = o.fill_size;
	umem->comp_size = o.comp_size;
	umem->flags = o.flags;

	err = xskx__pool_init(umem);
	if (err)
		goto err_free_umem;
	if (!umem->area) {
		err = map_area(umem, o.flags & XSKX_UMEM_HUGEPAGES);
		if (err)
			goto err_free_pool;
	}
	umem->peer = (struct xskx_peer_umem){
		.area = umem->area,
		.size = umem->size,
		.frame_size = umem->frame_size,
		.headroom = umem->headroom,
		.fill_size = umem->fill_size,
		.comp_size = umem->comp_size,
		.unaligned = umem->flags & XSKX_UMEM_UNALIGNED,
		.tx_metadata_len = umem->tx_metadata_len,
		.tx_sw_csum = umem->flags & XSKX_UMEM_TX_SW_CSUM,
	};
	*umemp = umem;
	return 0;

err_free_pool:
	xskx__pool_fini(umem);
err_free_umem:
	free(umem);
	return err;
}

/* -EBUSY naming the sockets that still use the UMEM (the newest first). */
static int busy_with_sockets(const struct xskx_umem *umem)
{
	const struct xskx_socket *s = umem->sockets;
	uint32_t n = 0;

	for (const struct xskx_socket *o = s; o; o = o->next)
		n++;
	return xskx__fail(-EBUSY,
			  "xskx_umem_destroy: %u socket%s still use%s the UMEM, the one on queue %u of port '%s' among them; xskx_socket_close() %s first",
			  n, n == 1 ? "" : "s", n == 1 ? "s" : "",
			  s->queue_id, s->port->name, n == 1 ? "it" : "them");
}

XSKX_API int xskx_umem_destroy(struct xskx_umem *umem)
{
	uint32_t missing;

	if (!umem)
		return 0;
	if (umem->sockets)
		return busy_with_sockets(umem);
	if (umem->backend && umem->backend->umem_release)
		umem->backend->umem_release(&umem->peer);
	/* With no socket left, every frame is in the pool or the application's. */
	missing = umem->frame_count - umem->pool.count - umem->frames_in_app;
	if (umem->area_owned)
		xskx__umem_area_unmap(umem->area, umem->mapped);
	xskx__pool_fini(umem);
	free(umem);
	if (missing)
		return xskx__fail(-EIO,
				  "umem: destroyed with %u of its frames unaccounted for (neither in the pool nor held by the application): a frame was lost; the UMEM is freed all the same",
				  missing);
	return 0;
}

XSKX_API void *xskx_umem_area(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_area: umem is NULL");
		return NULL;
	}
	return umem->area;
}

XSKX_API uint64_t xskx_umem_size(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_size: umem is NULL");
		return 0;
	}
	return umem->size;
}

XSKX_API uint32_t xskx_umem_frame_size(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_frame_size: umem is NULL");
		return 0;
	}
	return umem->frame_size;
}

XSKX_API uint32_t xskx_umem_frame_count(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_frame_count: umem is NULL");
		return 0;
	}
	return umem->frame_count;
}

XSKX_API uint32_t xskx_umem_headroom(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_headroom: umem is NULL");
		return 0;
	}
	return umem->headroom;
}

XSKX_API uint32_t xskx_umem_tx_metadata_len(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_tx_metadata_len: umem is NULL");
		return 0;
	}
	return umem->tx_metadata_len;
}

XSKX_API uint32_t xskx_frame_size_for_mtu(uint32_t mtu, uint32_t headroom)
{
	uint64_t need = (uint64_t)XSKX_XDP_PACKET_HEADROOM + headroom +
			XSKX_L2_OVERHEAD + mtu;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t size = XSKX_MIN_CHUNK_SIZE;

	while (size < need)
		size <<= 1;
	return size <= page ? (uint32_t)size : 0;
}

XSKX_API uint32_t xskx_umem_max_mtu(const struct xskx_umem *umem)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_max_mtu: umem is NULL");
		return 0;
	}
	return xskx_frame_max_mtu(umem->frame_size, umem->headroom);
}

XSKX_API uint64_t xskx_umem_tx_addr(const struct xskx_umem *umem, uint64_t frame)
{
	if (!umem) {
		xskx__fail(-EINVAL, "xskx_umem_tx_addr: umem is NULL");
		return 0;
	}
	return xskx_umem_frame_base(umem, frame) + umem->headroom +
	       umem->tx_metadata_len;
}

static int umem_census_full(struct xskx_umem *umem, struct xskx_frame_census *c)
{
	bool counted = true;
	uint64_t nic = 0, found;

	if (!umem || !c)
		return xskx__fail(-EINVAL, "xskx_umem_census: umem and census must not be NULL");
	*c = (struct xskx_frame_census){
		.pool = umem->pool.count,
		.app = umem->frames_in_app,
		.double_frees = umem->double_frees,
		.foreign_frees = umem->foreign_frees,
	};
	for (struct xskx_fq_cq *fq = umem->pairs; fq; fq = fq->next) {
		int64_t held = umem->backend->frames_in_peer(fq);

		c->fill += xskx_ring_prod_queued(&fq->fill);
		c->comp += xskx_ring_cons_queued(&fq->comp);
		if (held < 0)
			counted = false;
		else
			nic += (uint64_t)held;
	}
	for (struct xskx_socket *s = umem->sockets; s; s = s->next) {
		if (s->rx.ring)
			c->rx += xskx_ring_cons_queued(&s->rx);
		if (s->tx.ring)
			c->tx += xskx_ring_prod_queued(&s->tx);
	}
	found = (uint64_t)c->pool + c->fill + c->rx + c->app + c->tx + c->comp;
	if (counted)
		found += nic;
	else
		nic = umem->frame_count > found ? umem->frame_count - found : 0;
	/*
	 * Counts come from ring indices and library counters: a bug could make
	 * them add up to more than the UMEM holds. Saturate rather than wrap,
	 * and say by how much the sum is off either way.
	 */
	c->nic = nic > UINT32_MAX ? UINT32_MAX : (uint32_t)nic;
	if (!counted)
		found += nic;
	c->total = found > UINT32_MAX ? UINT32_MAX : (uint32_t)found;
	c->unaccounted = (int64_t)umem->frame_count - (int64_t)found;
	c->nic_counted = counted;
	return 0;
}

XSKX_API int xskx_umem_census_sized(struct xskx_umem *umem,
				    struct xskx_frame_census *census,
				    size_t census_size)
{
	struct xskx_frame_census full;
	int err;

	if (!census || !census_size)
		return xskx__fail(
			-EINVAL,
			"xskx_umem_census: census must not be NULL, census_size not 0");
	err = umem_census_full(umem, &full);
	if (!err)
		xskx__out_copy(census, census_size, &full, sizeof(full));
	return err;
}
