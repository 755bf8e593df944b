// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Option validation on the simulated NIC: a port, a UMEM and up to three
 * sockets created from fuzzed option structs (every byte of them, sz
 * included, with a tail past the struct; pointers only ones the harness
 * owns, bools 0 or 1). Every call returns 0 or a negative errno and, when it fails, logs
 * an error message; nothing crashes. Whatever was created is then torn
 * down, and teardown must succeed: sockets close, every frame is back in
 * the pool, the UMEM and the machine are destroyed, and nothing leaks
 * (LeakSanitizer, at the end of the run).
 *
 * Sizes that only cost memory are scaled down before the call so that one
 * input stays fast: a library-mapped UMEM holds at most 1024 frames (or
 * the default 4096), a caller's area at most 4 MiB, a valid ring size above
 * 64Ki entries is divided by 256 (a power of two stays one, an invalid size
 * stays invalid), a port has at most 8 queues unless it has too many.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

#include "fuzz.h"

#define TAIL 32 /* bytes past each struct, for sz larger than it */
#define AREA_MAX (4u << 20)

static unsigned int errors_logged;

static void count_errors(enum xskx_log_level level, const char *msg,
			 void *ctx)
{
	(void)msg;
	(void)ctx;
	if (level == XSKX_LOG_ERROR)
		errors_logged++;
}

/* A call's result: 0, or a negative errno it explained. */
#define CHECK_RESULT(what, r)                                                 \
	FUZZ_CHECK((r) == 0 || ((r) < 0 && (r) > -4096 && errors_logged),      \
		   "%s returned %d with %u messages", what, r, errors_logged)

/* Fill a struct of `size` bytes and its tail, then choose its sz. */
static void fill_opts(struct fuzz_in *in, void *opts, size_t size)
{
	uint8_t *bytes = opts;
	uint8_t how = fuzz_u8(in);
	size_t sz;

	memset(bytes, 0, size + TAIL);
	for (size_t i = sizeof(size_t); i < size + TAIL && fuzz_left(in); i++)
		bytes[i] = (how & 4) || i < size ? fuzz_u8(in) : 0;
	/*
	 * Mostly sizeof, else an older or newer caller's struct (a multiple
	 * of 8, as every struct that starts with a size_t is, so no pointer is
	 * cut in two), else one too small to hold sz itself.
	 */
	switch (how & 3) {
	case 0:
	case 1:
		sz = size;
		break;
	case 2:
		sz = 8 * (1 + fuzz_u8(in) % ((size + TAIL) / 8));
		break;
	default:
		sz = fuzz_u8(in) % sizeof(size_t);
	}
	memcpy(bytes, &sz, sizeof(sz));
}

