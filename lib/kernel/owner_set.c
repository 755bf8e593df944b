// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Entering, leaving and counting the processes that use an XDP program.
 * Every change is one map update or delete, atomic in the kernel; how
 * processes order these steps so that none detaches a program another has
 * just joined is xdp_share.c's business.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <string.h>

#include "owner.h"
#include "owner_set.h"

static const struct xskx_prog_owner program_key;

int xskx__owners_describe(int map_fd, const struct xskx_owner_entry *program)
{
	return bpf_map_update_elem(map_fd, &program_key, program, BPF_ANY) ?
		       -errno :
		       0;
}

int xskx__owners_program(int map_fd, struct xskx_owner_entry *program)
{
	return bpf_map_lookup_elem(map_fd, &program_key, program) ? -errno : 0;
}

int xskx__owners_enter(int map_fd, enum xskx_owner_role role)
{
	struct xskx_owner_entry entry = { .role = role };
	struct xskx_prog_owner self;
	int err = xskx__owner_self(&self);

	if (err)
		return err;
	if (bpf_map_update_elem(map_fd, &self, &entry, BPF_ANY))
		return errno == E2BIG ? -ENOSPC : -errno;
	return 0;
}

void xskx__owners_leave(int map_fd)
{
	struct xskx_prog_owner self;

	if (!xskx__owner_self(&self))
		bpf_map_delete_elem(map_fd, &self);
}

static void count(const struct xskx_prog_owner *key,
		  const struct xskx_owner_entry *entry,
		  struct xskx_owner_census *census)
{
	switch (xskx__owner_state(key)) {
	case XSKX_OWNER_GONE:
		census->dead++;
		return;
	case XSKX_OWNER_ALIVE:
	case XSKX_OWNER_UNKNOWN:
		break;
	}
	if (entry->role == XSKX_OWNER_CLOSING) {
		census->closing++;
	} else if (entry->role == XSKX_OWNER_SERVING) {
		if (!census->serving)
			census->user = *key;
		census->serving++;
	}
}

/* Only ever added 0 to: its atomic operation is the barrier. */
static unsigned int owners_barrier;

int xskx__owners_census(int map_fd, struct xskx_owner_census *census)
{
	static const struct xskx_prog_owner *const first = NULL;
	struct xskx_prog_owner keys[XSKX_OWNER_MAP_ENTRIES], self;
	uint32_t n = 0;
	int err = xskx__owner_self(&self);

	memset(census, 0, sizeof(*census));
	if (err)
		return err;
	/*
	 * The caller wrote its own entry in an earlier syscall: that store
	 * must be visible to others before this look reads theirs (the
	 * protocol of xdp_share.c is two processes each storing, then
	 * loading), and the CPU's memory order holds across syscalls. A
	 * sequentially consistent read-modify-write is the full barrier
	 * (thread sanitizers do not model a bare fence, and GCC refuses one
	 * under -fsanitize=thread).
	 */
	__atomic_fetch_add(&owners_barrier, 0, __ATOMIC_SEQ_CST);
	/* Keys first, then entries: removing while walking restarts a walk. */
	while (n < XSKX_OWNER_MAP_ENTRIES &&
	       !bpf_map_get_next_key(map_fd, n ? &keys[n - 1] : first,
				     &keys[n]))
		n++;
	for (uint32_t i = 0; i < n; i++) {
		struct xskx_owner_entry entry;
		uint32_t dead = census->dead;

		if (!keys[i].pid || !memcmp(&keys[i], &self, sizeof(self)) ||
		    bpf_map_lookup_elem(map_fd, &keys[i], &entry))
			continue;
		count(&keys[i], &entry, census);
		if (census->dead != dead)
			bpf_map_delete_elem(map_fd, &keys[i]);
	}
	return 0;
}

bool xskx__owners_layout_ok(uint32_t type, uint32_t key_size,
			    uint32_t value_size)
{
	return type == BPF_MAP_TYPE_HASH &&
	       key_size == sizeof(struct xskx_prog_owner) &&
	       value_size == sizeof(struct xskx_owner_entry);
}

int xskx__owners_check_layout(int map_fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(map_fd, &info, &len))
		return -errno;
	return xskx__owners_layout_ok(info.type, info.key_size,
				      info.value_size) ?
		       0 :
		       -EPROTO;
}
