// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The deny list on the kernel backend: the BPF maps of the interface's XDP
 * program (bpf/xskx_shared.h), which are the list itself: nothing is kept in
 * this process, every process sharing the program shares the list, and the
 * list dies with the program when the last socket on the interface closes.
 *
 * Replacing the list: clear what an earlier replacement may have left under
 * the inactive generation, write the new list there, flip the generation,
 * and once no XDP program can still be running with the old generation
 * (membarrier(MEMBARRIER_CMD_GLOBAL) waits for an RCU grace period, and XDP
 * programs run inside RCU read-side sections), delete the old entries. On a
 * kernel that refuses that wait (nohz_full) the old entries stay until the
 * next replacement clears them.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filter_internal.h"
#include "filter_kernel.h"
#include "log_internal.h"
#include "xdp_device.h"
#include "xdp_prog.h"
#include "xskx_shared.h"

_Static_assert(XSKX_DENY_RULES == XSKX_FILTER_MAX_RULES,
	       "bpf/xskx_shared.h and xskx/filter.h disagree on the rules");
_Static_assert(XSKX_DENY_FIELD_ENTRIES == XSKX_FILTER_MAX_ENTRIES,
	       "bpf/xskx_shared.h and xskx/filter.h disagree on the entries");
_Static_assert(XSKX_DENY_SRC == XSKX_FILTER_SRC &&
		       XSKX_DENY_DST == XSKX_FILTER_DST,
	       "bpf/xskx_shared.h and xskx/filter.h disagree on the fields");

enum deny_map {
	DENY4,
	DENY6,
	DENY_GEN,
	DENY_STATS,
	DENY_MAPS
};

static const char *const map_names[DENY_MAPS] = {
	[DENY4] = XSKX_DENY4_MAP_NAME,
	[DENY6] = XSKX_DENY6_MAP_NAME,
	[DENY_GEN] = XSKX_DENY_GEN_MAP_NAME,
	[DENY_STATS] = XSKX_DENY_STATS_MAP_NAME,
};

struct kernel_filter {
	int fd[DENY_MAPS];
	char ifname[IF_NAMESIZE];
};

/* Either key, as the maps hold them. */
union deny_key {
	struct xskx_deny_key4 v4;
	struct xskx_deny_key6 v6;
};

static struct kernel_filter *kf_of(struct xskx_filter_dev *dev)
{
	return dev->impl;
}

static int bpf_failed(struct kernel_filter *kf, const char *what, int err)
{
	return xskx__fail(
		err, "filter: %s in the XDP program's maps on '%s': %s%s", what,
		kf->ifname, xskx_strerror(-err),
		err == -EPERM ? " (needs CAP_BPF or CAP_SYS_ADMIN)" : "");
}

static int read_gen(struct kernel_filter *kf, uint8_t *gen)
{
	__u32 key = 0, value;

	if (bpf_map_lookup_elem(kf->fd[DENY_GEN], &key, &value))
		return bpf_failed(kf, "reading the generation", -errno);
	*gen = value & 1;
	return 0;
}

/*
 * Make gen the generation in force, flagged XSKX_DENY_GEN_LISTED when its
 * list has entries (the program skips the list without the flag).
 */
static int write_gen(struct kernel_filter *kf, uint8_t gen, bool listed,
		     const char *what)
{
	__u32 key = 0, value = gen | (listed ? XSKX_DENY_GEN_LISTED : 0);

	if (bpf_map_update_elem(kf->fd[DENY_GEN], &key, &value, BPF_ANY))
		return bpf_failed(kf, what, -errno);
	return 0;
}

static enum deny_map map_of(uint8_t family)
{
	return family == AF_INET ? DENY4 : DENY6;
}

static void key_of(const struct xskx_filter_entry *e, uint8_t gen,
		   union deny_key *key)
{
	memset(key, 0, sizeof(*key));
	if (e->prefix.family == AF_INET) {
		key->v4.prefixlen = XSKX_DENY_KEY_BITS + e->prefix.len;
		key->v4.gen = gen;
		key->v4.field = (uint8_t)e->field;
		memcpy(key->v4.addr, e->prefix.addr, sizeof(key->v4.addr));
	} else {
		key->v6.prefixlen = XSKX_DENY_KEY_BITS + e->prefix.len;
		key->v6.gen = gen;
		key->v6.field = (uint8_t)e->field;
		memcpy(key->v6.addr, e->prefix.addr, sizeof(key->v6.addr));
	}
}

/* Each v4 key's and v6 key's generation byte sits right after prefixlen. */
static uint8_t gen_of(const union deny_key *key)
{
	return key->v4.gen;
}

