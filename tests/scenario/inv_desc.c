// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX descriptors the peer must refuse (KERNEL_RULES.md, "TX"): written by
 * hand among valid ones. The refused ones are consumed and counted in
 * tx_invalid_descs (copy mode may complete them too); the valid ones
 * arrive in order and each completes once: in order in zero-copy, in any
 * order in copy mode (traffic.c, raw_reclaim()).
 */
#include "traffic.h"

/* The sender's UMEM: as many whole frames as fit in 256 KiB. */
#define INV_UMEM_BYTES (256u * 1024u)
/* Each row writes only inside its own 8 KiB region of the sender's UMEM. */
#define INV_REGION 8192u

enum inv_where {
	IN_REGION,    /* offset bytes into the row's own region */
	FROM_END,     /* offset bytes before the end of the UMEM */
	BEFORE_START, /* offset bytes before address 0, wrapping */
};

struct inv_row {
	const char *what;
	enum inv_where where;
	uint64_t offset;
	uint32_t len;
	uint32_t options;
	/* Valid in aligned mode with 4 KiB frames, with 2 KiB frames, unaligned. */
	bool valid_4k, valid_2k, valid_unaligned;
};

/* One row per line, so that the table reads as one. */
/* clang-format off */
static const struct inv_row rows[] = {
	{ "at address 0",                IN_REGION,    0,         64,   0,    true,  true,  true  },
	{ "inside a frame",              IN_REGION,    1000,      64,   0,    true,  true,  true  },
	{ "straddling the UMEM start",   BEFORE_START, 2,         64,   0,    false, false, false },
	{ "longer than a frame",         IN_REGION,    0,         9001, 0,    false, false, false },
	{ "ending at the UMEM end",      FROM_END,     64,        64,   0,    true,  true,  true  },
	{ "starting at the UMEM end",    FROM_END,     0,         64,   0,    false, false, false },
	{ "straddling the UMEM end",     FROM_END,     32,        64,   0,    false, false, false },
	{ "straddling a 4 KiB boundary", IN_REGION,    4096 - 32, 64,   0,    false, false, true  },
	{ "straddling a 2 KiB boundary", IN_REGION,    2048 - 32, 64,   0,    true,  false, true  },
	{ "zero length",                 IN_REGION,    0,         0,    0,    false, false, false },
	{ "an unknown option bit",       IN_REGION,    0,         64,   0x80, false, false, false },
	{ "last, valid",                 IN_REGION,    0,         64,   0,    true,  true,  true  },
};
/* clang-format on */

#define INV_ROWS (sizeof(rows) / sizeof(rows[0]))

static bool row_valid(const struct inv_row *row, uint32_t frame_size,
		      bool unaligned)
{
	if (unaligned)
		return row->valid_unaligned;
	return frame_size == 2048 ? row->valid_2k : row->valid_4k;
}

static uint64_t row_addr(const struct inv_row *row, uint32_t index,
			 uint64_t umem_bytes)
{
	switch (row->where) {
	case FROM_END:
		return umem_bytes - row->offset;
	case BEFORE_START:
		return 0 - row->offset;
	case IN_REGION:
		break;
	}
	return (uint64_t)index * INV_REGION + row->offset;
}

static void inv_desc(struct test_peer *peer, uint32_t frame_size,
		     bool unaligned, struct scenario_result *r)
{
	struct raw_desc descs[INV_ROWS];
	struct link_config cfg;
	uint32_t invalid = 0, frames = INV_UMEM_BYTES / frame_size;

	link_config_init(&cfg);
	for (int p = 0; p < 2; p++) {
		cfg.umem[p].frame_size = frame_size;
		cfg.umem[p].flags = unaligned ? XSKX_UMEM_UNALIGNED : 0;
	}
	cfg.umem[TEST_PORT_A].frame_count = frames;
	for (uint32_t i = 0; i < INV_ROWS; i++) {
		bool valid = row_valid(&rows[i], frame_size, unaligned);

		descs[i] = (struct raw_desc){ .what = rows[i].what,
					      .addr = row_addr(&rows[i], i,
							       (uint64_t)frames *
								       frame_size),
					      .len = rows[i].len,
					      .options = rows[i].options,
					      .valid = valid };
		invalid += !valid;
	}
	traffic_raw_one_way(peer, &cfg, descs, INV_ROWS, invalid, r);
}

void scenario_aligned_inv_desc(struct test_peer *peer,
			       struct scenario_result *r)
{
	inv_desc(peer, 4096, false, r);
}

void scenario_aligned_inv_desc_2k_frame(struct test_peer *peer,
					struct scenario_result *r)
{
	inv_desc(peer, 2048, false, r);
}

void scenario_unaligned_inv_desc(struct test_peer *peer,
				 struct scenario_result *r)
{
	inv_desc(peer, 4096, true, r);
}

/*
 * An odd frame size, so that the UMEM (65 frames of 4001 bytes) ends 2017
 * bytes into a page: the descriptors straddling its end straddle no page
 * boundary, and only the UMEM's own bound can refuse them.
 */
void scenario_unaligned_inv_desc_4001_frame_size(struct test_peer *peer,
						 struct scenario_result *r)
{
	inv_desc(peer, 4001, true, r);
}
