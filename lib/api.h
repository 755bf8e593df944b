/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Marks the definition of an exported function. Everything else in the
 * library is hidden (-fvisibility=hidden); lib/libxskx.map lists the same
 * functions per release.
 */
#ifndef XSKX_API_H
#define XSKX_API_H

#define XSKX_API __attribute__((visibility("default")))

/*
 * Marks the definition of a core function that a backend built as a
 * library of its own (libxskx-sim) calls: exported, but in the version
 * node XSKX_PRIVATE_<version> of lib/libxskx.map, declared in lib/ only,
 * for the libxskx-sim of the very same build (docs/ARCHITECTURE.md, "The
 * simulator's seam"). Not an API: no header of include/ declares it.
 */
#define XSKX_BACKEND_API __attribute__((visibility("default")))

#endif /* XSKX_API_H */
