/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The seam between the burst API and a peer.
 *
 * A backend opens ports (its own constructor, which hands the core this
 * table through xskx__port_new()), creates the peer's side of a socket and
 * maps its rings into the socket's xsk_ring_* structs; everything above the
 * rings (frame pool, burst API, wakeup policy, statistics) is one body of
 * code for every backend. Adding a backend means adding a constructor and
 * one of these tables, nothing else.
 */
#ifndef XSKX_BACKEND_H
#define XSKX_BACKEND_H

#include <linux/if_xdp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct xskx_socket;
struct xskx_socket_opts;
struct xskx_fq_cq;
struct xskx_filter_dev;
struct xskx_port;
struct xskx_port_info;
struct xskx_umem;

/*
 * The UMEM as a backend sees it: what to register with the peer, and the
 * registration itself. A backend reads these, never struct xskx_umem.
 */
struct xskx_peer_umem {
	void *area;
	uint64_t size;
	uint32_t frame_size;
	uint32_t headroom;
	uint32_t fill_size;
	uint32_t comp_size;
	bool unaligned;
	uint32_t tx_metadata_len;	/* XDP_UMEM_TX_METADATA_LEN's; 0: none */
	bool tx_sw_csum;		/* XDP_UMEM_TX_SW_CSUM */
	/* The backend's, from the UMEM's first socket on; NULL before. */
	void *registration;
};

struct xskx_backend_ops {
	const char *name;	/* "kernel", "sim" */
	/* Let go of the port's state (port->backend); its sockets are closed. */
	void (*port_close)(struct xskx_port *port);
	/* Fill the backend's fields of info (the core has set the others). */
	void (*port_info)(const struct xskx_port *port,
			  struct xskx_port_info *info);
	/*
	 * Packets that arrived on each RX queue while no socket with an RX
	 * ring was there (xskx's program passed them to the stack): fill
	 * packets[q] for q below both queues and the port's RX queue count.
	 * Returns that count, or a negative errno, not logged: -ENOENT when
	 * nothing counts them (no program of xskx's held).
	 */
	int (*rx_no_socket)(const struct xskx_port *port, uint64_t *packets,
			    uint32_t queues);
	/*
	 * Create and bind the peer's socket for sock (sock->port,
	 * sock->peer_umem, sock->share_with, sock->fq and the options are set; sock->fq->backend is NULL when this socket
	 * is the first on that FILL/COMPLETION pair, which the backend then
	 * creates and maps into sock->fq->fill/comp). Maps sock->rx/tx.
	 * Returns 0 or a negative errno, having logged the reason.
	 */
	int (*open)(struct xskx_socket *sock,
		    const struct xskx_socket_opts *opts);
	/*
	 * Wakeups (recvfrom / sendto): 0, or the negative errno of the wakeup
	 * as it came; the caller decides which ones mean "try again".
	 */
	int (*kick_rx)(struct xskx_socket *sock);
	int (*kick_tx)(struct xskx_socket *sock);
	int (*poll)(struct xskx_socket *sock, short events, int timeout_ms);
	int (*stats)(struct xskx_socket *sock, struct xdp_statistics *stats);
	int (*options)(const struct xskx_socket *sock,
		       struct xdp_options *options);
	/*
	 * Frames the peer holds for this FILL/COMPLETION pair, or -1 when it
	 * cannot tell (the kernel).
	 */
	int64_t (*frames_in_peer)(const struct xskx_fq_cq *fq);
	/* The socket's file descriptor, or -EOPNOTSUPP. */
	int (*fd)(const struct xskx_socket *sock);
	/*
	 * The pid of the kernel thread that runs the NAPI of the socket's RX
	 * queue in *pid, 0 when none does (softirq, or no NAPI found).
	 * Returns 0 or a negative errno, logged. Optional: without it, no
	 * thread.
	 */
	int (*napi_thread)(const struct xskx_socket *sock, pid_t *pid);
	/*
	 * Unbind and free the peer's socket, handing to give_back every frame
	 * the application side will not see again and that the backend can
	 * safely tell: what is left on the socket's RX and TX rings and, when
	 * sock is the last user of its FILL/COMPLETION pair, on FILL and
	 * COMPLETION and in the peer. What the backend cannot tell stays
	 * counted as "nic" in the census. Returns true when the peer let go of
	 * the UMEM with it (the UMEM's last socket): every frame the peer held
	 * is free then, and the core takes back what it could not be told of.
	 */
	bool (*close)(struct xskx_socket *sock,
		      void (*give_back)(uint64_t addr, void *ctx), void *ctx);
	/*
	 * Drop the peer's registration of the UMEM (peer->registration) once
	 * its last socket has closed and the UMEM is destroyed. Optional.
	 */
	void (*umem_release)(struct xskx_peer_umem *peer);
	/*
	 * Begin an operation on the deny list of the port
	 * (xskx/filter.h, lib/filter_internal.h): fill *dev, or return a
	 * negative errno, logged. Optional: without it, no deny list.
	 */
	int (*filter_begin)(struct xskx_port *port,
			    struct xskx_filter_dev *dev);
};

#endif /* XSKX_BACKEND_H */
