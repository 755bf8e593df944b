// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reading what is attached to a device, and the public verdict counters,
 * which are read from the device rather than from this process so that any
 * process can ask how xskx's program is doing.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xskx/kernel.h>

#include "api.h"
#include "libxdp_log.h"
#include "log_internal.h"
#include "opts_internal.h"
#include "xdp_device.h"
#include "xskx_shared.h"

/* More maps than any program here uses; others are simply not looked at. */
#define PROG_MAX_MAPS 16

int xskx__xdp_each_prog(int ifindex,
		        int (*fn)(const struct xskx_xdp_found *found, void *ctx),
		        void *ctx)
{
	struct xskx_xdp_found found = { 0 };
	struct xdp_program *prog = NULL;
	int ret = 0;
	long err;

	found.mp = xdp_multiprog__get_from_ifindex(ifindex);
	err = libxdp_get_error(found.mp);
	if (err == -ENOENT || (!err && !found.mp))
		return 0;
	if (err)
		return (int)err;
	found.mode = xdp_multiprog__attach_mode(found.mp);
	found.in_dispatcher = !xdp_multiprog__is_legacy(found.mp);
	if (!found.in_dispatcher) {
		found.prog = xdp_multiprog__main_prog(found.mp);
		if (found.prog)
			ret = fn(&found, ctx);
	} else {
		while (!ret &&
		       (prog = xdp_multiprog__next_prog(prog, found.mp))) {
			found.prog = prog;
			ret = fn(&found, ctx);
		}
	}
	xdp_multiprog__close(found.mp);
	return ret;
}

int xskx__prog_map_fd(int prog_fd, const char *name)
{
	__u32 ids[PROG_MAX_MAPS] = { 0 };
	struct bpf_prog_info info = {
		.nr_map_ids = PROG_MAX_MAPS,
		.map_ids = (__u64)(uintptr_t)ids,
	};
	__u32 len = sizeof(info);
	__u32 i, n;

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	n = info.nr_map_ids < PROG_MAX_MAPS ? info.nr_map_ids : PROG_MAX_MAPS;
	for (i = 0; i < n; i++) {
		struct bpf_map_info map = { 0 };
		__u32 map_len = sizeof(map);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &map, &map_len) &&
		    !strcmp(map.name, name))
			return fd;
		close(fd);
	}
	return -ENOENT;
}

struct verdict_sum {
	struct xskx_xdp_verdicts *verdicts;
	uint64_t *percpu;
	int cpus;
	int programs;
	int err;
};

static uint64_t sum_key(int map_fd, __u32 key, struct verdict_sum *sum)
{
	uint64_t total = 0;

	if (bpf_map_lookup_elem(map_fd, &key, sum->percpu)) {
		sum->err = -errno;
		return 0;
	}
	for (int cpu = 0; cpu < sum->cpus; cpu++)
		total += sum->percpu[cpu];
	return total;
}

/* Add the counters of the program behind prog_fd, when it has xskx's map. */
static void add_prog_verdicts(int prog_fd, struct verdict_sum *sum)
{
	struct xskx_xdp_verdicts *v = sum->verdicts;
	int fd = xskx__prog_map_fd(prog_fd, XSKX_VERDICT_MAP_NAME);

	if (fd < 0)
		return;
	v->redirected += sum_key(fd, XSKX_VERDICT_REDIRECTED, sum);
	v->passed += sum_key(fd, XSKX_VERDICT_PASSED, sum);
	v->dropped += sum_key(fd, XSKX_VERDICT_DROPPED, sum);
	v->redirect_failed += sum_key(fd, XSKX_VERDICT_REDIRECT_FAILED, sum);
	close(fd);
	sum->programs++;
}

static int add_verdicts(const struct xskx_xdp_found *found, void *ctx)
{
	add_prog_verdicts(xdp_program__fd(found->prog), ctx);
	return 0;
}

int xskx__xdp_direct_ids(int ifindex, uint32_t ids[XSKX_XDP_DIRECT_IDS])
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err = bpf_xdp_query(ifindex, 0, &q);

	if (err)
		return err;
	ids[XSKX_XDP_DIRECT_NATIVE] = q.drv_prog_id;
	ids[XSKX_XDP_DIRECT_GENERIC] = q.skb_prog_id;
	return 0;
}

/*
 * The programs attached directly to the device (generic and native), read
 * with libbpf alone (see xskx__xdp_direct_ids()): the tools read these
 * counters every second. Returns how many were seen.
 */
static int add_direct_verdicts(int ifindex, struct verdict_sum *sum)
{
	uint32_t ids[XSKX_XDP_DIRECT_IDS];
	int seen = 0;

	if (xskx__xdp_direct_ids(ifindex, ids))
		return 0;
	for (int i = 0; i < XSKX_XDP_DIRECT_IDS; i++) {
		int fd = ids[i] ? bpf_prog_get_fd_by_id(ids[i]) : -1;
		int before = sum->programs;

		if (fd < 0)
			continue;
		add_prog_verdicts(fd, sum);
		close(fd);
		seen += sum->programs != before;
	}
	return seen;
}

static int xdp_prog_stats_full(const char *ifname,
			       struct xskx_xdp_verdicts *verdicts)
{
	struct verdict_sum sum = { .verdicts = verdicts };
	struct xskx_libxdp_log saved;
	unsigned int ifindex;
	int err;

	if (!ifname || !verdicts)
		return xskx__fail(
			-EINVAL,
			"xdp_prog_stats: ifname and verdicts must not be NULL");
	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return xskx__fail(
			-ENODEV,
			"xdp_prog_stats: no network interface named '%s' in this network namespace",
			ifname);
	sum.cpus = libbpf_num_possible_cpus();
	if (sum.cpus <= 0)
		return xskx__fail(
			sum.cpus ? sum.cpus : -EIO,
			"xdp_prog_stats: cannot count the possible CPUs");
	sum.percpu = calloc((size_t)sum.cpus, sizeof(*sum.percpu));
	if (!sum.percpu)
		return xskx__fail(-ENOMEM, "xdp_prog_stats: out of memory");
	memset(verdicts, 0, sizeof(*verdicts));

	/* A dispatcher's programs are reached through libxdp. */
	err = 0;
	if (!add_direct_verdicts((int)ifindex, &sum)) {
		xskx__libxdp_log_begin(&saved);
		err = xskx__xdp_each_prog((int)ifindex, add_verdicts, &sum);
		xskx__libxdp_log_end(&saved);
	}
	free(sum.percpu);
	if (err < 0)
		return xskx__fail(
			err,
			"xdp_prog_stats: reading the XDP programs of '%s': %s",
			ifname, xskx_strerror(-err));
	if (sum.err)
		return xskx__fail(
			sum.err,
			"xdp_prog_stats: reading the counters on '%s': %s",
			ifname, xskx_strerror(-sum.err));
	if (!sum.programs)
		return xskx__fail(
			-ENOENT,
			"xdp_prog_stats: no XDP program with xskx's counters on '%s' (no xskx socket open on it?)",
			ifname);
	return 0;
}

XSKX_API int xskx_xdp_prog_stats_sized(const char *ifname,
				       struct xskx_xdp_verdicts *verdicts,
				       size_t verdicts_size)
{
	struct xskx_xdp_verdicts full;
	int err;

	if (!verdicts || !verdicts_size)
		return xskx__fail(
			-EINVAL,
			"xskx_xdp_prog_stats: verdicts must not be NULL, verdicts_size not 0");
	err = xdp_prog_stats_full(ifname, &full);
	if (!err)
		xskx__out_copy(verdicts, verdicts_size, &full, sizeof(full));
	return err;
}
