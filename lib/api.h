/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Marks the definition of an exported function. Everything else in the
 * library is hidden (-fvisibility=hidden); lib/libxskx.map lists the same
 * functions per release.
 */
#ifndef XSKX_API_H
#define XSKX_API_H

#define XSKX_API __attribute__((visibility("default")))

#endif /* XSKX_API_H */
