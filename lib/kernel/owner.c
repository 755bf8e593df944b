// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A process is named by its pid, its pid namespace and its start time: the
 * start time tells a living owner from a new process that reused its pid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owner.h"

static uint64_t pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (uint64_t)st.st_ino;
}

/*
 * The state letter and start time (field 22) of /proc/<pid>/stat. The
 * command name (field 2) may hold spaces and parentheses: fields are
 * counted from the last ')'. Returns 0, -ESRCH when there is no such
 * process, or -EIO.
 */
static int read_stat(uint32_t pid, char *state, uint64_t *start_time)
{
	char path[32], buf[1024], *p;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -EIO;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	p = strrchr(buf, ')');
	/* After ") ": state is field 3, start time field 22, 19 fields on. */
	if (!p ||
	    sscanf(p + 1,
		   " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %" SCNu64,
		   state, start_time) != 2)
		return -EIO;
	return 0;
}

int xskx__owner_self(struct xskx_prog_owner *owner)
{
	uint64_t start_time;
	char state;
	int err;

	memset(owner, 0, sizeof(*owner));
	owner->pid = (uint32_t)getpid();
	owner->pid_ns = pid_namespace();
	err = read_stat(owner->pid, &state, &start_time);
	owner->start_time = start_time;
	return err;
}

enum xskx__owner_state xskx__owner_state(const struct xskx_prog_owner *owner)
{
	uint64_t start_time;
	char state;
	int err;

	if (!owner->pid || !owner->pid_ns || owner->pid_ns != pid_namespace())
		return XSKX_OWNER_UNKNOWN;
	err = read_stat(owner->pid, &state, &start_time);
	if (err == -ESRCH)
		return XSKX_OWNER_GONE;
	if (err)
		return XSKX_OWNER_UNKNOWN;
	/* A zombie's sockets are closed already; a new start time, a new process. */
	if (state == 'Z' || state == 'X' || start_time != owner->start_time)
		return XSKX_OWNER_GONE;
	return XSKX_OWNER_ALIVE;
}

bool xskx__owner_is_self(const struct xskx_prog_owner *owner)
{
	struct xskx_prog_owner self;

	return !xskx__owner_self(&self) &&
	       !memcmp(&self, owner, sizeof(self));
}

void xskx__owner_name(const struct xskx_prog_owner *owner, char *buf,
		      size_t size)
{
	char path[32], comm[32] = "";
	FILE *f;

	if (owner->pid_ns != pid_namespace()) {
		snprintf(buf, size,
			 "process %" PRIu32 " of another pid namespace",
			 owner->pid);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/comm", owner->pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (comm[0])
		snprintf(buf, size, "process %" PRIu32 " (%s)", owner->pid,
			 comm);
	else
		snprintf(buf, size, "process %" PRIu32, owner->pid);
}