static uint32_t scale_ring(uint32_t size)
{
	return size > 65536 && size <= XSKX_RING_MAX_SIZE ? size >> 8 : size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size, 0 };
	union {
		struct xskx_sim_port_opts o;
		uint8_t bytes[sizeof(struct xskx_sim_port_opts) + TAIL];
	} port_opts;
	union {
		struct xskx_umem_opts o;
		uint8_t bytes[sizeof(struct xskx_umem_opts) + TAIL];
	} umem_opts;
	union {
		struct xskx_port_opts o;
		uint8_t bytes[sizeof(struct xskx_port_opts) + TAIL];
	} lib_port_opts;
	union {
		struct xskx_socket_opts o;
		uint8_t bytes[sizeof(struct xskx_socket_opts) + TAIL];
	} sock_opts;
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_sim_port_opts, default_port, .name = "fz1");
	struct xskx_sim_port *ports[2] = { NULL, NULL };
	struct xskx_port *lib_ports[2] = { NULL, NULL };
	struct xskx_socket *socks[3] = { NULL, NULL, NULL };
	struct xskx_umem *umem = NULL;
	struct xskx_sim *sim = NULL;
	void *area = MAP_FAILED;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), area_size = 0;
	int r;

	xskx_set_log_level(XSKX_LOG_WARN);
	xskx_set_log(count_errors, NULL);
	FUZZ_CHECK(!xskx_sim_create(&sim, &sim_opts), "xskx_sim_create");

	/* ports[0] from fuzzed options; ports[1] a default one. */
	fill_opts(&in, &port_opts, sizeof(port_opts.o));
	port_opts.o.name = fuzz_u8(&in) % 2 ? "fz0" : NULL;
	/* A bool holds 0 or 1: anything else is the caller's undefined
	 * behaviour, not the library's. */
	port_opts.bytes[offsetof(struct xskx_sim_port_opts, no_zero_copy)] &= 1;
	if (port_opts.o.queues <= 256)
		port_opts.o.queues %= 9;
	errors_logged = 0;
	r = xskx_sim_port_create(sim, &port_opts.o, &ports[0]);
	CHECK_RESULT("xskx_sim_port_create", r);
	FUZZ_CHECK(!xskx_sim_port_create(sim, &default_port, &ports[1]),
		   "default port: %s", xskx_last_error());

	/* The library's port on ports[0] from fuzzed options, if any. */
	fill_opts(&in, &lib_port_opts, sizeof(lib_port_opts.o));
	lib_port_opts.o.xdp_obj = NULL;
	lib_port_opts.bytes[offsetof(struct xskx_port_opts, xdp_fallback)] &= 1;
	errors_logged = 0;
	r = ports[0] ? xskx_port_open_sim(&lib_ports[0], ports[0],
					  &lib_port_opts.o) : 0;
	CHECK_RESULT("xskx_port_open_sim", r);
	FUZZ_CHECK(!xskx_port_open_sim(&lib_ports[1], ports[1], NULL),
		   "default library port: %s", xskx_last_error());

	fill_opts(&in, &umem_opts, sizeof(umem_opts.o));
	umem_opts.o.fill_size = scale_ring(umem_opts.o.fill_size);
	umem_opts.o.comp_size = scale_ring(umem_opts.o.comp_size);
	if (fuzz_u8(&in) % 4 == 0) {
		/* A caller's area, page-aligned or not, inside our mapping. */
		size_t offset = fuzz_u8(&in) % 2 ? 0 : fuzz_u16(&in) % page;

		area_size = AREA_MAX + page;
		area = mmap(NULL, area_size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FUZZ_CHECK(area != MAP_FAILED, "mmap");
		umem_opts.o.area = (uint8_t *)area + offset;
		umem_opts.o.size %= AREA_MAX + 1;
	} else {
		umem_opts.o.area = NULL;
		if (umem_opts.o.frame_count > 1024)
			umem_opts.o.frame_count %= 1024;
	}
	errors_logged = 0;
	r = xskx_umem_create(&umem, &umem_opts.o);
	CHECK_RESULT("xskx_umem_create", r);
	FUZZ_CHECK(!r == !!umem, "returned %d, umem %p", r, (void *)umem);

	for (unsigned int i = 0; umem && i < 3 && fuzz_left(&in); i++) {
		uint8_t port = fuzz_u8(&in) % 3;

		fill_opts(&in, &sock_opts, sizeof(sock_opts.o));
		sock_opts.o.port = port < 2 ? lib_ports[port] : NULL;
		sock_opts.o.rx_size = scale_ring(sock_opts.o.rx_size);
		sock_opts.o.tx_size = scale_ring(sock_opts.o.tx_size);
		errors_logged = 0;
		r = xskx_socket_open(&socks[i], umem, &sock_opts.o);
		CHECK_RESULT("xskx_socket_open", r);
		FUZZ_CHECK(!r == !!socks[i], "returned %d, socket %p", r,
			   (void *)socks[i]);
		/* Let the shares settle and the NIC take what it was given. */
		if (socks[i]) {
			xskx_rx_burst(socks[i], NULL, 0);
			xskx_sim_poll(sim);
		}
	}

	for (int i = 2; i >= 0; i--) {
		if (socks[i]) {
			r = xskx_socket_close(socks[i]);
			FUZZ_CHECK(!r, "close: %d %s", r, xskx_last_error());
		}
	}
	if (umem) {
		struct xskx_frame_census c;

		FUZZ_CHECK(!xskx_umem_census(umem, &c), "census");
		FUZZ_CHECK(c.pool == xskx_umem_frame_count(umem) &&
				   !c.unaccounted,
			   "after closing: pool %u of %u, unaccounted %lld",
			   c.pool, xskx_umem_frame_count(umem),
			   (long long)c.unaccounted);
		r = xskx_umem_destroy(umem);
		FUZZ_CHECK(!r, "umem destroy: %d %s", r, xskx_last_error());
	}
	for (int i = 0; i < 2; i++) {
		r = xskx_port_close(lib_ports[i]);
		FUZZ_CHECK(!r, "port close: %d %s", r, xskx_last_error());
	}
	r = xskx_sim_destroy(sim);
	FUZZ_CHECK(!r, "sim destroy: %d %s", r, xskx_last_error());
	if (area != MAP_FAILED)
		munmap(area, area_size);
	xskx_set_log(NULL, NULL);
	return 0;
}
