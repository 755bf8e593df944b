/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The sandbox of every veth test: a private network namespace (so no host
 * interface is ever touched) and a private mount namespace with its own
 * bpffs and sysfs, holding a veth pair made through libnl-route-3.
 */
#ifndef XSKX_TESTS_NETNS_H
#define XSKX_TESTS_NETNS_H

#include <stdint.h>
#include <sys/types.h>

/* Exit status of a test that cannot run here (CTest SKIP_RETURN_CODE). */
#define VETH_TEST_SKIP 77

/*
 * Move the calling process (single-threaded: call first thing in main)
 * into new network and mount namespaces: mounts made private, sysfs and
 * bpffs mounted fresh, loopback up, IPv6 off for new interfaces so that
 * the kernel sends nothing of its own on them. It skips (prints the
 * reason, exits with VETH_TEST_SKIP) only for a missing privilege (not
 * root, or root without CAP_SYS_ADMIN or CAP_NET_ADMIN) or a missing kernel
 * feature (network namespaces, the BPF file system), each checked before
 * use and named. Any other failure, creating the namespaces or mounting
 * bpffs as root included, prints and exits 1: a test that cannot set up
 * where it should be able to has failed, not been skipped.
 */
void veth_sandbox_enter(void);

struct veth_pair_opts {
	const char *name; /* e.g. "xv0" */
	const char *peer; /* e.g. "xv1" */
	uint32_t queues;  /* RX and TX queues of each end; 0: 1 */
	uint32_t tx_queues; /* TX queues of each end if not queues; 0: queues */
	uint32_t mtu;	  /* 0: 1500 */
};

/*
 * Create the pair with fixed MAC addresses (02:00:00:00:00:01 for name,
 * ...:02 for peer) and bring both ends up. Returns 0 or a negative errno,
 * printed.
 */
int veth_pair_create(const struct veth_pair_opts *opts);

/* Delete the pair (deleting one end removes both). Returns 0 or -errno. */
int veth_pair_delete(const char *name);

/* Set a link's MTU; for tests that need a larger one than the frame holds. */
int veth_link_set_mtu(const char *name, uint32_t mtu);

/*
 * Move a link into the network namespace of process pid (a child that
 * made one of its own). Returns 0 or a negative errno.
 */
int veth_link_move_to_netns_of(const char *name, pid_t pid);

extern const uint8_t veth_mac_a[6];
extern const uint8_t veth_mac_b[6];

#endif /* XSKX_TESTS_NETNS_H */
