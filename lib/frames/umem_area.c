// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The UMEM area the library maps itself: anonymous memory, or 2 MiB
 * hugepages (XSKX_UMEM_HUGEPAGES), which the kernel only hands out from
 * the pool an administrator reserved (vm.nr_hugepages). A failed hugepage
 * mapping is reported with what to reserve, never silently replaced by
 * small pages: a caller who asked for hugepages relies on the area being
 * physically contiguous per 2 MiB.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "log_internal.h"
#include "frames/umem_area.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define HUGEPAGE_SHIFT 21
#define HUGEPAGE_SIZE (1ull << HUGEPAGE_SHIFT)

/* A line "Name: value" of /proc/meminfo, or -1. */
static long long meminfo(const char *name)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long value = -1;
	size_t len = strlen(name);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':') {
			sscanf(line + len + 1, "%lld", &value);
			break;
		}
	fclose(f);
	return value;
}

static int hugepages_missing(uint64_t size, uint64_t pages, int err)
{
	long long free_pages = meminfo("HugePages_Free");
	long long total = meminfo("HugePages_Total");

	if (err != -ENOMEM)
		return xskx__fail(err,
				  "umem: mapping %llu bytes of 2 MiB hugepages (XSKX_UMEM_HUGEPAGES): %s",
				  (unsigned long long)size, xskx_strerror(-err));
	return xskx__fail(-ENOMEM,
			  "umem: XSKX_UMEM_HUGEPAGES needs %llu free 2 MiB hugepages, the system has %lld of %lld reserved free; reserve more (sysctl vm.nr_hugepages=%lld, or /proc/sys/vm/nr_hugepages) or create the UMEM without XSKX_UMEM_HUGEPAGES",
			  (unsigned long long)pages, free_pages, total,
			  (total > 0 ? total : 0) + (long long)pages -
				  (free_pages > 0 ? free_pages : 0));
}

int xskx__umem_area_map(uint64_t size, bool hugepages, void **area,
			uint64_t *mapped)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE;
	uint64_t len = size;
	void *a;

	if (hugepages) {
		len = (size + HUGEPAGE_SIZE - 1) & ~(HUGEPAGE_SIZE - 1);
		flags |= MAP_HUGETLB | (HUGEPAGE_SHIFT << MAP_HUGE_SHIFT);
	}
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (a == MAP_FAILED) {
		if (hugepages)
			return hugepages_missing(size, len >> HUGEPAGE_SHIFT,
						 -errno);
		return xskx__fail(-errno, "umem: cannot map %llu bytes: %s",
				  (unsigned long long)size, xskx_strerror(errno));
	}
	*area = a;
	*mapped = len;
	return 0;
}

void xskx__umem_area_unmap(void *area, uint64_t mapped)
{
	munmap(area, mapped);
}