static void entry_of(enum deny_map map, const union deny_key *key,
		     uint32_t rule_id, struct xskx_filter_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->rule_id = rule_id;
	if (map == DENY4) {
		e->field = (enum xskx_filter_field)key->v4.field;
		e->prefix.family = AF_INET;
		e->prefix.len =
			(uint8_t)(key->v4.prefixlen - XSKX_DENY_KEY_BITS);
		memcpy(e->prefix.addr, key->v4.addr, sizeof(key->v4.addr));
	} else {
		e->field = (enum xskx_filter_field)key->v6.field;
		e->prefix.family = AF_INET6;
		e->prefix.len =
			(uint8_t)(key->v6.prefixlen - XSKX_DENY_KEY_BITS);
		memcpy(e->prefix.addr, key->v6.addr, sizeof(key->v6.addr));
	}
}

/*
 * The keys of one generation in map, into *keys (to free). The map is read
 * whole before anything is deleted: deleting while walking would lose the
 * walk's place.
 */
static int keys_of_gen(struct kernel_filter *kf, enum deny_map map, uint8_t gen,
		       union deny_key **keys, uint32_t *n)
{
	union deny_key key, next, *found;
	void *prev = NULL;
	uint32_t count = 0;
	int err = 0;

	found = calloc(XSKX_DENY_MAP_ENTRIES, sizeof(*found));
	if (!found)
		return xskx__fail(-ENOMEM, "filter: out of memory");
	memset(&next, 0, sizeof(next));
	while (count < XSKX_DENY_MAP_ENTRIES) {
		if (bpf_map_get_next_key(kf->fd[map], prev, &next)) {
			if (errno != ENOENT)
				err = bpf_failed(kf, "listing the entries",
						 -errno);
			break;
		}
		if (gen_of(&next) == gen)
			found[count++] = next;
		key = next;
		prev = &key;
	}
	if (err) {
		free(found);
		return err;
	}
	*keys = found;
	*n = count;
	return 0;
}

static int clear_gen(struct kernel_filter *kf, uint8_t gen)
{
	for (enum deny_map map = DENY4; map <= DENY6; map++) {
		union deny_key *keys;
		uint32_t n;
		int err = keys_of_gen(kf, map, gen, &keys, &n);

		if (err)
			return err;
		for (uint32_t i = 0; i < n && !err; i++)
			if (bpf_map_delete_elem(kf->fd[map], &keys[i]) &&
			    errno != ENOENT)
				err = bpf_failed(kf, "deleting an entry",
						 -errno);
		free(keys);
		if (err)
			return err;
	}
	return 0;
}

static int write_entry(struct kernel_filter *kf,
		       const struct xskx_filter_entry *e, uint8_t gen)
{
	union deny_key key;
	__u32 rule = e->rule_id;

	key_of(e, gen, &key);
	if (bpf_map_update_elem(kf->fd[map_of(e->prefix.family)], &key, &rule,
				BPF_ANY))
		return bpf_failed(kf, "writing an entry", -errno);
	return 0;
}

/* No XDP program that read the old generation is still running. */
static bool wait_for_readers(void)
{
	return !syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
}

static int kernel_filter_set(struct xskx_filter_dev *dev,
			     const struct xskx_filter_entry *entries,
			     uint32_t n)
{
	struct kernel_filter *kf = kf_of(dev);
	uint8_t gen = 0;
	int err;

	err = read_gen(kf, &gen);
	if (!err)
		err = clear_gen(kf, !gen);
	for (uint32_t i = 0; i < n && !err; i++)
		err = write_entry(kf, &entries[i], !gen);
	if (!err)
		err = write_gen(kf, !gen, n > 0, "switching to the new list");
	if (err) {
		/* The old list is still the one in force. */
		clear_gen(kf, !gen);
		return err;
	}
	if (!wait_for_readers()) {
		xskx_debug(
			"filter: cannot wait for XDP programs to finish (%s): the old list on '%s' is cleared by the next replacement",
			xskx_strerror(errno), kf->ifname);
		return 0;
	}
	return clear_gen(kf, gen);
}

static int kernel_filter_add(struct xskx_filter_dev *dev,
			     const struct xskx_filter_entry *entry)
{
	struct kernel_filter *kf = kf_of(dev);
	uint8_t gen = 0;
	int err = read_gen(kf, &gen);

	/* Flagged first: a packet may look for the entry before it is there. */
	if (!err)
		err = write_gen(kf, gen, true, "flagging the list as listed");
	return err ? err : write_entry(kf, entry, gen);
}

/* Whether generation gen has any entry in either family's map. */
static int gen_listed(struct kernel_filter *kf, uint8_t gen, bool *listed)
{
	*listed = false;
	for (enum deny_map map = DENY4; map <= DENY6 && !*listed; map++) {
		union deny_key *keys;
		uint32_t n;
		int err = keys_of_gen(kf, map, gen, &keys, &n);

		if (err)
			return err;
		free(keys);
		*listed = n > 0;
	}
	return 0;
}

static int kernel_filter_del(struct xskx_filter_dev *dev,
			     const struct xskx_filter_entry *entry)
{
	struct kernel_filter *kf = kf_of(dev);
	union deny_key key;
	uint8_t gen = 0;
	bool listed;
	int err = read_gen(kf, &gen);

	if (err)
		return err;
	key_of(entry, gen, &key);
	if (bpf_map_delete_elem(kf->fd[map_of(entry->prefix.family)], &key))
		return bpf_failed(kf, "deleting an entry", -errno);
	/* The last entry gone: packets skip the list again. */
	err = gen_listed(kf, gen, &listed);
	if (!err && !listed)
		err = write_gen(kf, gen, false, "flagging the list as empty");
	return err;
}

