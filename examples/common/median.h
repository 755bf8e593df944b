/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The median of repeated measurements (runs, rounds), for their reports. */
#ifndef XSKX_EXAMPLES_MEDIAN_H
#define XSKX_EXAMPLES_MEDIAN_H

#include <stdint.h>

/* The median of v[0..n), n > 0; sorts v in place (v[0] and v[n - 1] are
 * then the range). */
double median_sort(double *v, uint32_t n);

#endif /* XSKX_EXAMPLES_MEDIAN_H */
