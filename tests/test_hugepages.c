// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * UMEMs on 2 MiB hugepages (XSKX_UMEM_HUGEPAGES): refused with what to
 * reserve when the system has too few, and when reserved, an area the
 * kernel backs with hugepages, in which unaligned frames straddling 4 KiB
 * pages carry packets whole on the simulated NIC.
 *
 * The reserve (vm.nr_hugepages) is the system's: the case that raises it
 * needs root and sets it back afterwards, from the parent process, even
 * when the case fails. CTest runs these cases one at a time
 * (RESOURCE_LOCK hugepages).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "helpers.h"

#define HUGEPAGE (2u << 20)
#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
/* Unaligned frames of 3000 bytes: most of them straddle a 4 KiB page. */
#define FRAME 3000u
#define FRAMES 1400u /* 4.2 MB: three hugepages */
#define PKTS 256u
#define PKT_LEN 1500u

static long long meminfo(const char *name)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long value = -1;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) &&
		    line[strlen(name)] == ':')
			sscanf(line + strlen(name) + 1, "%lld", &value);
	fclose(f);
	return value;
}

static long long read_reserve(void)
{
	FILE *f = fopen(NR_HUGEPAGES, "r");
	long long n = -1;

	if (f) {
		if (fscanf(f, "%lld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static bool write_reserve(long long n)
{
	FILE *f = fopen(NR_HUGEPAGES, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%lld\n", n) > 0;
	return fclose(f) == 0 && ok;
}

START_TEST(caller_area_refused)
{
	XSKX_OPTS(xskx_umem_opts, o, .flags = XSKX_UMEM_HUGEPAGES);
	struct xskx_umem *umem = NULL;
	void *area = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(area, MAP_FAILED);
	o.area = area;
	o.size = 1u << 20;
	test_log_capture();
	ck_assert_int_eq(xskx_umem_create(&umem, &o), -EINVAL);
	ck_assert_msg(strstr(xskx_last_error(), "XSKX_UMEM_HUGEPAGES") &&
			      strstr(xskx_last_error(), "MAP_HUGETLB"),
		      "%s", xskx_last_error());
	munmap(area, 1u << 20);
}
END_TEST

/* One hugepage more than are free: -ENOMEM saying how to reserve them. */
START_TEST(too_few_reserved)
{
	long long free_pages = meminfo("HugePages_Free");
	XSKX_OPTS(xskx_umem_opts, o, .flags = XSKX_UMEM_HUGEPAGES,
		  .frame_size = 4096);
	struct xskx_umem *umem = NULL;
	char want[64];

	if (free_pages < 0)
		test_skip("no hugepage counters in /proc/meminfo: the kernel has no hugetlbfs");
	if (free_pages > 1024)
		test_skip("more than 1024 hugepages free: asking for more than that is a 2 GiB UMEM");
	o.frame_count = (uint32_t)((free_pages + 1) * (HUGEPAGE / 4096));
	test_log_capture();
	ck_assert_int_eq(xskx_umem_create(&umem, &o), -ENOMEM);
	snprintf(want, sizeof(want), "needs %lld free 2 MiB hugepages",
		 free_pages + 1);
	ck_assert_msg(strstr(xskx_last_error(), want) &&
			      strstr(xskx_last_error(), "vm.nr_hugepages"),
		      "%s", xskx_last_error());
}
END_TEST

/* The reserve before backed_by_hugepages raised it; -1: untouched. */
static long long saved_reserve = -1;


static void restore_hugepages(void)
{
	if (saved_reserve >= 0 && !write_reserve(saved_reserve))
		fprintf(stderr, "could not set %s back to %lld\n", NR_HUGEPAGES,
			saved_reserve);
	saved_reserve = -1;
}

static void reserve_hugepages(void)
{
	long long now = read_reserve();
	long long free_pages = meminfo("HugePages_Free");
	long long need = (FRAMES * (long long)FRAME + HUGEPAGE - 1) / HUGEPAGE;

	if (now < 0 || free_pages >= need)
		return;
	if (!write_reserve(now + need - free_pages))
		return; /* not root: the case says so */
	saved_reserve = now;
	/* A skip exits the process: set the reserve back then too. */
	atexit(restore_hugepages);
}


/* The kernel page size of the mapping that holds addr, in kB, or -1. */
static long kernel_page_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool inside = false;
	long kb = -1;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		/* A mapping's first line; its fields are "Name: value" lines. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (inside && sscanf(line, "KernelPageSize: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Frame i's data, written with its index, so that the receiver can tell. */
static void fill_packet(uint8_t *data, uint32_t i)
{
	for (uint32_t b = 0; b < PKT_LEN; b++)
		data[b] = (uint8_t)(i * 7 + b);
}

START_TEST(backed_by_hugepages)
{
	XSKX_OPTS(xskx_umem_opts, uo, .frame_size = FRAME, .frame_count = FRAMES,
		  .flags = XSKX_UMEM_HUGEPAGES | XSKX_UMEM_UNALIGNED);
	XSKX_OPTS(xskx_sim_opts, so, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_socket_opts, tx_opts, .flags = XSKX_SOCKET_NO_RX,
		  .tx_reserve = PKTS);
	XSKX_OPTS(xskx_socket_opts, rx_opts, .flags = XSKX_SOCKET_NO_TX);
	struct xskx_sim_port *a, *b;
	struct xskx_socket *tx, *rx;
	struct xskx_umem *umem;
	struct xskx_sim *sim;
	uint64_t frames[PKTS];
	struct xskx_pkt pkts[PKTS];
	uint32_t straddling = 0, received = 0;
	uint8_t *area;
	char why[384];
	int err;

	err = xskx_umem_create(&umem, &uo);
	if (err == -ENOMEM && getuid())
		test_skip("no hugepages free and not root: cannot reserve any (vm.nr_hugepages)");
	if (err == -ENOMEM && meminfo("HugePages_Free") <
				      (FRAMES * (long long)FRAME + HUGEPAGE - 1) /
					      HUGEPAGE)
		test_skip("the kernel could not find the contiguous memory to reserve hugepages");
	ck_assert_msg(!err, "%s", xskx_last_error());
	area = xskx_umem_area(umem);
	ck_assert_int_eq(kernel_page_kb(area), 2048);

	ck_assert_int_eq(xskx_sim_create(&sim, &so), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, NULL, &a), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, NULL, &b), 0);
	ck_assert_int_eq(xskx_sim_wire(a, b), 0);
	tx_opts.port = test_port(a);
	rx_opts.port = test_port(b);
	ck_assert_int_eq(xskx_socket_open(&rx, umem, &rx_opts), 0);
	ck_assert_int_eq(xskx_socket_open(&tx, umem, &tx_opts), 0);
	ck_assert_int_eq(xskx_rx_burst(rx, NULL, 0), 0);

	ck_assert_uint_eq(xskx_frame_alloc(umem, frames, PKTS), PKTS);
	for (uint32_t i = 0; i < PKTS; i++) {
		uint64_t at = xskx_umem_tx_addr(umem, frames[i]);

		fill_packet(area + at, i);
		straddling += at / 4096 != (at + PKT_LEN - 1) / 4096;
		pkts[i] = (struct xskx_pkt){ .addr = at, .len = PKT_LEN };
	}
	ck_assert_uint_gt(straddling, PKTS / 4);
	for (uint32_t sent = 0, round = 0; sent < PKTS && round < 1000; round++) {
		int n = xskx_tx_burst(tx, pkts + sent, PKTS - sent);

		ck_assert_int_ge(n, 0);
		sent += (uint32_t)n;
		xskx_sim_poll(sim);
	}
	for (uint32_t round = 0; received < PKTS && round < 1000; round++) {
		struct xskx_pkt got[64];
		int n;

		xskx_sim_poll(sim);
		n = xskx_rx_burst(rx, got, 64);
		ck_assert_int_ge(n, 0);
		for (int k = 0; k < n; k++) {
			uint8_t want[PKT_LEN];

			fill_packet(want, received + (uint32_t)k);
			ck_assert_uint_eq(got[k].len, PKT_LEN);
			ck_assert_msg(!memcmp(got[k].data, want, PKT_LEN),
				      "packet %u arrived changed",
				      received + (uint32_t)k);
		}
		ck_assert_int_eq(xskx_rx_release(rx, got, (uint32_t)n), 0);
		received += (uint32_t)n;
	}
	ck_assert_uint_eq(received, PKTS);
	for (int round = 0; round < 100; round++) {
		xskx_sim_poll(sim);
		xskx_tx_reclaim(tx);
	}
	ck_assert_int_eq(xskx_socket_close(tx), 0);
	ck_assert_int_eq(xskx_socket_close(rx), 0);
	ck_assert_msg(test_census_all_in_pool(umem, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(test_sim_destroy(sim), 0);
}
END_TEST

static Suite *hugepages_suite(void)
{
	Suite *s = suite_create("hugepages");
	TCase *tc;

	tc = tcase_create("caller_area_refused");
	tcase_add_test(tc, caller_area_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("too_few_reserved");
	tcase_add_test(tc, too_few_reserved);
	suite_add_tcase(s, tc);
	tc = tcase_create("backed_by_hugepages");
	tcase_add_unchecked_fixture(tc, reserve_hugepages, restore_hugepages);
	tcase_add_test(tc, backed_by_hugepages);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(hugepages_suite(), argc, argv);
}
