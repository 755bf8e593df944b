/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every test program shares: running a Check suite (all of it, or the
 * one test case CTest names on the command line), the "skipped" exit code,
 * capturing the library's log, and the frame census check.
 */
#ifndef XSKX_TEST_HELPERS_H
#define XSKX_TEST_HELPERS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xskx-sim/sim.h>
#include <xskx/xskx.h>

/* Exit code of a test that cannot run here; CTest's SKIP_RETURN_CODE. */
#define TEST_EXIT_SKIP 77

/*
 * Run the suite: every test case, or only the one named by argv[1]. A single
 * case runs in this process (CK_NOFORK), so that test_skip() can end it with
 * TEST_EXIT_SKIP; the whole suite forks per test as Check does by default.
 * Returns the process exit code.
 */
int test_main(Suite *suite, int argc, char **argv);

/* Add a test case of one test, named name (argv[1] of test_main()). */
void test_add_case(Suite *suite, const char *name, const TTest *test);

/* End the test program as "skipped", saying why on stderr. */
void test_skip(const char *why) __attribute__((noreturn));

/* True when the running kernel is major.minor or newer (uname). */
bool test_kernel_at_least(unsigned int major, unsigned int minor);

/*
 * A ring's need_wakeup flag, read atomically: libxdp's
 * xsk_ring_prod__needs_wakeup() reads it plainly, which ThreadSanitizer
 * reports as a race with the simulated NIC's thread that writes it.
 */
static inline bool test_needs_wakeup(const struct xsk_ring_prod *ring)
{
	return __atomic_load_n(ring->flags, __ATOMIC_RELAXED) &
	       XDP_RING_NEED_WAKEUP;
}

/*
 * Route the library's log into a buffer: afterwards test_log_count() says
 * how many messages arrived since the last test_log_reset() and
 * test_log_last() gives the newest one.
 */
void test_log_capture(void);
void test_log_reset(void);
unsigned int test_log_count(void);
const char *test_log_last(void);

/*
 * Every frame of umem is somewhere (census total == frame count; a real
 * check only where the peer counts the frames it holds, see nic_counted) and
 * the application holds exactly app_expected of them. Returns false with the
 * census spelled out in why.
 */
bool test_census_ok(struct xskx_umem *umem, uint32_t app_expected, char *why,
		    size_t why_size);

/*
 * The library's port (xskx/port.h) on simulated port p: opened on first
 * use, the same one after, closed by test_sim_destroy(). For tests that
 * open sockets on simulated ports and have no use for the port otherwise.
 * Fails the test when the port cannot be opened.
 */
struct xskx_port *test_port(struct xskx_sim_port *p);

/*
 * Close every port test_port() opened (their sockets must be closed; one
 * simulated machine at a time), then xskx_sim_destroy(sim). Returns that
 * call's result.
 */
int test_sim_destroy(struct xskx_sim *sim);

/* The census of umem when every frame must be back in the pool. */
bool test_census_all_in_pool(struct xskx_umem *umem, char *why,
			     size_t why_size);

/*
 * The end of a test on one simulated machine, its sockets closed: every
 * frame of umem back in its pool (the census spelled out otherwise), then
 * umem and sim destroyed without error.
 */
void test_sim_teardown(struct xskx_sim *sim, struct xskx_umem *umem);

/*
 * A simulated port's sink (xskx_sim_port_set_sink()) that counts what the
 * port hands it into the uint64_t ctx points to. Deterministic mode: the
 * count is read after the NIC has run.
 */
void test_sink_count(enum xskx_sim_sink_kind kind, const uint8_t *data,
		     uint32_t len, uint32_t queue, void *ctx);

/* A simulated port's XDP hook (xskx_sim_port_set_xdp()): XDP_PASS. */
enum xskx_xdp_verdict test_xdp_pass(uint8_t *data, uint32_t len, uint32_t queue,
				    void *ctx);

/*
 * One simulated machine in deterministic mode, one port on it and a UMEM,
 * with the packets the port hands to the stack counted: the fixture of
 * the tests that look at a simulated NIC through its sockets.
 */
struct test_sim_nic {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	uint64_t stack_packets; /* read after the NIC has run */
};

/* Create it; umem_opts NULL for the defaults. Fails the test on error. */
void test_sim_nic_create(struct test_sim_nic *nic,
			 const struct xskx_sim_port_opts *port_opts,
			 const struct xskx_umem_opts *umem_opts);

/* Its sockets closed: test_sim_teardown() of its machine and UMEM. */
void test_sim_nic_destroy(struct test_sim_nic *nic);

/*
 * One socket on a simulated NIC, the packets its port transmits recorded:
 * a machine in deterministic mode, one port, a UMEM and the socket. The
 * fixture of the tests that drive one socket (the batch and verdict calls,
 * an XDP hook on received chains).
 */
#define TEST_RIG_WIRE_MAX 64u
struct test_rig {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
	uint64_t wire; /* packets the port transmitted, after the NIC ran */
	/* Of the first TEST_RIG_WIRE_MAX of them: */
	uint32_t wire_len[TEST_RIG_WIRE_MAX];
	uint32_t wire_seq[TEST_RIG_WIRE_MAX];  /* test_seq_of() */
	uint8_t wire_first[TEST_RIG_WIRE_MAX]; /* the first byte */
};

/*
 * Open it: the port of port_opts, the UMEM of umem_opts and the socket of
 * sock_opts (its port set here), the library's log captured
 * (test_log_capture()). FILL is still empty, so that other sockets may
 * join the UMEM first: test_rig_fill() hands it to the NIC. Fails the test
 * on error.
 */
void test_rig_open(struct test_rig *rig,
		   const struct xskx_sim_port_opts *port_opts,
		   const struct xskx_umem_opts *umem_opts,
		   const struct xskx_socket_opts *sock_opts);

/* Hand FILL to the NIC before anything arrives. */
void test_rig_fill(struct test_rig *rig);

/*
 * The rig of the tests of an XDP hook on received chains: a port of MTU
 * 9000 taking chains of up to 8 fragments, in zero-copy or (copy_mode) in
 * copy mode, checked; hook installed on it (xskx_sim_port_set_xdp_buff());
 * a UMEM of frame_count 2048-byte frames and rings of that many entries; a
 * multi-buffer RX-only socket, FILL handed to the NIC.
 */
void test_rig_open_xdp_rx(struct test_rig *rig, bool copy_mode,
			  uint32_t frame_count, xskx_sim_xdp_buff_fn hook,
			  void *ctx);

/*
 * Let TX finish (ten rounds of the NIC and xskx_tx_reclaim()), close the
 * socket, then test_sim_teardown(): every frame came home. The log goes
 * back to its default.
 */
void test_rig_destroy(struct test_rig *rig);

/*
 * A frame of len bytes (at least 18), an Ethernet header then seq in bytes
 * 14..17, the rest zero, into port.
 */
void test_inject_seq(struct xskx_sim_port *port, uint32_t seq, uint32_t len);

/* The seq of a frame test_inject_seq() made. */
uint32_t test_seq_of(const uint8_t *data);

#endif /* XSKX_TEST_HELPERS_H */
