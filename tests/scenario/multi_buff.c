// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Jumbo frames (multi-buffer, XDP_USE_SG) on a link with MTU 9000: packets
 * larger than a frame leave as chains of fragments and arrive as chains;
 * invalid descriptors inside a chain, and a chain longer than the
 * kernel's fragment limit, take their whole packet down and nothing else;
 * an XDP program resizes a chain with bpf_xdp_adjust_tail()
 * (docs/KERNEL_RULES.md, "Multi-buffer").
 */
#include <stdlib.h>
#include <string.h>

#include "traffic.h"
#include "xdp_tail.h"

/* The sender's UMEM in the descriptor tables: 64 frames of 4 KiB. */
#define MB_FRAME 4096u
#define MB_UMEM_BYTES (64u * MB_FRAME)
/* Each row of the invalid-descriptor table writes only inside its region. */
#define MB_REGION (2u * MB_FRAME)
/*
 * Every option bit but XDP_PKT_CONTD: an invalid descriptor that ends its
 * packet. (With XDP_PKT_CONTD the kernel takes the descriptors after it,
 * up to the chain's end, down with it.)
 */
#define MB_INVALID_OPTION 0xfffeu
/* The selftests' DEFAULT_BATCH_SIZE packets in the adjust-tail scenarios. */
#define MB_ADJUST_PACKETS 64u

/* 4096 packets of 9000 bytes, three fragments each way (4 KiB frames). */
void scenario_send_receive_9k_packets(struct test_peer *peer,
				      struct scenario_result *r)
{
	struct link_config cfg;

	link_config_jumbo(&cfg);
	traffic_one_way_len(peer, &cfg, TEST_PKT_COUNT, TEST_JUMBO_LEN, NULL, r);
}

/*
 * The same on unaligned UMEMs of 4001-byte frames: fragments start anywhere
 * in a page, every other frame at an odd address.
 */
void scenario_send_receive_unaligned_9k_packets(struct test_peer *peer,
						struct scenario_result *r)
{
	struct link_config cfg;

	link_config_jumbo(&cfg);
	for (int p = 0; p < 2; p++) {
		cfg.umem[p].frame_size = 4001;
		cfg.umem[p].flags = XSKX_UMEM_UNALIGNED;
	}
	traffic_one_way_len(peer, &cfg, TEST_PKT_COUNT, TEST_JUMBO_LEN, NULL, r);
}

enum mb_where {
	MB_IN_REGION, /* offset bytes into the row's own region */
	MB_UMEM_END,  /* at the end of the UMEM: outside it */
};

struct mb_row {
	const char *what;
	enum mb_where where;
	uint32_t offset;
	uint32_t len;
	uint32_t options;
	bool valid_aligned, valid_unaligned;
};

/*
 * The chains of ALIGNED_INV_DESC_MULTI_BUFF: a row with XDP_PKT_CONTD
 * continues into the next while both are valid. One row per line.
 */
/* clang-format off */
static const struct mb_row mb_rows[] = {
	{ "first, valid",                         MB_IN_REGION, 0,             64,   0,                 true,  true  },
	{ "chain ending in len 0: 1st",           MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, false },
	{ "chain ending in len 0: 2nd",           MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, false },
	{ "chain ending in len 0: len 0",         MB_IN_REGION, 0,             0,    0,                 false, false },
	{ "2nd fragment outside the UMEM: 1st",   MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, false },
	{ "2nd fragment outside the UMEM",        MB_UMEM_END,  0,             3072, XDP_PKT_CONTD,     false, false },
	{ "too long in the middle: 1st",          MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, false },
	{ "too long in the middle: 9001 bytes",   MB_IN_REGION, 0,             9001, XDP_PKT_CONTD,     false, false },
	{ "bad options in the middle: 1st",       MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, false },
	{ "bad options in the middle: 0xfffe",    MB_IN_REGION, 0,             3072, MB_INVALID_OPTION, false, false },
	{ "two frames sent, three received: 1st", MB_IN_REGION, 0,             4096, XDP_PKT_CONTD,     true,  true  },
	{ "two frames sent, three received: 2nd", MB_IN_REGION, 0,             4096, 0,                 true,  true  },
	{ "fragment across a frame end: 1st",     MB_IN_REGION, 0,             3072, XDP_PKT_CONTD,     false, true  },
	{ "fragment across a frame end",          MB_IN_REGION, MB_FRAME - 32, 64,   0,                 false, true  },
	{ "last, valid",                          MB_IN_REGION, 0,             64,   0,                 true,  true  },
};
/* clang-format on */

