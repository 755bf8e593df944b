// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * TX descriptor validation on the simulated NIC. One deterministic port
 * (zero-copy or copy mode), a UMEM of 32 frames (aligned or unaligned,
 * 2048, 3072 or 4096 bytes, with or without headroom), a TX-only socket
 * (multi-buffer or not, a small TX ring). The input is a program of steps:
 * allocate frames, hand xskx_tx_burst() an array of fuzzed packets (mostly
 * inside frames the harness holds, at any offset and length, some with
 * XDP_PKT_CONTD or other options, some at any address at all), run the NIC,
 * reclaim completions, stall or unstall the NIC's TX, free frames.
 *
 * After every step the frame census balances (unaccounted 0, the total the
 * UMEM's frame count) and the application holds exactly the frames the
 * harness does: every packet xskx_tx_burst() accepted was in a frame the
 * harness held, one packet per frame. At the end, with TX unstalled and
 * drained, every accepted packet has completed (tx_completed counts them
 * all, none is left on TX, COMPLETION or in the NIC) and, once the socket
 * is closed, every frame is back in the pool.
 */
#include <errno.h>
#include <xskx/if_xdp_compat.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "fuzz.h"

#define FRAMES 32u
#define MAX_BURST 16u

struct rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_port *lib_port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint32_t frame_size;
	bool unaligned;
	uint64_t held[FRAMES];	/* frame addresses the harness holds */
	uint32_t nheld;
	uint64_t accepted;	/* descriptors xskx_tx_burst took */
	struct xskx_sim_faults faults;
};

