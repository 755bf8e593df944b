// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * This process's XDP attachments and the sockets in their XSKMAPs.
 *
 * One attachment per interface per process, found in a registry keyed by
 * interface index and network namespace (a process may switch namespaces
 * between sockets) and by process id (a forked child sees its parent's
 * registry, but the parent's attachments are not the child's). Across
 * processes the program itself is shared (xdp_share.c). The registry lock
 * is held only on the control path: open and close.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libxdp_log.h"
#include "log_internal.h"
#include "owner.h"
#include "xdp_attachment.h"
#include "xdp_on_device.h"
#include "xdp_prog.h"
#include "xdp_share.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xskx_xdp_attachment *registry;

static uint64_t this_netns(void)
{
	struct stat st;

	return stat("/proc/thread-self/ns/net", &st) ? 0 : (uint64_t)st.st_ino;
}

static struct xskx_xdp_attachment *find_attachment(int ifindex)
{
	uint64_t netns = this_netns();
	pid_t pid = getpid();

	for (struct xskx_xdp_attachment *a = registry; a; a = a->next)
		if (a->ifindex == ifindex && a->netns == netns && a->pid == pid)
			return a;
	return NULL;
}

static struct xskx_xdp_attachment *new_attachment(const struct xskx_netdev *dev)
{
	struct xskx_xdp_attachment *att = calloc(1, sizeof(*att));

	if (!att)
		return NULL;
	att->ifindex = dev->ifindex;
	att->netns = this_netns();
	att->pid = getpid();
	memcpy(att->ifname, dev->name, sizeof(att->ifname));
	att->prog_fd = att->xsks_map_fd = -1;
	att->owner_map_fd = att->queue_owner_map_fd = -1;
	att->no_socket_map_fd = -1;
	return att;
}

static void free_attachment(struct xskx_xdp_attachment *att)
{
	xskx__xdp_close_fds(att);
	while (att->slots) {
		struct xsk_slot *slot = att->slots;

		att->slots = slot->next;
		free(slot);
	}
	free(att);
}

int xskx__xdp_acquire(const struct xskx_netdev *dev,
		      const struct xskx_xdp_request *req,
		      struct xskx_xdp_attachment **attp)
{
	struct xskx_xdp_attachment *att;
	struct xskx_libxdp_log saved;
	int err = 0;

	pthread_mutex_lock(&registry_lock);
	att = find_attachment(dev->ifindex);
	if (att) {
		err = xskx__xdp_refuse_different(dev, req, att->mode,
						 &att->program,
						 "this process's other sockets");
		if (!err)
			att->users++;
		goto out;
	}
	att = new_attachment(dev);
	if (!att) {
		err = xskx__fail(-ENOMEM, "out of memory");
		goto out;
	}
	xskx__libxdp_log_begin(&saved);
	err = xskx__xdp_share(dev, req, att);
	xskx__libxdp_log_end(&saved);
	if (err) {
		free_attachment(att);
		att = NULL;
		goto out;
	}
	att->users = 1;
	att->next = registry;
	registry = att;
out:
	pthread_mutex_unlock(&registry_lock);
	*attp = err ? NULL : att;
	return err;
}

