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

#include "netdev.h"
#include "xdp_prog.h"
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

/*
 * Detach the program with id from ifindex if it is still there (libxdp
 * replaces exactly that program, atomically); logs a failure with the fix.
 */
void xskx__xdp_detach_id(const char *ifname, int ifindex, uint32_t id);

/* Close the program's and maps' fds, leaving -1 in their place. */
void xskx__xdp_close_fds(struct xskx_xdp_attachment *att);

/* The record a request's program would have: its object's digest, frags. */
void xskx__xdp_program_of(const struct xskx_xdp_request *req,
			  struct xskx_owner_entry *program);

/*
 * 0 when a socket asking for req can use the program described by program
 * running in mode for users ("this process's other sockets", "process
 * 42 (rx)", ...); else -EBUSY, logged, naming what differs and the fix.
 */
int xskx__xdp_refuse_different(const struct xskx_netdev *dev,
			       const struct xskx_xdp_request *req,
			       enum xskx_xdp_mode mode,
			       const struct xskx_owner_entry *program,
			       const char *users);

/*
 * Load req's program and attach it to dev as its first user (xdp_load.c),
 * filling att's program, mode and fds. -EAGAIN: another process's xskx
 * program got there first (join it); else 0 or a negative errno, logged.
 */
int xskx__xdp_attach_new(const struct xskx_netdev *dev,
			 const struct xskx_xdp_request *req,
			 struct xskx_xdp_attachment *att);

/*
 * Join the xskx program on dev, attaching one when there is none or
 * replacing one whose users all died (xdp_share.c). 0 or a negative errno,
 * logged.
 */
int xskx__xdp_share(const struct xskx_netdev *dev,
		    const struct xskx_xdp_request *req,
		    struct xskx_xdp_attachment *att);

/*
 * Leave the program: detach it when no other living process serves with
 * it. The fds stay open for the caller to close (xskx__xdp_close_fds()).
 */
void xskx__xdp_leave(struct xskx_xdp_attachment *att);

/*
 * With RX metadata asked for: log which fields dev provides and whether the
 * program att holds can give them (bound), or why not.
 */
void xskx__xdp_log_rx_meta(const struct xskx_netdev *dev,
			   const struct xskx_xdp_attachment *att);

/* Whether the program has xskx's maps (its owner map, or its XSKMAP). */
bool xskx__xdp_is_xskx(int prog_fd);

/*
 * The id of the xskx program on ifindex (the oldest, should a dispatcher
 * hold two), 0 when there is none.
 */
uint32_t xskx__xdp_find(int ifindex, enum xskx_xdp_mode *mode);

#endif /* XSKX_KERNEL_XDP_ATTACHMENT_H */