#define MB_ROWS (sizeof(mb_rows) / sizeof(mb_rows[0]))

static void inv_desc_mb(struct test_peer *peer, bool unaligned,
			struct scenario_result *r)
{
	struct raw_desc descs[MB_ROWS];
	struct link_config cfg;
	uint32_t invalid = 0;

	link_config_jumbo(&cfg);
	cfg.umem[TEST_PORT_A].frame_size = MB_FRAME;
	cfg.umem[TEST_PORT_A].frame_count = MB_UMEM_BYTES / MB_FRAME;
	if (unaligned) {
		cfg.umem[TEST_PORT_A].flags = XSKX_UMEM_UNALIGNED;
		cfg.umem[TEST_PORT_B].flags = XSKX_UMEM_UNALIGNED;
	}
	for (uint32_t i = 0; i < MB_ROWS; i++) {
		const struct mb_row *row = &mb_rows[i];
		bool valid = unaligned ? row->valid_unaligned :
					 row->valid_aligned;

		descs[i] = (struct raw_desc){
			.what = row->what,
			.addr = row->where == MB_UMEM_END ?
					MB_UMEM_BYTES :
					(uint64_t)i * MB_REGION + row->offset,
			.len = row->len,
			.options = row->options,
			.valid = valid,
		};
		invalid += !valid;
	}
	traffic_raw_one_way(peer, &cfg, descs, MB_ROWS, invalid, r);
}

void scenario_aligned_inv_desc_multi_buff(struct test_peer *peer,
					  struct scenario_result *r)
{
	inv_desc_mb(peer, false, r);
}

void scenario_unaligned_inv_desc_multi_buff(struct test_peer *peer,
					    struct scenario_result *r)
{
	inv_desc_mb(peer, true, r);
}

/*
 * The socket's fragment limit (xskx_socket_info's max_frags, checked against
 * the kernel by what arrives): a chain of exactly max_frags descriptors
 * arrives; max_frags descriptors all with XDP_PKT_CONTD and the one that
 * ends them are one invalid packet, all counted in tx_invalid_descs, and
 * the packet after them arrives. The kernel's selftest ends the long chain
 * with the limit-th descriptor and expects the next one to start a packet;
 * the 6.18 kernel (veth, copy mode) drops that one with the chain instead,
 * so this layout gives it its own end (docs/KERNEL_RULES.md).
 */
void scenario_too_many_frags(struct test_peer *peer, struct scenario_result *r)
{
	struct xskx_socket_info info;
	struct link_config cfg;
	struct test_link probe;
	struct raw_desc *descs;
	uint32_t n, max;

	/* The limit comes from a bound socket: open the link once to ask. */
	link_config_jumbo(&cfg);
	if (!link_open(&probe, peer, &cfg, r))
		return;
	if (xskx_socket_info(probe.sock[TEST_PORT_A], &info))
		scenario_fail(r, "xskx_socket_info: %s", xskx_last_error());
	link_close(&probe, r);
	if (!scenario_ok(r))
		return;
	max = info.max_frags;
	n = 2 * max + 3;
	if (n > MB_UMEM_BYTES / MB_FRAME) {
		scenario_fail(r, "max_frags %u: more descriptors than frames",
			      max);
		return;
	}
	descs = calloc(n, sizeof(*descs));
	if (!descs) {
		scenario_fail(r, "out of memory");
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		bool too_long = i > max && i <= 2 * max + 1;

		descs[i] = (struct raw_desc){
			.what = i == 0 || i == n - 1 ? "a packet of one fragment" :
				too_long ? "the chain past the limit" :
					   "the chain of exactly the limit",
			.addr = (uint64_t)i * MB_FRAME,
			.len = TEST_PKT_LEN,
			.options = (i > 0 && i < max) ||
						   (too_long && i <= 2 * max) ?
					   XDP_PKT_CONTD :
					   0,
			.valid = !too_long,
		};
	}
	link_config_jumbo(&cfg);
	cfg.umem[TEST_PORT_A].frame_size = MB_FRAME;
	cfg.umem[TEST_PORT_A].frame_count = MB_UMEM_BYTES / MB_FRAME;
	traffic_raw_one_way(peer, &cfg, descs, n, max + 1, r);
	free(descs);
}