static int kernel_filter_list(struct xskx_filter_dev *dev,
			      struct xskx_filter_entry **entries, uint32_t *n)
{
	struct kernel_filter *kf = kf_of(dev);
	struct xskx_filter_entry *list;
	uint32_t count = 0;
	uint8_t gen = 0;
	int err = read_gen(kf, &gen);

	if (err)
		return err;
	list = calloc(2 * XSKX_DENY_MAP_ENTRIES, sizeof(*list));
	if (!list)
		return xskx__fail(-ENOMEM, "filter: out of memory");
	for (enum deny_map map = DENY4; map <= DENY6; map++) {
		union deny_key *keys;
		uint32_t nkeys;

		err = keys_of_gen(kf, map, gen, &keys, &nkeys);
		if (err)
			break;
		for (uint32_t i = 0; i < nkeys; i++) {
			__u32 rule;

			/* Deleted since the walk: no longer in the list. */
			if (bpf_map_lookup_elem(kf->fd[map], &keys[i], &rule))
				continue;
			entry_of(map, &keys[i], rule, &list[count++]);
		}
		free(keys);
	}
	if (err) {
		free(list);
		return err;
	}
	*entries = list;
	*n = count;
	return 0;
}

static int kernel_filter_rule_stats(struct xskx_filter_dev *dev,
				    uint32_t rule_id,
				    struct xskx_filter_counters *counters)
{
	struct kernel_filter *kf = kf_of(dev);
	int cpus = libbpf_num_possible_cpus();
	struct xskx_deny_counter *percpu;
	__u32 key = rule_id;

	if (cpus <= 0)
		return xskx__fail(cpus ? cpus : -EIO,
				  "filter: cannot count the possible CPUs");
	percpu = calloc((size_t)cpus, sizeof(*percpu));
	if (!percpu)
		return xskx__fail(-ENOMEM, "filter: out of memory");
	if (bpf_map_lookup_elem(kf->fd[DENY_STATS], &key, percpu)) {
		int err = bpf_failed(kf, "reading the rule's counters", -errno);

		free(percpu);
		return err;
	}
	memset(counters, 0, sizeof(*counters));
	for (int cpu = 0; cpu < cpus; cpu++) {
		counters->packets += percpu[cpu].packets;
		counters->bytes += percpu[cpu].bytes;
	}
	free(percpu);
	return 0;
}

static void close_maps(struct kernel_filter *kf)
{
	for (int i = 0; i < DENY_MAPS; i++)
		if (kf->fd[i] >= 0)
			close(kf->fd[i]);
}

static void kernel_filter_end(struct xskx_filter_dev *dev)
{
	close_maps(kf_of(dev));
	free(kf_of(dev));
}

static const struct xskx_filter_dev_ops kernel_filter_ops = {
	.set = kernel_filter_set,
	.add = kernel_filter_add,
	.del = kernel_filter_del,
	.list = kernel_filter_list,
	.rule_stats = kernel_filter_rule_stats,
	.end = kernel_filter_end,
};

int xskx__filter_kernel_begin(const struct xskx_xdp_attachment *att,
			      const char *ifname, struct xskx_filter_dev *dev)
{
	struct kernel_filter *kf;
	int prog_fd, err;

	if (!att)
		return xskx__fail(
			-ENOENT,
			"filter: port '%s' has no XDP program yet: it is attached when the port's first socket with an RX ring opens; open one first",
			ifname);
	kf = calloc(1, sizeof(*kf));
	if (!kf)
		return xskx__fail(-ENOMEM, "filter: out of memory");
	memcpy(kf->ifname, ifname, sizeof(kf->ifname));
	for (int i = 0; i < DENY_MAPS; i++)
		kf->fd[i] = -1;
	prog_fd = xskx__xdp_prog_fd(att);
	/* The program's own maps: those it never looks at do not count. */
	for (int i = 0; i < DENY_MAPS; i++) {
		kf->fd[i] = xskx__prog_map_fd(prog_fd, map_names[i]);
		if (kf->fd[i] >= 0)
			continue;
		err = kf->fd[i];
		close_maps(kf);
		free(kf);
		if (err == -ENOENT)
			return xskx__fail(
				-ENOENT,
				"filter: the XDP program on '%s' has no deny list (it does not use the map '%s'): build the port's xdp_obj on bpf/xskx_maps.bpf.h and call xskx_filter_denied()",
				ifname, map_names[i]);
		return xskx__fail(
			err,
			"filter: finding the maps of the XDP program on '%s': %s",
			ifname, xskx_strerror(-err));
	}
	dev->ops = &kernel_filter_ops;
	dev->impl = kf;
	return 0;
}
