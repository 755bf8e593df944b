// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xskx-bench -I: interrupts, as /proc/interrupts counts them. Every line
 * that contains the string (a driver names its queue vectors after the
 * interface: "eth0-TxRx-3") adds its per-CPU counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The per-CPU counts after "NUMBER:" up to the first word that is none. */
static uint64_t line_count(const char *line)
{
	const char *p = strchr(line, ':');
	uint64_t sum = 0;

	while (p) {
		char *end;
		unsigned long long v = strtoull(p + 1, &end, 10);

		if (end == p + 1)
			break;
		sum += v;
		p = end;
	}
	return sum;
}

int bench_irq_count(const char *match, uint64_t *count)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[8192];
	bool found = false;

	if (!f)
		return -errno;
	*count = 0;
	/* The first line names the CPUs. */
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EIO;
	}
	while (fgets(line, sizeof(line), f))
		if (strstr(line, match)) {
			*count += line_count(line);
			found = true;
		}
	fclose(f);
	return found ? 0 : -ENOENT;
}
