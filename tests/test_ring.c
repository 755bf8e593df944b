// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The application side of the rings (libxdp's inline operations plus
 * xskx/ring.h) over rings laid out by hand, with this file playing the
 * kernel's side. Indices start just below 2^32 so that both the producer and
 * the consumer index wrap during the test.
 */
#include <stdint.h>
#include <stdlib.h>

#include "helpers.h"

#define RING_SIZE 16u
#define NEAR_WRAP (UINT32_MAX - 20u)

/* The shared memory of one ring, as the kernel maps it. */
struct hand_ring {
	uint32_t producer;
	uint32_t consumer;
	uint32_t flags;
	uint64_t addrs[RING_SIZE];	  /* FILL / COMPLETION entries */
	struct xdp_desc descs[RING_SIZE]; /* RX / TX entries */
};

/* A ring the application produces to (FILL, TX), starting at index start. */
static void prod_init(struct xsk_ring_prod *r, struct hand_ring *h,
		      void *entries, uint32_t start)
{
	h->producer = start;
	h->consumer = start;
	h->flags = 0;
	r->cached_prod = start;
	r->cached_cons = start + RING_SIZE; /* libxdp keeps it size ahead */
	r->mask = RING_SIZE - 1;
	r->size = RING_SIZE;
	r->producer = &h->producer;
	r->consumer = &h->consumer;
	r->ring = entries;
	r->flags = &h->flags;
}

/* A ring the application consumes from (RX, COMPLETION). */
static void cons_init(struct xsk_ring_cons *r, struct hand_ring *h,
		      void *entries, uint32_t start)
{
	h->producer = start;
	h->consumer = start;
	h->flags = 0;
	r->cached_prod = start;
	r->cached_cons = start;
	r->mask = RING_SIZE - 1;
	r->size = RING_SIZE;
	r->producer = &h->producer;
	r->consumer = &h->consumer;
	r->ring = entries;
	r->flags = &h->flags;
}

/* The kernel takes up to max published FILL entries, checking their values. */
static uint32_t kernel_take_addrs(struct hand_ring *h, uint32_t max,
				  uint64_t *next_expected)
{
	uint32_t cons = __atomic_load_n(&h->consumer, __ATOMIC_RELAXED);
	uint32_t avail = __atomic_load_n(&h->producer, __ATOMIC_ACQUIRE) - cons;
	uint32_t n = avail < max ? avail : max;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t got = h->addrs[(cons + i) & (RING_SIZE - 1)];

		ck_assert_msg(
			got == *next_expected,
			"kernel read entry %llu at index %u, expected %llu",
			(unsigned long long)got, cons + i,
			(unsigned long long)*next_expected);
		(*next_expected)++;
	}
	__atomic_store_n(&h->consumer, cons + n, __ATOMIC_RELEASE);
	return n;
}

/* The kernel publishes n RX descriptors numbered from *next. */
static void kernel_put_descs(struct hand_ring *h, uint32_t n, uint64_t *next)
{
	uint32_t prod = __atomic_load_n(&h->producer, __ATOMIC_RELAXED);

	ck_assert_uint_le(
		prod - __atomic_load_n(&h->consumer, __ATOMIC_ACQUIRE) + n,
		RING_SIZE);
	for (uint32_t i = 0; i < n; i++) {
		struct xdp_desc *d = &h->descs[(prod + i) & (RING_SIZE - 1)];

		d->addr = *next * 4096;
		d->len = (uint32_t)(60 + *next % 1000);
		d->options = 0;
		(*next)++;
	}
	__atomic_store_n(&h->producer, prod + n, __ATOMIC_RELEASE);
}

