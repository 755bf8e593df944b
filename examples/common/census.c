// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The frame census as the programs report it (see census.h). */
#include "census.h"
#include "run.h"

bool census_accounted(const struct xskx_frame_census *c)
{
	return !c->unaccounted && !c->double_frees;
}

bool census_umem_accounted(struct xskx_umem *umem)
{
	struct xskx_frame_census c;
	int err = xskx_umem_census(umem, &c);

	if (err) {
		run_lib_error("xskx_umem_census", err);
		return false;
	}
	return census_accounted(&c);
}
