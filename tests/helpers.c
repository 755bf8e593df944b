// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "helpers.h"

void test_add_case(Suite *suite, const char *name, const TTest *test)
{
	TCase *tc = tcase_create(name);

	tcase_add_test(tc, test);
	suite_add_tcase(suite, tc);
}

int test_main(Suite *suite, int argc, char **argv)
{
	SRunner *runner = srunner_create(suite);
	const char *only_case = argc > 1 ? argv[1] : NULL;
	int failed;

	if (only_case)
		srunner_set_fork_status(runner, CK_NOFORK);
	srunner_run(runner, NULL, only_case, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	if (only_case && !srunner_ntests_run(runner)) {
		fprintf(stderr, "no test case named %s\n", only_case);
		failed = 1;
	}
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

bool test_kernel_at_least(unsigned int major, unsigned int minor)
{
	struct utsname u;
	unsigned int have_major = 0, have_minor = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%u.%u", &have_major, &have_minor),
			 2);
	return have_major > major ||
	       (have_major == major && have_minor >= minor);
}

void test_skip(const char *why)
{
	fprintf(stderr, "SKIP: %s\n", why);
	fflush(NULL);
	exit(TEST_EXIT_SKIP);
}

static unsigned int log_count;
static char log_last[512];

static void capture(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	log_count++;
	snprintf(log_last, sizeof(log_last), "%s", msg);
}

void test_log_capture(void)
{
	xskx_set_log_level(XSKX_LOG_WARN);
	xskx_set_log(capture, NULL);
	test_log_reset();
}

void test_log_reset(void)
{
	log_count = 0;
	log_last[0] = '\0';
}

unsigned int test_log_count(void)
{
	return log_count;
}

const char *test_log_last(void)
{
	return log_last;
}

static void census_describe(const struct xskx_frame_census *c, char *why,
			    size_t why_size, const char *problem)
{
	snprintf(
		why, why_size,
		"%s: pool %u fill %u nic %u rx %u app %u tx %u comp %u = total %u (nic %s), unaccounted %lld, double_frees %llu, foreign_frees %llu",
		problem, c->pool, c->fill, c->nic, c->rx, c->app, c->tx,
		c->comp, c->total, c->nic_counted ? "counted" : "derived",
		(long long)c->unaccounted,
		(unsigned long long)c->double_frees,
		(unsigned long long)c->foreign_frees);
}

bool test_census_ok(struct xskx_umem *umem, uint32_t app_expected, char *why,
		    size_t why_size)
{
	struct xskx_frame_census c;
	uint32_t frames = xskx_umem_frame_count(umem);
	char problem[96];
	int err;

	memset(&c, 0, sizeof(c));
	err = xskx_umem_census(umem, &c);
	if (err) {
		snprintf(why, why_size, "xskx_umem_census: %s",
			 xskx_strerror(err));
		return false;
	}
	if (c.pool + c.fill + c.nic + c.rx + c.app + c.tx + c.comp != c.total) {
		census_describe(&c, why, why_size,
				"census parts do not add up to its total");
		return false;
	}
	if (c.double_frees || c.foreign_frees) {
		census_describe(&c, why, why_size,
				"frames were given back twice or from outside the UMEM");
		return false;
	}
	if (c.unaccounted) {
		census_describe(&c, why, why_size, "frames are unaccounted for");
		return false;
	}
	if (c.total != frames) {
		snprintf(problem, sizeof(problem),
			 "census total %u != %u frames in the UMEM", c.total,
			 frames);
		census_describe(&c, why, why_size, problem);
		return false;
	}
	if (c.app != app_expected) {
		snprintf(problem, sizeof(problem),
			 "application holds %u frames, expected %u", c.app,
			 app_expected);
		census_describe(&c, why, why_size, problem);
		return false;
	}
	return true;
}

bool test_census_all_in_pool(struct xskx_umem *umem, char *why, size_t why_size)
{
	struct xskx_frame_census c;
	uint32_t frames = xskx_umem_frame_count(umem);
	char problem[96];
	int err;

	memset(&c, 0, sizeof(c));
	err = xskx_umem_census(umem, &c);
	if (err) {
		snprintf(why, why_size, "xskx_umem_census: %s",
			 xskx_strerror(err));
		return false;
	}
	if (c.pool != frames || c.total != frames || c.unaccounted ||
	    xskx_umem_pool_count(umem) != frames) {
		snprintf(problem, sizeof(problem),
			 "expected all %u frames in the pool (pool_count %u)",
			 frames, xskx_umem_pool_count(umem));
		census_describe(&c, why, why_size, problem);
		return false;
	}
	return true;
}

/* Ports test_port() opened, closed by test_sim_destroy(). */
#define TEST_MAX_PORTS 64
static pthread_mutex_t test_ports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	struct xskx_sim_port *sim_port;
	struct xskx_port *port;
} test_ports[TEST_MAX_PORTS];
static unsigned int test_nports;

