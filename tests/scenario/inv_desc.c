// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX descriptors the peer must refuse (KERNEL_RULES.md, "TX"): written by
 * hand among valid ones. The refused ones are consumed without completion
 * and counted in tx_invalid_descs; the valid ones arrive in order and
 * complete in order.
 */
#include "traffic.h"

/* The sender's UMEM: the same 256 KiB whatever the frame size. */
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

static uint64_t row_addr(const struct inv_row *row, uint32_t index)
{
	switch (row->where) {
	case FROM_END:
		return INV_UMEM_BYTES - row->offset;
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
	uint32_t invalid = 0;

	link_config_init(&cfg);
	cfg.umem[TEST_PORT_A].frame_size = frame_size;
	cfg.umem[TEST_PORT_A].frame_count = INV_UMEM_BYTES / frame_size;
	if (unaligned) {
		cfg.umem[TEST_PORT_A].flags = XSKX_UMEM_UNALIGNED;
		cfg.umem[TEST_PORT_B].flags = XSKX_UMEM_UNALIGNED;
	}
	for (uint32_t i = 0; i < INV_ROWS; i++) {
		bool valid = row_valid(&rows[i], frame_size, unaligned);

		descs[i] = (struct raw_desc){ .what = rows[i].what,
					      .addr = row_addr(&rows[i], i),
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
