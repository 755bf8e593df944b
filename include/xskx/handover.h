/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Sockets handed over a Unix socket: a privileged agent (for example
 * examples/xskx-node-agent) creates a UMEM in a memfd, one AF_XDP socket per
 * queue on it, and puts them in the XSKMAP of a program it attached; an
 * unprivileged process connects, asks for one queue, and receives the
 * memfd and that queue's socket (SCM_RIGHTS). It maps the frames and the
 * four rings itself (no capability needed) and runs the ordinary burst API
 * on them. Several processes share one UMEM this way, each on its own queue
 * and its own slice of the frames.
 *
 * The protocol (docs/CONTAINERS.md, "Handing over file descriptors"), one
 * SOCK_SEQPACKET connection per queue, host byte order:
 *
 *   client -> agent   struct xskx_handover_request, no fds
 *   agent  -> client  struct xskx_handover_msg with XSKX_HANDOVER_FDS fds:
 *                     [0] the UMEM's memfd, [1] the queue's AF_XDP socket;
 *                     or, refused, error < 0 and reason, no fds
 *
 * The client keeps the connection open while it uses the socket; its
 * hang-up tells the agent the queue is free (the agent then replaces the
 * socket with a fresh one for the next client).
 */
#ifndef XSKX_HANDOVER_H
#define XSKX_HANDOVER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XSKX_HANDOVER_MAGIC 0x78736b68u /* "xskh" */
#define XSKX_HANDOVER_VERSION 1
#define XSKX_HANDOVER_FDS 2
#define XSKX_HANDOVER_FD_MEMFD 0
#define XSKX_HANDOVER_FD_XSK 1

struct xskx_handover_request {
	uint32_t magic;	   /* XSKX_HANDOVER_MAGIC */
	uint32_t version;  /* XSKX_HANDOVER_VERSION */
	uint32_t queue_id; /* the queue whose socket the client wants */
	uint32_t reserved; /* 0 */
};

struct xskx_handover_msg {
	uint32_t magic;	  /* XSKX_HANDOVER_MAGIC */
	uint32_t version; /* XSKX_HANDOVER_VERSION */
	int32_t error;	  /* 0, or the agent's negative errno: no fds */
	uint32_t queue_id;
	char ifname[16];     /* the interface, as the agent names it */
	uint32_t ifindex;    /* in the agent's network namespace */
	uint32_t frame_size; /* the UMEM's chunk size */
	uint64_t umem_size;  /* bytes registered, from offset 0 of the memfd */
	uint32_t headroom;   /* the UMEM's headroom */
	uint32_t umem_flags; /* 0 (aligned chunks; nothing else is handed over) */
	uint32_t fill_size; /* ring entries, as the agent sized them */
	uint32_t comp_size;
	uint32_t rx_size;
	uint32_t tx_size;
	uint32_t bind_flags; /* XDP_* the socket was bound with */
	/* The frames this queue may use: [frame_first, frame_first + frame_count). */
	uint32_t frame_first;
	uint32_t frame_count;
	uint32_t reserved; /* 0 */
	char reason[128];  /* with error: why, for the client's log */
};

struct xskx_handover;
struct xskx_port;
struct xskx_umem;

/*
 * Connect to the agent's Unix socket at path, ask for queue_id, and take
 * what comes back: maps the frames (the memfd) and builds a port and a UMEM
 * on them whose free frames are the queue's slice. Open the queue's socket
 * with xskx_socket_open_queue() on xskx_handover_port() and
 * xskx_handover_umem(). Needs no capability. Waits at most timeout_ms
 * (0: 5000) for the agent. Returns 0 or a negative errno with a message
 * naming the cause: -ECONNREFUSED/-ENOENT (no agent there), -ETIMEDOUT,
 * -ECONNRESET (the agent hung up), -EBADMSG (not the protocol's message),
 * -EPROTO (file descriptors missing, too many, or not a memfd and an AF_XDP
 * socket), or the agent's own refusal. Every received fd is closed on
 * failure. Syscalls: connect, send, recvmsg, fstat, getsockopt, mmap.
 */
int xskx_handover_receive(struct xskx_handover **ho, const char *path,
			  uint32_t queue_id, int timeout_ms);

/* The port (backend "handover") and the UMEM of a received handover. */
struct xskx_port *xskx_handover_port(const struct xskx_handover *ho);
struct xskx_umem *xskx_handover_umem(const struct xskx_handover *ho);

/* The agent's message as it came (ring sizes, slice, bind flags). */
const struct xskx_handover_msg *
xskx_handover_msg(const struct xskx_handover *ho);

/*
 * Destroy the UMEM and the port, unmap the frames, close the fds and the
 * connection (the agent then frees the queue). Close the socket first:
 * -EBUSY while it is open, nothing freed. NULL: 0.
 */
int xskx_handover_close(struct xskx_handover *ho);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_HANDOVER_H */