START_TEST(reserve_stops_at_full_and_resumes_after_consume)
{
	struct hand_ring h;
	struct xsk_ring_prod fill;
	uint64_t expected = 0, value = 0;
	uint32_t idx;

	prod_init(&fill, &h, h.addrs, 0);
	ck_assert_uint_eq(xskx_ring_prod_free(&fill), RING_SIZE);
	ck_assert_uint_eq(xsk_ring_prod__reserve(&fill, RING_SIZE, &idx),
			  RING_SIZE);
	for (uint32_t i = 0; i < RING_SIZE; i++)
		*xsk_ring_prod__fill_addr(&fill, idx + i) = value++;
	ck_assert_uint_eq(xsk_ring_prod__reserve(&fill, 1, &idx), 0);
	ck_assert_uint_eq(xskx_ring_prod_free(&fill), 0);
	ck_assert_uint_eq(xskx_ring_prod_queued(&fill), 0); /* not submitted */

	xsk_ring_prod__submit(&fill, RING_SIZE);
	ck_assert_uint_eq(xskx_ring_prod_queued(&fill), RING_SIZE);

	ck_assert_uint_eq(kernel_take_addrs(&h, 3, &expected), 3);
	ck_assert_uint_eq(xskx_ring_prod_queued(&fill), RING_SIZE - 3);
	ck_assert_uint_eq(xskx_ring_prod_free(&fill), 3);
	ck_assert_uint_eq(xsk_ring_prod__reserve(&fill, 4, &idx), 0);
	ck_assert_uint_eq(xsk_ring_prod__reserve(&fill, 3, &idx), 3);
	ck_assert_uint_eq(idx, RING_SIZE);
}
END_TEST

START_TEST(producer_wraps_past_2_32)
{
	struct hand_ring h;
	struct xsk_ring_prod fill;
	uint64_t expected = 0, value = 0;
	bool wrapped = false;

	prod_init(&fill, &h, h.addrs, NEAR_WRAP);
	for (uint32_t round = 0; round < 200; round++) {
		uint32_t want = 1 + round % 5, idx;
		uint32_t queued_before = xskx_ring_prod_queued(&fill);

		ck_assert_uint_eq(xskx_ring_prod_free(&fill),
				  RING_SIZE - queued_before);
		ck_assert_uint_eq(xsk_ring_prod__reserve(&fill, want, &idx),
				  want);
		for (uint32_t i = 0; i < want; i++)
			*xsk_ring_prod__fill_addr(&fill, idx + i) = value++;
		xsk_ring_prod__submit(&fill, want);
		ck_assert_uint_eq(xskx_ring_prod_queued(&fill),
				  queued_before + want);

		/* The kernel leaves up to two entries behind, so the ring is rarely empty. */
		uint32_t queued = xskx_ring_prod_queued(&fill);
		uint32_t left = round % 3 < queued ? round % 3 : queued;

		ck_assert_uint_eq(kernel_take_addrs(&h, queued - left,
						    &expected),
				  queued - left);
		wrapped |= h.producer < NEAR_WRAP;
	}
	kernel_take_addrs(&h, RING_SIZE, &expected);
	ck_assert_msg(wrapped, "the producer index never wrapped");
	ck_assert(h.consumer < NEAR_WRAP);
	ck_assert_uint_eq(expected, value);
	ck_assert_uint_eq(xskx_ring_prod_queued(&fill), 0);
	ck_assert_uint_eq(xskx_ring_prod_free(&fill), RING_SIZE);
}
END_TEST

START_TEST(cancel_gives_back_the_unfilled_tail_across_the_wrap)
{
	struct hand_ring h;
	struct xsk_ring_prod tx;
	uint64_t expected = 0;
	uint32_t idx, idx2;

	prod_init(&tx, &h, h.addrs, UINT32_MAX - 1);
	ck_assert_uint_eq(xsk_ring_prod__reserve(&tx, 6, &idx), 6);
	for (uint32_t i = 0; i < 4; i++)
		*xsk_ring_prod__fill_addr(&tx, idx + i) = i;
	xskx_ring_prod_cancel(&tx, 2);
	xsk_ring_prod__submit(&tx, 4);
	ck_assert_uint_eq(h.producer, (uint32_t)(UINT32_MAX - 1 + 4));
	ck_assert_uint_eq(xskx_ring_prod_queued(&tx), 4);
	ck_assert_uint_eq(xskx_ring_prod_free(&tx), RING_SIZE - 4);

	/* The next reservation starts right after the submitted entries. */
	ck_assert_uint_eq(xsk_ring_prod__reserve(&tx, 1, &idx2), 1);
	ck_assert_uint_eq(idx2, idx + 4);
	*xsk_ring_prod__fill_addr(&tx, idx2) = 4;
	xsk_ring_prod__submit(&tx, 1);
	ck_assert_uint_eq(kernel_take_addrs(&h, RING_SIZE, &expected), 5);
	ck_assert_uint_eq(expected, 5);
}
END_TEST

