// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The simulated NIC against kernel rules and its own threading rules, seen
 * through raw rings (lib/sim/sim_xsk.h) as an application without libxdp
 * sees a kernel socket:
 *
 *   unaligned_fill_offset    a FILL entry's offset bits are added to its
 *                            address (xp_check_unaligned());
 *   copy_tx_completes_invalid copy mode puts invalid TX descriptors on
 *                            COMPLETION in order and ends the sendto there;
 *                            zero-copy never completes them;
 *   copy_tx_budget           a copy-mode sendto sends 32 descriptors, or
 *                            the budget XDP_MAX_TX_SKB_BUDGET set, which
 *                            must lie in [32, the TX ring's entries];
 *   kick_meets_busy_thread   (threaded) a kick that finds the NIC thread
 *                            asleep still gets the lock when the thread
 *                            wakes and runs rounds back to back;
 *   tx_published_as_flag_rose (threaded) TX entries that became visible
 *                            just after the flag went up, with no kick, are
 *                            sent while another port keeps the NIC busy;
 *   fill_published_as_flag_rose (threaded) the same for FILL.
 *
 * The threaded cases reach into the machine (sim_internal.h): the NIC
 * thread's sleeping flag, the lock, a queue's kick.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel_rules.h"
#include "sim_internal.h"
#include "sim_lock.h"
#include "sim_wakeup.h"
#include "sim_xsk.h"

#define CHUNK 2048u
#define FRAMES 16u
#define RING 64u
#define PKT_LEN 64u
/* Longest wait for the NIC thread to do something it must do. */
#define WAIT_NS 5000000000ull

struct raw {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	uint8_t *area;
	struct sim_xsk *xs;
	struct sim_ring_map fill, comp, rx, tx;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pause_us(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

static struct xskx_sim *machine(enum xskx_sim_mode mode)
{
	struct xskx_sim_opts opts = { .sz = sizeof(opts), .mode = mode };
	struct xskx_sim *sim;

	ck_assert_int_eq(xskx_sim_create(&sim, &opts), 0);
	return sim;
}

static struct xskx_sim_port *port_on(struct xskx_sim *sim, bool no_zero_copy)
{
	struct xskx_sim_port_opts opts = { .sz = sizeof(opts),
					   .no_zero_copy = no_zero_copy };
	struct xskx_sim_port *port;

	ck_assert_int_eq(xskx_sim_port_create(sim, &opts, &port), 0);
	return port;
}

/* A socket with a UMEM of FRAMES chunks and the rings asked for, not bound. */
static void raw_socket(struct raw *r, bool unaligned, bool rx, bool tx)
{
	struct sim_umem_reg reg = {
		.len = (uint64_t)FRAMES * CHUNK,
		.chunk_size = CHUNK,
		.flags = unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0,
	};

	r->area = aligned_alloc((size_t)sysconf(_SC_PAGESIZE), reg.len);
	ck_assert_ptr_nonnull(r->area);
	memset(r->area, 0, reg.len);
	reg.addr = (uint64_t)(uintptr_t)r->area;
	ck_assert_int_eq(xskx__sim_xsk_socket(r->sim, &r->xs), 0);
	ck_assert_int_eq(xskx__sim_xsk_umem_reg(r->xs, &reg), 0);
	ck_assert_int_eq(xskx__sim_xsk_set_ring(r->xs, XDP_UMEM_FILL_RING, RING), 0);
	ck_assert_int_eq(
		xskx__sim_xsk_set_ring(r->xs, XDP_UMEM_COMPLETION_RING, RING), 0);
	ck_assert_int_eq(xskx__sim_xsk_map_ring(r->xs, XDP_UMEM_FILL_RING, &r->fill),
			 0);
	ck_assert_int_eq(
		xskx__sim_xsk_map_ring(r->xs, XDP_UMEM_COMPLETION_RING, &r->comp), 0);
	if (rx) {
		ck_assert_int_eq(xskx__sim_xsk_set_ring(r->xs, XDP_RX_RING, RING), 0);
		ck_assert_int_eq(xskx__sim_xsk_map_ring(r->xs, XDP_RX_RING, &r->rx),
				 0);
	}
	if (tx) {
		ck_assert_int_eq(xskx__sim_xsk_set_ring(r->xs, XDP_TX_RING, RING), 0);
		ck_assert_int_eq(xskx__sim_xsk_map_ring(r->xs, XDP_TX_RING, &r->tx),
				 0);
	}
}

static void raw_close(struct raw *r)
{
	xskx__sim_xsk_close(r->xs, NULL, NULL);
	ck_assert_int_eq(xskx_sim_destroy(r->sim), 0);
	free(r->area);
}

static uint32_t load_acquire(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void fill_put(struct sim_ring_map *m, uint64_t addr)
{
	uint32_t prod = *m->producer;

	((uint64_t *)m->desc)[prod & (m->entries - 1)] = addr;
	__atomic_store_n(m->producer, prod + 1, __ATOMIC_RELEASE);
}

static void tx_put(struct sim_ring_map *m, uint64_t addr, uint32_t len)
{
	uint32_t prod = *m->producer;

	((struct xdp_desc *)m->desc)[prod & (m->entries - 1)] =
		(struct xdp_desc){ .addr = addr, .len = len };
	__atomic_store_n(m->producer, prod + 1, __ATOMIC_RELEASE);
}

static uint32_t published(const struct sim_ring_map *m)
{
	return load_acquire(m->producer);
}

static uint64_t comp_at(const struct sim_ring_map *m, uint32_t i)
{
	return ((const uint64_t *)m->desc)[i & (m->entries - 1)];
}

static uint64_t tx_invalid(struct raw *r)
{
	struct xdp_statistics stats;

	ck_assert_int_eq(xskx__sim_xsk_get_stats(r->xs, &stats), 0);
	return stats.tx_invalid_descs;
}

static void count_sent(enum xskx_sim_sink_kind kind, const uint8_t *data,
		       uint32_t len, uint32_t queue, void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	if (kind == XSKX_SIM_SINK_TX)
		++*(uint32_t *)ctx;
}

/* A 64-byte Ethernet frame whose bytes say where they are. */
static void test_frame(uint8_t *frame)
{
	for (uint32_t i = 0; i < PKT_LEN; i++)
		frame[i] = (uint8_t)(i * 7 + 3);
	memcpy(frame, (const uint8_t[]){ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 },
	       12);
}

/*
 * xp_check_unaligned(): address plus offset is the buffer, valid when a
 * whole chunk from there lies inside the UMEM. Zero-copy and copy mode read
 * FILL the same way.
 */
START_TEST(unaligned_fill_offset)
{
	static const uint16_t modes[] = { XDP_ZEROCOPY, XDP_COPY };
	const uint64_t base = 2 * CHUNK, off = 100, size = FRAMES * CHUNK;

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct raw r = { 0 };
		struct xdp_statistics stats;
		struct xdp_desc d;
		uint8_t frame[PKT_LEN];

		r.sim = machine(XSKX_SIM_DETERMINISTIC);
		r.port = port_on(r.sim, false);
		raw_socket(&r, true, true, false);
		/* Past the end once the offset is added: invalid. */
		fill_put(&r.fill,
			 (size - CHUNK) |
				 1ull << XSK_UNALIGNED_BUF_OFFSET_SHIFT);
		fill_put(&r.fill, base | off << XSK_UNALIGNED_BUF_OFFSET_SHIFT);
		ck_assert_int_eq(xskx__sim_xsk_bind(r.xs, r.port, 0, modes[m], NULL),
				 0);
		test_frame(frame);
		ck_assert_int_eq(
			xskx_sim_port_inject(r.port, frame, sizeof(frame)), 0);
		for (int i = 0; i < 4; i++)
			ck_assert_int_ge(xskx_sim_poll(r.sim), 0);

		ck_assert_uint_eq(published(&r.rx), 1);
		d = ((struct xdp_desc *)r.rx.desc)[0];
		ck_assert_msg(
			d.addr == ((base + off) |
				   (uint64_t)XSKX_XDP_PACKET_HEADROOM
					   << XSK_UNALIGNED_BUF_OFFSET_SHIFT),
			"%s: RX addr 0x%llx, want buffer %llu + 100 with data offset 256",
			modes[m] == XDP_COPY ? "copy" : "zero-copy",
			(unsigned long long)d.addr, (unsigned long long)base);
		ck_assert_uint_eq(d.len, PKT_LEN);
		ck_assert_mem_eq(r.area + base + off + XSKX_XDP_PACKET_HEADROOM,
				 frame, PKT_LEN);
		ck_assert_int_eq(xskx__sim_xsk_get_stats(r.xs, &stats), 0);
		ck_assert_uint_eq(stats.rx_invalid_descs, 1);
		raw_close(&r);
	}
}
END_TEST

/* TX: valid, invalid (len 0), valid, invalid (outside the UMEM), valid. */
static const struct {
	uint64_t addr;
	uint32_t len;
} tx_mix[] = {
	{ 0, PKT_LEN },		 { 1 * CHUNK, 0 },	 { 2 * CHUNK, PKT_LEN },
	{ 1ull << 40, PKT_LEN }, { 3 * CHUNK, PKT_LEN },
};

static void tx_mix_open(struct raw *r, bool no_zero_copy, uint16_t flags,
			uint32_t *sent)
{
	r->sim = machine(XSKX_SIM_DETERMINISTIC);
	r->port = port_on(r->sim, no_zero_copy);
	ck_assert_int_eq(xskx_sim_port_set_sink(r->port, count_sent, sent), 0);
	raw_socket(r, false, false, true);
	ck_assert_int_eq(xskx__sim_xsk_bind(r->xs, r->port, 0, flags, NULL), 0);
	for (size_t i = 0; i < sizeof(tx_mix) / sizeof(tx_mix[0]); i++)
		tx_put(&r->tx, tx_mix[i].addr, tx_mix[i].len);
}

/* COMPLETION holds exactly want[0..n), in order. */
static void assert_completed(struct raw *r, const uint64_t *want, uint32_t n,
			     const char *when)
{
	ck_assert_msg(published(&r->comp) == n,
		      "%s: %u addresses on COMPLETION, want %u", when,
		      published(&r->comp), n);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(comp_at(&r->comp, i) == want[i],
			      "%s: COMPLETION[%u] = 0x%llx, want 0x%llx", when,
			      i, (unsigned long long)comp_at(&r->comp, i),
			      (unsigned long long)want[i]);
}

START_TEST(copy_tx_completes_invalid)
{
	/* Copy mode, asked for and forced by the driver. */
	static const struct {
		bool no_zero_copy;
		uint16_t flags;
	} copy[] = { { false, XDP_COPY }, { true, 0 } };
	const uint64_t all[] = { 0, 1 * CHUNK, 2 * CHUNK, 1ull << 40,
				 3 * CHUNK };
	const uint64_t valid[] = { 0, 2 * CHUNK, 3 * CHUNK };
	/* Each sendto stops right after an invalid descriptor. */
	const uint32_t consumed[] = { 2, 4, 5 };

	for (size_t c = 0; c < sizeof(copy) / sizeof(copy[0]); c++) {
		struct raw r = { 0 };
		uint32_t sent = 0;

		tx_mix_open(&r, copy[c].no_zero_copy, copy[c].flags, &sent);
		for (uint32_t call = 0; call < 3; call++) {
			char when[64];

			snprintf(when, sizeof(when), "copy mode %zu, sendto %u",
				 c, call + 1);
			ck_assert_int_eq(xskx__sim_xsk_sendto(r.xs), 0);
			ck_assert_msg(
				load_acquire(r.tx.consumer) == consumed[call],
				"%s: TX consumer %u, want %u", when,
				load_acquire(r.tx.consumer), consumed[call]);
			assert_completed(&r, all, consumed[call], when);
		}
		ck_assert_uint_eq(sent, 3);
		ck_assert_uint_eq(tx_invalid(&r), 2);
		raw_close(&r);
	}

	/* Zero-copy: one pass, the invalid ones consumed and never completed. */
	{
		struct raw r = { 0 };
		uint32_t sent = 0;

		tx_mix_open(&r, false, XDP_ZEROCOPY, &sent);
		ck_assert_int_eq(xskx__sim_xsk_sendto(r.xs), 0);
		ck_assert_uint_eq(load_acquire(r.tx.consumer), 5);
		assert_completed(&r, valid, 3, "zero-copy");
		ck_assert_uint_eq(sent, 3);
		ck_assert_uint_eq(tx_invalid(&r), 2);
		raw_close(&r);
	}
}
END_TEST

/* TX_BATCH_SIZE (net/xdp/xsk.c): a copy-mode sendto's default budget. */
#define DEFAULT_TX_BUDGET 32u

/* A bound copy-mode TX socket with its whole TX ring of valid descriptors. */
static void tx_ring_full_open(struct raw *r, uint32_t *sent)
{
	r->sim = machine(XSKX_SIM_DETERMINISTIC);
	r->port = port_on(r->sim, true);
	ck_assert_int_eq(xskx_sim_port_set_sink(r->port, count_sent, sent), 0);
	raw_socket(r, false, false, true);
	ck_assert_int_eq(xskx__sim_xsk_bind(r->xs, r->port, 0, 0, NULL), 0);
	for (uint32_t i = 0; i < RING; i++)
		tx_put(&r->tx, (uint64_t)(i % FRAMES) * CHUNK, PKT_LEN);
}

START_TEST(copy_tx_budget)
{
	struct raw r = { 0 };
	uint32_t sent = 0;

	/* The default: 32 per sendto, then "try again". */
	tx_ring_full_open(&r, &sent);
	ck_assert_int_eq(xskx__sim_xsk_sendto(r.xs), -EAGAIN);
	ck_assert_uint_eq(load_acquire(r.tx.consumer), DEFAULT_TX_BUDGET);
	raw_close(&r);

	/* xsk_setsockopt()'s range: the default up to the TX ring's size. */
	sent = 0;
	tx_ring_full_open(&r, &sent);
	ck_assert_int_eq(xskx__sim_xsk_set_tx_budget(r.xs,
						     DEFAULT_TX_BUDGET - 1),
			 -EACCES);
	ck_assert_int_eq(xskx__sim_xsk_set_tx_budget(r.xs, RING + 1), -EACCES);
	ck_assert_int_eq(xskx__sim_xsk_set_tx_budget(r.xs, RING), 0);
	ck_assert_int_eq(xskx__sim_xsk_sendto(r.xs), 0);
	ck_assert_uint_eq(load_acquire(r.tx.consumer), RING);
	ck_assert_uint_eq(sent, RING);
	raw_close(&r);

	/* No TX ring: refused, as the kernel refuses it. */
	r = (struct raw){ .sim = machine(XSKX_SIM_DETERMINISTIC) };
	raw_socket(&r, false, true, false);
	ck_assert_int_eq(xskx__sim_xsk_set_tx_budget(r.xs, RING), -EACCES);
	raw_close(&r);
}
END_TEST

/* Wait up to WAIT_NS for *p to reach want; false when it did not. */
static bool wait_for(const uint32_t *p, uint32_t want)
{
	uint64_t until = now_ns() + WAIT_NS;

	while (load_acquire(p) != want)
		if (now_ns() > until)
			return false;
		else
			pause_us(100);
	return true;
}

static int load_int(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* A source that moves packets in every round: the NIC thread never idles. */
static void keep_busy(struct xskx_sim_port *port)
{
	struct xskx_sim_source_opts opts = { .sz = sizeof(opts),
					     .rate_pps = 1000000000u };

	ck_assert_int_eq(xskx_sim_port_add_source(port, &opts), 0);
}

struct kicker {
	struct sim_queue *q;
	uint32_t done;
};

static void *kick(void *arg)
{
	struct kicker *k = arg;

	xskx__sim_kick_queue(k->q, SIM_KICK_RX);
	__atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The kick reads "asleep" and goes for the lock; the NIC thread, woken by
 * its clock, gets the lock first (it waits for it already) and finds a
 * source that moves packets in every round. The kick must get the lock
 * between two rounds instead of waiting for a sleep that never comes.
 * Returns false when the thread was not asleep as the scenario needs.
 */
static bool kick_while_waking(void)
{
	struct xskx_sim *sim = machine(XSKX_SIM_THREADED);
	struct xskx_sim_port *port = port_on(sim, false);
	struct kicker k = { .q = &port->queues[0] };
	uint64_t until = now_ns() + WAIT_NS;
	bool asleep, stuck;
	pthread_t thread;

	ck_assert_int_eq(xskx_sim_start(sim), 0);
	while (!load_int(&sim->nic_sleeping) && now_ns() < until)
		pause_us(50);
	keep_busy(port);
	xskx__sim_lock(sim);
	asleep = load_int(&sim->nic_sleeping);
	if (asleep) {
		/* Its timed sleep (at most 1 ms) ends: it waits for the lock. */
		pause_us(3000);
		ck_assert_int_eq(pthread_create(&thread, NULL, kick, &k), 0);
		while (!load_int(&sim->kick_pending))
			sched_yield();
		/* The kick saw it asleep and now waits for the lock too. */
		pause_us(3000);
	}
	xskx__sim_unlock(sim);
	stuck = asleep && !wait_for(&k.done, 1);
	/* Stopping the thread hands the lock to a stuck kick. */
	ck_assert_int_eq(xskx_sim_stop(sim), 0);
	if (asleep)
		ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);
	ck_assert_msg(
		!stuck,
		"a kick waited for the lock while the NIC thread ran rounds back to back");
	return asleep;
}

START_TEST(kick_meets_busy_thread)
{
	uint32_t runs = 0;

	for (int attempt = 0; attempt < 20 && runs < 3; attempt++)
		runs += kick_while_waking();
	ck_assert_msg(runs > 0, "the NIC thread never slept");
}
END_TEST

/*
 * An application whose flag load overtook its producer store, played by
 * port B's XDP hook on the NIC thread: it watches a need_wakeup flag of
 * port A's socket and, once it has seen the flag clear and then up (the
 * NIC's look right after raising it done), publishes entries without a
 * kick — the store that became visible a moment too late.
 */
struct late_store {
	const uint32_t *flags;
	struct sim_ring_map *ring;
	bool fill; /* FILL entries, else one TX descriptor */
	bool seen_clear;
	uint32_t done; /* atomic */
};

static enum xskx_xdp_verdict late_store_hook(uint8_t *data, uint32_t len,
					     uint32_t queue, void *ctx)
{
	struct late_store *s = ctx;
	bool up = __atomic_load_n(s->flags, __ATOMIC_RELAXED) &
		  XDP_RING_NEED_WAKEUP;

	(void)data;
	(void)len;
	(void)queue;
	if (!up)
		s->seen_clear = true;
	else if (s->seen_clear &&
		 !__atomic_load_n(&s->done, __ATOMIC_RELAXED)) {
		if (s->fill)
			for (uint32_t i = 0; i < FRAMES / 2; i++)
				fill_put(s->ring, (uint64_t)i * CHUNK);
		else
			tx_put(s->ring, 1 * CHUNK, PKT_LEN);
		__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	}
	return XSKX_XDP_DROP;
}

/* Threaded machine, port A for the socket, port B busy with the hook. */
static void late_store_machine(struct raw *r, struct late_store *s)
{
	struct xskx_sim_port *busy;

	r->sim = machine(XSKX_SIM_THREADED);
	r->port = port_on(r->sim, false);
	busy = port_on(r->sim, false);
	ck_assert_int_eq(xskx_sim_port_set_xdp(busy, late_store_hook, s), 0);
	keep_busy(busy);
}

START_TEST(tx_published_as_flag_rose)
{
	struct late_store s = { .fill = false };
	struct raw r = { 0 };
	bool sent;

	late_store_machine(&r, &s);
	raw_socket(&r, false, false, true);
	ck_assert_int_eq(xskx__sim_xsk_bind(r.xs, r.port, 0,
				            XDP_ZEROCOPY | XDP_USE_NEED_WAKEUP, NULL),
			 0);
	s.flags = r.tx.flags;
	s.ring = &r.tx;
	ck_assert_int_eq(xskx_sim_start(r.sim), 0);
	/* One frame with a kick: TX wakes, sends, lingers, sleeps. */
	tx_put(&r.tx, 0, PKT_LEN);
	ck_assert_int_eq(xskx__sim_xsk_sendto(r.xs), 0);
	ck_assert_msg(wait_for(&s.done, 1),
		      "the TX flag never went down and up again");
	sent = wait_for(r.comp.producer, 2);
	ck_assert_int_eq(xskx_sim_stop(r.sim), 0);
	ck_assert_msg(
		sent,
		"TX stayed asleep with a descriptor published as its flag went up: %u of 2 completed",
		published(&r.comp));
	raw_close(&r);
}
END_TEST

START_TEST(fill_published_as_flag_rose)
{
	struct late_store s = { .fill = true, .seen_clear = true };
	struct raw r = { 0 };
	bool taken;

	late_store_machine(&r, &s);
	raw_socket(&r, false, true, false);
	s.flags = r.fill.flags;
	s.ring = &r.fill;
	ck_assert_int_eq(xskx_sim_start(r.sim), 0);
	/* FILL is empty: the flag goes up at bind. */
	ck_assert_int_eq(xskx__sim_xsk_bind(r.xs, r.port, 0,
				            XDP_ZEROCOPY | XDP_USE_NEED_WAKEUP, NULL),
			 0);
	ck_assert_msg(wait_for(&s.done, 1), "the FILL flag never went up");
	taken = wait_for(r.fill.consumer, FRAMES / 2);
	ck_assert_int_eq(xskx_sim_stop(r.sim), 0);
	ck_assert_msg(
		taken,
		"RX stayed asleep with FILL entries published as its flag went up: %u of %u taken",
		load_acquire(r.fill.consumer), FRAMES / 2);
	raw_close(&r);
}
END_TEST

/*
 * A zero-copy bind takes the frames xskx sizes for an MTU
 * (xskx_frame_size_for_mtu(), xskx_umem_max_mtu()): one L2 overhead,
 * lib/kernel_rules.h's, on both sides; four bytes more do not fit.
 */
START_TEST(zero_copy_fits_sized_mtu)
{
	const uint32_t mtu =
		CHUNK - XSKX_XDP_PACKET_HEADROOM - XSKX_L2_OVERHEAD;

	ck_assert_uint_eq(xskx_frame_size_for_mtu(mtu, 0), CHUNK);
	for (uint32_t extra = 0; extra <= 1; extra++) {
		struct xskx_sim_port_opts opts = { .sz = sizeof(opts),
						   .mtu = mtu + extra };
		struct raw r = { 0 };

		r.sim = machine(XSKX_SIM_DETERMINISTIC);
		ck_assert_int_eq(xskx_sim_port_create(r.sim, &opts, &r.port),
				 0);
		raw_socket(&r, false, true, false);
		ck_assert_int_eq(xskx__sim_xsk_bind(r.xs, r.port, 0, XDP_ZEROCOPY,
					            NULL),
				 extra ? -EINVAL : 0);
		raw_close(&r);
	}
}
END_TEST

static void add_case(Suite *suite, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test);
	suite_add_tcase(suite, tc);
}

static Suite *sim_rules_suite(void)
{
	Suite *suite = suite_create("sim_rules");

	add_case(suite, "unaligned_fill_offset", unaligned_fill_offset);
	add_case(suite, "copy_tx_completes_invalid", copy_tx_completes_invalid);
	add_case(suite, "copy_tx_budget", copy_tx_budget);
	add_case(suite, "zero_copy_fits_sized_mtu", zero_copy_fits_sized_mtu);
	add_case(suite, "kick_meets_busy_thread", kick_meets_busy_thread);
	add_case(suite, "tx_published_as_flag_rose", tx_published_as_flag_rose);
	add_case(suite, "fill_published_as_flag_rose",
		 fill_published_as_flag_rose);
	return suite;
}

/* All cases, or the one argv[1] names (in this process, as CTest runs it). */
int main(int argc, char **argv)
{
	SRunner *runner = srunner_create(sim_rules_suite());
	const char *only = argc > 1 ? argv[1] : NULL;
	int failed;

	if (only)
		srunner_set_fork_status(runner, CK_NOFORK);
	srunner_run(runner, NULL, only, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	if (only && !srunner_ntests_run(runner)) {
		fprintf(stderr, "no test case named %s\n", only);
		failed = 1;
	}
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