void xskx__xdp_release(struct xskx_xdp_attachment *att)
{
	struct xskx_libxdp_log saved;

	pthread_mutex_lock(&registry_lock);
	if (--att->users) {
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	for (struct xskx_xdp_attachment **p = &registry; *p; p = &(*p)->next)
		if (*p == att) {
			*p = att->next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	xskx__libxdp_log_begin(&saved);
	xskx__xdp_leave(att);
	xskx__libxdp_log_end(&saved);
	free_attachment(att);
}

/* Say whose socket is on queue, for a process the kernel refuses it to. */
static void record_queue_owner(struct xskx_xdp_attachment *att, uint32_t queue,
			       bool ours)
{
	struct xskx_prog_owner owner = { 0 };

	if (ours && xskx__owner_self(&owner))
		return;
	if (bpf_map_update_elem(att->queue_owner_map_fd, &queue, &owner,
				BPF_ANY))
		xskx_debug("recording who serves queue %u of '%s': %s", queue,
			   att->ifname, xskx_strerror(errno));
}

int xskx__xdp_add_socket(struct xskx_xdp_attachment *att, uint32_t queue, int fd)
{
	struct xsk_slot *slot = calloc(1, sizeof(*slot));
	int err = 0;

	if (!slot)
		return xskx__fail(-ENOMEM, "out of memory");
	pthread_mutex_lock(&registry_lock);
	if (bpf_map_update_elem(att->xsks_map_fd, &queue, &fd, BPF_ANY)) {
		err = -errno;
		free(slot);
	} else {
		slot->queue = queue;
		slot->fd = fd;
		slot->next = att->slots;
		att->slots = slot;
		record_queue_owner(att, queue, true);
	}
	pthread_mutex_unlock(&registry_lock);
	if (err)
		return xskx__fail(
			err,
			"adding the socket of queue %u to the XSKMAP of '%s': %s",
			queue, att->ifname, xskx_strerror(-err));
	return 0;
}

void xskx__xdp_remove_socket(struct xskx_xdp_attachment *att, uint32_t queue,
			     int fd)
{
	struct xsk_slot **p, *gone = NULL, *next_owner = NULL;
	bool held_slot = true;

	pthread_mutex_lock(&registry_lock);
	for (p = &att->slots; *p; p = &(*p)->next) {
		if ((*p)->queue != queue)
			continue;
		if ((*p)->fd == fd) {
			gone = *p;
			*p = gone->next;
			break;
		}
		held_slot = false; /* a newer socket on the queue holds it */
	}
	if (gone && held_slot) {
		for (struct xsk_slot *s = gone->next; s && !next_owner;
		     s = s->next)
			if (s->queue == queue)
				next_owner = s;
		if (next_owner) {
			bpf_map_update_elem(att->xsks_map_fd, &queue,
					    &next_owner->fd, BPF_ANY);
		} else {
			bpf_map_delete_elem(att->xsks_map_fd, &queue);
			record_queue_owner(att, queue, false);
		}
	}
	pthread_mutex_unlock(&registry_lock);
	free(gone);
}

int xskx__xdp_queue_holder(const struct xskx_xdp_attachment *att,
			   uint32_t queue, struct xskx_prog_owner *holder)
{
	if (bpf_map_lookup_elem(att->queue_owner_map_fd, &queue, holder) ||
	    !holder->pid || xskx__owner_state(holder) == XSKX_OWNER_GONE)
		return -ENOENT;
	return 0;
}

enum xskx_xdp_mode xskx__xdp_mode_of(const struct xskx_xdp_attachment *att)
{
	return att->mode;
}

bool xskx__xdp_rx_meta_bound(const struct xskx_xdp_attachment *att)
{
	return att->program.flags & XSKX_OWNER_RX_META_BOUND;
}

int xskx__xdp_prog_fd(const struct xskx_xdp_attachment *att)
{
	return att->prog_fd;
}

int xskx__xdp_no_socket(const struct xskx_xdp_attachment *att,
			uint64_t *packets, uint32_t queues)
{
	int cpus = libbpf_num_possible_cpus();
	uint64_t *percpu;
	int err = 0;

	if (att->no_socket_map_fd < 0)
		return -ENOENT;
	if (cpus <= 0)
		return cpus < 0 ? cpus : -EINVAL;
	percpu = calloc((size_t)cpus, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	for (uint32_t q = 0; q < queues && !err; q++) {
		packets[q] = 0;
		if (bpf_map_lookup_elem(att->no_socket_map_fd, &q, percpu)) {
			/* Beyond the map (queues added since it was sized). */
			if (errno != ENOENT)
				err = -errno;
			continue;
		}
		for (int cpu = 0; cpu < cpus; cpu++)
			packets[q] += percpu[cpu];
	}
	free(percpu);
	return err;
}
