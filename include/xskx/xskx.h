/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * xskx: AF_XDP packet I/O.
 *
 * Include this one header. The pieces, in the order a packet meets them:
 *   xskx/port.h    an interface as this process uses it: XDP program, busy polling
 *   xskx/umem.h    the frame area, the frame pool, the frame census
 *   xskx/socket.h  sockets on a queue of a port and the burst API
 *   xskx/verdict.h an RX batch judged packet by packet: forward, recycle, keep
 *   xskx/ring.h    the rings underneath (libxdp's ABI plus a few helpers)
 *   xskx/packet.h  a defensive view of a packet's L2/L3/L4 headers
 *   xskx/filter.h  deny-by-prefix in the XDP program, before user space
 *   xskx/kernel.h  the kernel backend's reports: XDP verdicts, interface counters
 *   xskx/log.h     errors and the log callback
 *
 * The simulated NIC is a library of its own, libxskx-sim, with its own
 * header: #include <xskx-sim/sim.h> and link with -lxskx-sim
 * (pkg-config xskx-sim; docs/SIMULATOR.md).
 */
#ifndef XSKX_XSKX_H
#define XSKX_XSKX_H

/*
 * The library's version, in this one place: CMake reads it from here for the
 * soname, pkg-config and the CMake package; the man pages are checked against
 * it.
 */
#define XSKX_VERSION_MAJOR 0
#define XSKX_VERSION_MINOR 1
#define XSKX_VERSION_PATCH 0

#include <xskx/batch.h>
#include <xskx/filter.h>
#include <xskx/handover.h>
#include <xskx/kernel.h>
#include <xskx/log.h>
#include <xskx/opts.h>
#include <xskx/packet.h>
#include <xskx/port.h>
#include <xskx/ring.h>
#include <xskx/rx_meta.h>
#include <xskx/socket.h>
#include <xskx/umem.h>
#include <xskx/verdict.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "MAJOR.MINOR.PATCH" of the library actually loaded. */
const char *xskx_version(void);

#ifdef __cplusplus
}
#endif

#endif /* XSKX_XSKX_H */
