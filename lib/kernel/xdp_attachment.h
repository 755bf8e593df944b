/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One process's hold on the xskx XDP program of one interface, whether this
 * process attached the program (xdp_load.c) or joined it (xdp_share.c):
 * either way it holds the program and its maps by fd, and its entry in the
 * program's owner map keeps the program attached.
 */
#ifndef XSKX_KERNEL_XDP_ATTACHMENT_H
#define XSKX_KERNEL_XDP_ATTACHMENT_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <xskx/kernel.h>

#include "xskx_shared.h"

/* A socket of this process in the XSKMAP, newest first. */
struct xsk_slot {
	uint32_t queue;
	int fd;
	struct xsk_slot *next;
};

struct xskx_xdp_attachment {
	int ifindex;
	uint64_t netns;
	pid_t pid;
	char ifname[IF_NAMESIZE];
	enum xskx_xdp_mode mode;
	/* What the program was loaded from (role XSKX_OWNER_PROGRAM). */
	struct xskx_owner_entry program;
	uint32_t prog_id;
	int prog_fd;
	int xsks_map_fd;
	int owner_map_fd;
	int queue_owner_map_fd;
	int no_socket_map_fd; /* -1: the program does not count them */
	uint32_t users; /* this process's sockets on it */
	struct xsk_slot *slots;
	struct xskx_xdp_attachment *next;
};

/* "native" or "generic (skb)", for messages. */
const char *xskx__xdp_mode_name(enum xskx_xdp_mode mode);

/* Close the program's and maps' fds, leaving -1 in their place. */
void xskx__xdp_close_fds(struct xskx_xdp_attachment *att);

#endif /* XSKX_KERNEL_XDP_ATTACHMENT_H */
