/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What this process may do, asked before the kernel is: an operation that
 * needs more privilege than the process has is refused up front, with the
 * capability it lacks and the way to do without it, instead of an EPERM
 * from deep inside libbpf or libxdp.
 */
#ifndef XSKX_KERNEL_PRIVILEGE_H
#define XSKX_KERNEL_PRIVILEGE_H

#include <stdint.h>

/*
 * Attaching or joining xskx's XDP program on ifname: CAP_NET_ADMIN and
 * CAP_BPF or CAP_SYS_ADMIN (finding another process's program by id needs
 * CAP_SYS_ADMIN). 0, or -EPERM logged naming the alternative.
 */
int xskx__privilege_attach(const char *ifname);

/* An AF_XDP socket: CAP_NET_RAW. 0, or -EPERM logged. */
int xskx__privilege_socket(void);

/*
 * Registering a UMEM of size bytes: without CAP_IPC_LOCK the kernel charges
 * it to RLIMIT_MEMLOCK. 0, or -ENOMEM logged when it cannot fit.
 */
int xskx__privilege_memlock(uint64_t size);

/*
 * Why the kernel refused a UMEM registration with err, when the memory
 * limits explain it: a sentence for the message, or "".
 */
const char *xskx__privilege_memlock_hint(int err);

#endif /* XSKX_KERNEL_PRIVILEGE_H */