struct xskx_port *test_port(struct xskx_sim_port *p)
{
	struct xskx_port *port = NULL;
	int err = 0;

	pthread_mutex_lock(&test_ports_lock);
	for (unsigned int i = 0; i < test_nports && !port; i++)
		if (test_ports[i].sim_port == p)
			port = test_ports[i].port;
	if (!port && test_nports < TEST_MAX_PORTS) {
		err = xskx_port_open_sim(&port, p, NULL);
		if (!err)
			test_ports[test_nports++] =
				(typeof(test_ports[0])){ p, port };
	}
	pthread_mutex_unlock(&test_ports_lock);
	ck_assert_msg(port, "test_port: %s", err ? xskx_last_error() : "too many ports");
	return port;
}

int test_sim_destroy(struct xskx_sim *sim)
{
	pthread_mutex_lock(&test_ports_lock);
	for (unsigned int i = 0; i < test_nports; i++) {
		int err = xskx_port_close(test_ports[i].port);

		ck_assert_msg(!err, "test_sim_destroy: %s", xskx_last_error());
	}
	test_nports = 0;
	pthread_mutex_unlock(&test_ports_lock);
	return xskx_sim_destroy(sim);
}

void test_sink_count(enum xskx_sim_sink_kind kind, const uint8_t *data,
		     uint32_t len, uint32_t queue, void *ctx)
{
	(void)kind;
	(void)data;
	(void)len;
	(void)queue;
	++*(uint64_t *)ctx;
}

void test_sim_teardown(struct xskx_sim *sim, struct xskx_umem *umem)
{
	char why[384];

	ck_assert_msg(test_census_all_in_pool(umem, why, sizeof(why)), "%s",
		      why);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(test_sim_destroy(sim), 0);
}

enum xskx_xdp_verdict test_xdp_pass(uint8_t *data, uint32_t len, uint32_t queue,
				    void *ctx)
{
	(void)data;
	(void)len;
	(void)queue;
	(void)ctx;
	return XSKX_XDP_PASS;
}

static void count_stack(enum xskx_sim_sink_kind kind, const uint8_t *data,
			uint32_t len, uint32_t queue, void *ctx)
{
	struct test_sim_nic *nic = ctx;

	(void)data;
	(void)len;
	(void)queue;
	if (kind == XSKX_SIM_SINK_STACK)
		nic->stack_packets++;
}

