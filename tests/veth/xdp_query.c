// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xdp/libxdp.h>

#include "xdp_query.h"

static struct xdp_program *find_prog(struct xdp_multiprog *mp,
				     const char *name)
{
	struct xdp_program *prog = NULL;

	if (xdp_multiprog__is_legacy(mp)) {
		prog = xdp_multiprog__main_prog(mp);
		return prog && !strcmp(xdp_program__name(prog), name) ? prog :
									NULL;
	}
	while ((prog = xdp_multiprog__next_prog(prog, mp)))
		if (!strcmp(xdp_program__name(prog), name))
			return prog;
	return NULL;
}

int xdp_query_prog_fd(int ifindex, const char *name, struct xdp_multiprog **mp)
{
	struct xdp_program *prog;
	long err;

	*mp = xdp_multiprog__get_from_ifindex(ifindex);
	err = libxdp_get_error(*mp);
	if (err) {
		*mp = NULL;
		fprintf(stderr, "xdp_query: ifindex %d: %s\n", ifindex,
			strerror((int)-err));
		return (int)err;
	}
	prog = find_prog(*mp, name);
	if (!prog) {
		fprintf(stderr, "xdp_query: no program %s on ifindex %d\n",
			name, ifindex);
		return -ENOENT;
	}
	return xdp_program__fd(prog);
}

int xdp_query_map_fd(int prog_fd, const char *name)
{
	__u32 ids[64], n = 64;
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = n;
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	for (__u32 i = 0; i < info.nr_map_ids && i < n; i++) {
		struct bpf_map_info map;
		__u32 map_len = sizeof(map);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		memset(&map, 0, sizeof(map));
		if (!bpf_obj_get_info_by_fd(fd, &map, &map_len) &&
		    !strcmp(map.name, name))
			return fd;
		close(fd);
	}
	return -ENOENT;
}