static void quiet(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

/* The frame a descriptor's data starts in. */
static uint64_t frame_of(const struct rig *rig, uint64_t addr)
{
	uint64_t data = addr;

	if (rig->unaligned)
		data = (addr & ((1ull << 48) - 1)) + (addr >> 48);
	return data - data % rig->frame_size;
}

static void check_census(struct rig *rig, const char *after)
{
	struct xskx_frame_census c;

	FUZZ_CHECK(!xskx_umem_census(rig->umem, &c), "census");
	FUZZ_CHECK(!c.unaccounted && c.total == FRAMES &&
			   c.pool + c.fill + c.nic + c.rx + c.app + c.tx +
					   c.comp ==
				   c.total,
		   "after %s: pool %u fill %u nic %u rx %u app %u tx %u comp %u total %u unaccounted %lld",
		   after, c.pool, c.fill, c.nic, c.rx, c.app, c.tx, c.comp,
		   c.total, (long long)c.unaccounted);
	FUZZ_CHECK(c.app == rig->nheld, "after %s: app %u, harness holds %u",
		   after, c.app, rig->nheld);
}

static void drop_held(struct rig *rig, uint32_t i)
{
	rig->held[i] = rig->held[--rig->nheld];
}

static void step_alloc(struct rig *rig, struct fuzz_in *in)
{
	uint32_t n = fuzz_u8(in) % 9, got;

	if (n > FRAMES - rig->nheld)
		n = FRAMES - rig->nheld;
	got = xskx_frame_alloc(rig->umem, rig->held + rig->nheld, n);
	FUZZ_CHECK(got <= n, "%u of %u", got, n);
	rig->nheld += got;
}

static struct xskx_pkt fuzz_pkt(struct rig *rig, struct fuzz_in *in)
{
	uint8_t kind = fuzz_u8(in);
	struct xskx_pkt pkt = { 0 };

	if (kind % 8 && rig->nheld) {
		uint64_t frame = rig->held[fuzz_u8(in) % rig->nheld];
		uint32_t offset = fuzz_u16(in) % (rig->frame_size + 64);

		pkt.addr = rig->unaligned && kind & 0x40 ?
				   (uint64_t)offset << 48 | frame :
				   frame + offset;
	} else {
		pkt.addr = fuzz_u64(in);
	}
	pkt.len = kind & 0x80 ? fuzz_u32(in) : fuzz_u16(in) % (rig->frame_size + 64);
	pkt.options = kind & 0x10 ? XDP_PKT_CONTD : kind & 0x20 ? fuzz_u8(in) : 0;
	return pkt;
}

static void step_burst(struct rig *rig, struct fuzz_in *in)
{
	struct xskx_pkt pkts[MAX_BURST];
	uint32_t n = fuzz_u8(in) % (MAX_BURST + 1);
	int r;

	for (uint32_t i = 0; i < n; i++)
		pkts[i] = fuzz_pkt(rig, in);
	r = xskx_tx_burst(rig->sock, pkts, n);
	FUZZ_CHECK(r <= (int)n && r >= -4095, "burst of %u: %d", n, r);
	for (int i = 0; i < r; i++) {
		uint64_t frame = frame_of(rig, pkts[i].addr);
		uint32_t j = 0;

		while (j < rig->nheld && rig->held[j] != frame)
			j++;
		FUZZ_CHECK(j < rig->nheld,
			   "packet %d of %u accepted (addr 0x%llx len %u options 0x%x): frame 0x%llx not held, or another packet of the burst already went in it",
			   i, n, (unsigned long long)pkts[i].addr, pkts[i].len,
			   pkts[i].options, (unsigned long long)frame);
		drop_held(rig, j);
		rig->accepted++;
	}
}

static void step_free(struct rig *rig, struct fuzz_in *in)
{
	uint32_t n = fuzz_u8(in) % 5;

	while (n-- && rig->nheld) {
		uint32_t i = fuzz_u8(in) % rig->nheld;

		FUZZ_CHECK(!xskx_frame_free(rig->umem, &rig->held[i], 1),
			   "free 0x%llx", (unsigned long long)rig->held[i]);
		drop_held(rig, i);
	}
}

static bool rig_create(struct rig *rig, struct fuzz_in *in)
{
	static const uint32_t frame_sizes[] = { 2048, 4096, 3072 };
	static const uint32_t tx_sizes[] = { 4, 16, 64, 2048 };
	uint8_t setup = fuzz_u8(in);
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "fz",
		  .no_zero_copy = setup & 1, .hw_tx_ring_size = setup & 2 ? 32 : 0);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = FRAMES,
		  .headroom = setup & 4 ? 64 : 0);
	XSKX_OPTS(xskx_socket_opts, sock_opts, .flags = XSKX_SOCKET_NO_RX,
		  .tx_size = tx_sizes[(setup >> 5) % 4]);
	int err;

	rig->unaligned = setup & 8;
	rig->frame_size = frame_sizes[(setup >> 3) % (rig->unaligned ? 3 : 2)];
	umem_opts.frame_size = rig->frame_size;
	umem_opts.flags = rig->unaligned ? XSKX_UMEM_UNALIGNED : 0;
	if (setup & 0x10)
		sock_opts.flags |= XSKX_SOCKET_MULTI_BUFFER;

	FUZZ_CHECK(!xskx_sim_create(&rig->sim, &sim_opts), "sim");
	FUZZ_CHECK(!xskx_sim_port_create(rig->sim, &port_opts, &rig->port),
		   "port: %s", xskx_last_error());
	FUZZ_CHECK(!xskx_umem_create(&rig->umem, &umem_opts), "umem: %s",
		   xskx_last_error());
	FUZZ_CHECK(!xskx_port_open_sim(&rig->lib_port, rig->port, NULL),
		   "library port: %s", xskx_last_error());
	sock_opts.port = rig->lib_port;
	err = xskx_socket_open(&rig->sock, rig->umem, &sock_opts);
	FUZZ_CHECK(!err, "socket: %s", xskx_last_error());
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size, 0 };
	struct rig rig = { 0 };
	struct xskx_stats stats;
	struct xskx_frame_census c;
	struct xskx_sim_port_stats port;
	int r;

	xskx_set_log(quiet, NULL);
	rig_create(&rig, &in);
	check_census(&rig, "setup");
	for (unsigned int steps = 0; fuzz_left(&in) && steps < 256; steps++) {
		switch (fuzz_u8(&in) % 6) {
		case 0:
			step_alloc(&rig, &in);
			check_census(&rig, "alloc");
			break;
		case 1:
			step_burst(&rig, &in);
			check_census(&rig, "tx_burst");
			break;
		case 2:
			FUZZ_CHECK(xskx_sim_poll(rig.sim) >= 0, "poll");
			check_census(&rig, "poll");
			break;
		case 3:
			xskx_tx_reclaim(rig.sock);
			check_census(&rig, "reclaim");
			break;
		case 4:
			rig.faults.tx_stalled = !rig.faults.tx_stalled;
			FUZZ_CHECK(!xskx_sim_port_set_faults(rig.port, &rig.faults),
				   "faults");
			break;
		default:
			step_free(&rig, &in);
			check_census(&rig, "free");
		}
	}

	/* Drain: every accepted packet completes. */
	rig.faults.tx_stalled = false;
	FUZZ_CHECK(!xskx_sim_port_set_faults(rig.port, &rig.faults), "faults");
	for (unsigned int i = 0; i < 64; i++) {
		xskx_sim_poll(rig.sim);
		xskx_tx_reclaim(rig.sock);
		FUZZ_CHECK(!xskx_socket_stats(rig.sock, &stats), "stats");
		if (stats.tx_completed == rig.accepted)
			break;
	}
	check_census(&rig, "draining");
	FUZZ_CHECK(stats.tx_completed == rig.accepted &&
			   stats.tx_packets == rig.accepted,
		   "%llu packets accepted, tx_packets %llu, %llu completed",
		   (unsigned long long)rig.accepted,
		   (unsigned long long)stats.tx_packets,
		   (unsigned long long)stats.tx_completed);
	FUZZ_CHECK(!stats.tx_bad_completions && !stats.tx_invalid_descs,
		   "bad completions %llu, invalid descriptors %llu",
		   (unsigned long long)stats.tx_bad_completions,
		   (unsigned long long)stats.tx_invalid_descs);
	FUZZ_CHECK(!xskx_umem_census(rig.umem, &c) && !c.tx && !c.comp && !c.nic,
		   "drained, yet tx %u comp %u nic %u", c.tx, c.comp, c.nic);
	FUZZ_CHECK(!xskx_sim_port_stats(rig.port, &port) &&
			   (rig.accepted == 0 || port.tx_packets > 0),
		   "%llu accepted, none sent", (unsigned long long)rig.accepted);

	if (rig.nheld)
		FUZZ_CHECK(!xskx_frame_free(rig.umem, rig.held, rig.nheld), "free");
	r = xskx_socket_close(rig.sock);
	FUZZ_CHECK(!r, "close: %s", xskx_last_error());
	FUZZ_CHECK(!xskx_umem_census(rig.umem, &c) && c.pool == FRAMES,
		   "closed: pool %u of %u", c.pool, FRAMES);
	r = xskx_umem_destroy(rig.umem);
	FUZZ_CHECK(!r, "umem destroy: %s", xskx_last_error());
	FUZZ_CHECK(!xskx_port_close(rig.lib_port), "port close");
	FUZZ_CHECK(!xskx_sim_destroy(rig.sim), "sim destroy");
	xskx_set_log(NULL, NULL);
	return 0;
}
