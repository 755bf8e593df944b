/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The frame census as every program reports it ("frames_accounted" in the
 * JSON summaries): each frame of a UMEM found in exactly one place
 * (xskx_umem_census(), umem.h), none missing, none counted twice, none
 * given back twice.
 */
#ifndef XSKX_EXAMPLES_CENSUS_H
#define XSKX_EXAMPLES_CENSUS_H

#include <stdbool.h>
#include <xskx/xskx.h>

bool census_accounted(const struct xskx_frame_census *c);

/*
 * umem's census, now, judged as above; a census the library cannot take
 * is printed (run_lib_error) and counts as not accounted.
 */
bool census_umem_accounted(struct xskx_umem *umem);

#endif /* XSKX_EXAMPLES_CENSUS_H */