void test_sim_nic_create(struct test_sim_nic *nic,
			 const struct xskx_sim_port_opts *port_opts,
			 const struct xskx_umem_opts *umem_opts)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);

	memset(nic, 0, sizeof(*nic));
	ck_assert_int_eq(xskx_sim_create(&nic->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(nic->sim, port_opts, &nic->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(nic->port, count_stack, nic),
			 0);
	ck_assert_msg(!xskx_umem_create(&nic->umem, umem_opts), "%s",
		      xskx_last_error());
}

void test_sim_nic_destroy(struct test_sim_nic *nic)
{
	test_sim_teardown(nic->sim, nic->umem);
}

/* The port's sink: every packet it transmits, on the rig's wire. */
static void record_wire(enum xskx_sim_sink_kind kind, const uint8_t *data,
			uint32_t len, uint32_t queue, void *ctx)
{
	struct test_rig *rig = ctx;

	(void)kind;
	(void)queue;
	if (rig->wire < TEST_RIG_WIRE_MAX) {
		rig->wire_len[rig->wire] = len;
		rig->wire_seq[rig->wire] = len >= 18 ? test_seq_of(data) : 0;
		rig->wire_first[rig->wire] = len ? data[0] : 0;
	}
	rig->wire++;
}

void test_rig_open(struct test_rig *rig,
		   const struct xskx_sim_port_opts *port_opts,
		   const struct xskx_umem_opts *umem_opts,
		   const struct xskx_socket_opts *sock_opts)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	struct xskx_socket_opts opts = *sock_opts;

	memset(rig, 0, sizeof(*rig));
	test_log_capture();
	ck_assert_int_eq(xskx_sim_create(&rig->sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(rig->sim, port_opts, &rig->port),
			 0);
	ck_assert_int_eq(xskx_sim_port_set_sink(rig->port, record_wire, rig),
			 0);
	ck_assert_msg(!xskx_umem_create(&rig->umem, umem_opts), "%s",
		      xskx_last_error());
	opts.port = test_port(rig->port);
	ck_assert_msg(!xskx_socket_open(&rig->sock, rig->umem, &opts), "%s",
		      xskx_last_error());
}

void test_rig_fill(struct test_rig *rig)
{
	ck_assert_int_eq(xskx_rx_burst(rig->sock, NULL, 0), 0);
}

void test_rig_open_xdp_rx(struct test_rig *rig, bool copy_mode,
			  uint32_t frame_count, xskx_sim_xdp_buff_fn hook,
			  void *ctx)
{
	XSKX_OPTS(xskx_sim_port_opts, port_opts, .name = "xdp", .mtu = 9000,
		  .max_frags = 8, .no_zero_copy = copy_mode);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_size = 2048,
		  .frame_count = frame_count, .fill_size = frame_count,
		  .comp_size = frame_count);
	XSKX_OPTS(xskx_socket_opts, sock_opts,
		  .flags = XSKX_SOCKET_MULTI_BUFFER | XSKX_SOCKET_NO_TX,
		  .rx_size = frame_count);
	struct xskx_socket_info info;

	test_rig_open(rig, &port_opts, &umem_opts, &sock_opts);
	ck_assert_int_eq(xskx_sim_port_set_xdp_buff(rig->port, hook, ctx), 0);
	ck_assert_int_eq(xskx_socket_info(rig->sock, &info), 0);
	ck_assert(info.zero_copy == !copy_mode);
	test_rig_fill(rig);
}

void test_rig_destroy(struct test_rig *rig)
{
	for (int i = 0; i < 10; i++) {
		ck_assert_int_ge(xskx_sim_poll(rig->sim), 0);
		xskx_tx_reclaim(rig->sock);
	}
	ck_assert_int_eq(xskx_socket_close(rig->sock), 0);
	test_sim_teardown(rig->sim, rig->umem);
	xskx_set_log(NULL, NULL);
}

void test_inject_seq(struct xskx_sim_port *port, uint32_t seq, uint32_t len)
{
	static const uint8_t head[14] = { 0x02, 0, 0, 0, 0, 2,	  0x02,
					  0,	0, 0, 0, 1, 0x88, 0xb5 };
	uint8_t frame[9000];

	ck_assert_uint_ge(len, sizeof(head) + sizeof(seq));
	ck_assert_uint_le(len, sizeof(frame));
	memset(frame, 0, len);
	memcpy(frame, head, sizeof(head));
	memcpy(frame + sizeof(head), &seq, sizeof(seq));
	ck_assert_int_eq(xskx_sim_port_inject(port, frame, len), 0);
}

uint32_t test_seq_of(const uint8_t *data)
{
	uint32_t seq;

	memcpy(&seq, data + 14, sizeof(seq));
	return seq;
}