/*
 * One packet first: the adjust-tail programs drop a packet only when
 * bpf_xdp_adjust_tail() answers -EOPNOTSUPP, and then the scenario is
 * skipped, as the kernel selftests skip it. The XDP verdicts are the
 * kernel's (xskx_xdp_prog_stats): a peer without an interface has none.
 */
static bool adjust_tail_supported(struct test_link *link,
				  const struct traffic_opts *opts,
				  uint32_t len, struct scenario_result *r)
{
	struct xskx_socket_opts where = { .sz = sizeof(where) };
	struct traffic_opts probe = *opts;
	struct xskx_port_info port;
	struct xskx_xdp_verdicts v;
	struct test_stream one;
	static struct traffic t; /* its scratch packet is 64 KiB */
	bool ok;
	int err;

	link->peer->bind(link->peer, TEST_PORT_B, &where);
	if (!where.port || xskx_port_info(where.port, &port) ||
	    strcmp(port.backend, "kernel"))
		return true;
	probe.allow_loss = true;
	if (stream_init(&one, 1, len))
		return scenario_fail(r, "out of memory");
	traffic_begin(&t, link, &one, &probe);
	ok = traffic_receive(&t, r) && traffic_send(&t, r);
	while (ok && t.next_tx < one.count)
		ok = link_turn(link, r, "the probe to leave") &&
		     traffic_send(&t, r);
	ok = ok && traffic_drain(&t, r) && traffic_complete(&t, r);
	stream_free(&one);
	if (!ok)
		return false;
	err = xskx_xdp_prog_stats(port.name, &v);
	if (err)
		return scenario_fail(r, "xskx_xdp_prog_stats %s: %s",
				     port.name, xskx_strerror(err));
	if (v.dropped) {
		scenario_skip(
			r,
			"%s: bpf_xdp_adjust_tail(%d) on a multi-buffer packet answered -EOPNOTSUPP: this device cannot grow a fragment (docs/KERNEL_RULES.md)",
			port.name, opts->rx_len_delta);
		return false;
	}
	return true;
}

/*
 * The receiving port's XDP program resizes every packet of 6144 bytes with
 * bpf_xdp_adjust_tail(): the kernel selftests' 64 packets, shrunk by 4096
 * bytes or grown to one byte short of the end of the last fragment's frame
 * (xdp_tail.h), on a receiver with 4 KiB frames.
 */
static void adjust_tail_mb(struct test_peer *peer, enum test_xdp_prog prog,
			   int32_t delta, struct scenario_result *r)
{
	struct traffic_opts opts;
	struct test_stream stream;
	struct link_config cfg;
	struct test_link link;

	link_config_jumbo(&cfg);
	cfg.umem[TEST_PORT_B].frame_size = TEST_XDP_TAIL_MB_FRAME;
	cfg.xdp[TEST_PORT_B] = prog;
	traffic_opts_init(&opts, TEST_PORT_A);
	opts.rx_len_delta = delta;
	if (stream_init(&stream, MB_ADJUST_PACKETS, TEST_XDP_TAIL_MB_LEN)) {
		scenario_fail(r, "out of memory");
		return;
	}
	if (link_open(&link, peer, &cfg, r)) {
		if (adjust_tail_supported(&link, &opts, TEST_XDP_TAIL_MB_LEN, r))
			traffic_run(&link, &stream, &opts, r);
		link_close(&link, r);
	}
	stream_free(&stream);
}

void scenario_xdp_adjust_tail_shrink_multi_buff(struct test_peer *peer,
						struct scenario_result *r)
{
	adjust_tail_mb(peer, TEST_XDP_ADJUST_TAIL_SHRINK_MB,
		       TEST_XDP_TAIL_MB_SHRINK, r);
}

void scenario_xdp_adjust_tail_grow_multi_buff(struct test_peer *peer,
					      struct scenario_result *r)
{
	adjust_tail_mb(peer, TEST_XDP_ADJUST_TAIL_GROW_MB, TEST_XDP_TAIL_MB_GROW,
		       r);
}