START_TEST(consumer_peek_release_wraps_past_2_32)
{
	struct hand_ring h;
	struct xsk_ring_cons rx;
	uint64_t produced = 0, seen = 0;
	bool wrapped = false;

	cons_init(&rx, &h, h.descs, NEAR_WRAP);
	for (uint32_t round = 0; round < 200; round++) {
		uint32_t n = 1 + round % 7, idx, got;
		uint32_t max = 1 + round % 4;

		kernel_put_descs(&h, n, &produced);
		ck_assert_uint_eq(xskx_ring_cons_queued(&rx), n);
		/* Peek in pieces no larger than max; release each piece. */
		while ((got = xsk_ring_cons__peek(&rx, max, &idx))) {
			ck_assert_uint_le(got, max);
			for (uint32_t i = 0; i < got; i++) {
				const struct xdp_desc *d =
					xsk_ring_cons__rx_desc(&rx, idx + i);

				ck_assert_uint_eq(d->addr, seen * 4096);
				ck_assert_uint_eq(d->len, 60 + seen % 1000);
				seen++;
			}
			xsk_ring_cons__release(&rx, got);
		}
		ck_assert_uint_eq(xskx_ring_cons_queued(&rx), 0);
		wrapped |= h.consumer < NEAR_WRAP;
	}
	ck_assert_msg(wrapped, "the consumer index never wrapped");
	ck_assert_uint_eq(seen, produced);
}
END_TEST

START_TEST(consumer_cancel_returns_entries_to_the_next_peek)
{
	struct hand_ring h;
	struct xsk_ring_cons rx;
	uint64_t produced = 0;
	uint32_t idx, again;

	cons_init(&rx, &h, h.descs, UINT32_MAX - 2);
	kernel_put_descs(&h, 6, &produced);
	ck_assert_uint_eq(xsk_ring_cons__peek(&rx, 6, &idx), 6);
	xsk_ring_cons__cancel(&rx, 4);
	xsk_ring_cons__release(&rx, 2);
	ck_assert_uint_eq(xskx_ring_cons_queued(&rx), 4);
	ck_assert_uint_eq(xsk_ring_cons__peek(&rx, 16, &again), 4);
	ck_assert_uint_eq(again, idx + 2);
	ck_assert_uint_eq(xsk_ring_cons__rx_desc(&rx, again)->addr, 2 * 4096);
	xsk_ring_cons__release(&rx, 4);
	ck_assert_uint_eq(xsk_ring_cons__peek(&rx, 16, &again), 0);
	ck_assert_uint_eq(h.consumer, (uint32_t)(UINT32_MAX - 2 + 6));
}
END_TEST

START_TEST(needs_wakeup_reads_the_shared_flag)
{
	struct hand_ring h;
	struct xsk_ring_prod tx;

	prod_init(&tx, &h, h.descs, 0);
	ck_assert(!xsk_ring_prod__needs_wakeup(&tx));
	__atomic_store_n(&h.flags, XDP_RING_NEED_WAKEUP, __ATOMIC_RELEASE);
	ck_assert(xsk_ring_prod__needs_wakeup(&tx));
}
END_TEST

START_TEST(umem_addr_data_in_both_chunk_modes)
{
	static uint8_t area[8 * 4096];
	uint64_t base = 3 * 4096 + 256;
	uint64_t with_offset =
		((uint64_t)100 << XSK_UNALIGNED_BUF_OFFSET_SHIFT) | base;

	ck_assert_ptr_eq(xskx_umem_addr_data(area, base), area + base);
	ck_assert_ptr_eq(xskx_umem_addr_data(area, with_offset),
			 area + base + 100);
}
END_TEST

static Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("ring");

	tcase_add_test(tc, reserve_stops_at_full_and_resumes_after_consume);
	tcase_add_test(tc, producer_wraps_past_2_32);
	tcase_add_test(tc, cancel_gives_back_the_unfilled_tail_across_the_wrap);
	tcase_add_test(tc, consumer_peek_release_wraps_past_2_32);
	tcase_add_test(tc, consumer_cancel_returns_entries_to_the_next_peek);
	tcase_add_test(tc, needs_wakeup_reads_the_shared_flag);
	tcase_add_test(tc, umem_addr_data_in_both_chunk_modes);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(ring_suite(), argc, argv);
}
