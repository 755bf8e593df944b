// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The log and what it prints: the default callback writes warnings (and
 * info, debug at those levels) to stderr and no error, which the failing
 * call returns and keeps for xskx_last_error(); XSKX_LOG_NONE, from
 * xskx_set_log_level() or XSKX_LOG_LEVEL=none, lets no message through to
 * any callback; an application's callback receives the errors too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

/* What the library writes to stderr while fn runs, in out. */
static void stderr_of(void (*fn)(void), char *out, size_t size)
{
	FILE *capture = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t got;

	ck_assert_ptr_nonnull(capture);
	ck_assert_int_ge(saved, 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fileno(capture), STDERR_FILENO), 0);
	fn();
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	close(saved);
	rewind(capture);
	got = fread(out, 1, size - 1, capture);
	out[got] = '\0';
	fclose(capture);
}

/* A failing call: a frame size the kernel refuses. */
static void fail_once(void)
{
	XSKX_OPTS(xskx_umem_opts, opts, .frame_size = 1000);
	struct xskx_umem *umem = NULL;

	ck_assert_int_eq(xskx_umem_create(&umem, &opts), -EINVAL);
}

/* A call that succeeds and logs at info level. */
static void choose_wakeup_once(void)
{
	XSKX_OPTS(xskx_sim_opts, sim_opts, .mode = XSKX_SIM_DETERMINISTIC);
	XSKX_OPTS(xskx_umem_opts, umem_opts, .frame_count = 2048);
	struct xskx_sim_port *nic;
	struct xskx_socket *sock;
	struct xskx_umem *umem;
	struct xskx_port *port;
	struct xskx_sim *sim;
	enum xskx_wakeup mode;

	unsetenv("XSKX_WAKEUP");
	ck_assert_int_eq(xskx_sim_create(&sim, &sim_opts), 0);
	ck_assert_int_eq(xskx_sim_port_create(sim, NULL, &nic), 0);
	ck_assert_int_eq(xskx_port_open_sim(&port, nic, NULL), 0);
	ck_assert_int_eq(xskx_umem_create(&umem, &umem_opts), 0);
	ck_assert_int_eq(xskx_socket_open_queue(&sock, port, 0, umem, NULL), 0);
	ck_assert_int_eq(xskx_socket_choose_wakeup(sock, &mode, NULL), 0);
	ck_assert_int_eq(xskx_socket_close(sock), 0);
	ck_assert_int_eq(xskx_port_close(port), 0);
	ck_assert_int_eq(xskx_umem_destroy(umem), 0);
	ck_assert_int_eq(xskx_sim_destroy(sim), 0);
}

START_TEST(default_logger_leaves_errors_to_the_caller)
{
	char out[4096];

	xskx_set_log(NULL, NULL);
	xskx_set_log_level(XSKX_LOG_DEBUG);
	stderr_of(fail_once, out, sizeof(out));
	ck_assert_msg(!*out, "the default logger printed an error: %s", out);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "frame_size"));
}
END_TEST

START_TEST(default_logger_prints_what_is_not_an_error)
{
	char out[4096];

	xskx_set_log(NULL, NULL);
	xskx_set_log_level(XSKX_LOG_INFO);
	stderr_of(choose_wakeup_once, out, sizeof(out));
	ck_assert_msg(strstr(out, "xskx: info: queue 0:"), "stderr: '%s'", out);
	xskx_set_log_level(XSKX_LOG_WARN);
	stderr_of(choose_wakeup_once, out, sizeof(out));
	ck_assert_msg(!*out, "an info message at level warn: %s", out);
}
END_TEST

static unsigned int received;

static void count(enum xskx_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
	received++;
}

START_TEST(none_lets_nothing_through)
{
	char out[4096];

	xskx_set_log(count, NULL);
	xskx_set_log_level(XSKX_LOG_ERROR);
	received = 0;
	fail_once();
	ck_assert_uint_eq(received, 1);
	xskx_set_log_level(XSKX_LOG_NONE);
	ck_assert_int_eq(xskx_log_level(), XSKX_LOG_NONE);
	received = 0;
	fail_once();
	choose_wakeup_once();
	ck_assert_uint_eq(received, 0);
	/* The message is kept all the same. */
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "frame_size"));
	xskx_set_log(NULL, NULL);
	xskx_set_log_level(XSKX_LOG_DEBUG);
	xskx_set_log_level(XSKX_LOG_NONE);
	stderr_of(choose_wakeup_once, out, sizeof(out));
	ck_assert_msg(!*out, "printed at level none: %s", out);
}
END_TEST

/* XSKX_LOG_LEVEL, read once per process: each value in a child of its own. */
static int level_in_child(const char *value)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		setenv("XSKX_LOG_LEVEL", value, 1);
		_exit((int)xskx_log_level() + 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status) - 1;
}

START_TEST(level_from_the_environment)
{
	ck_assert_int_eq(level_in_child("none"), XSKX_LOG_NONE);
	ck_assert_int_eq(level_in_child("NONE"), XSKX_LOG_NONE);
	ck_assert_int_eq(level_in_child("error"), XSKX_LOG_ERROR);
	ck_assert_int_eq(level_in_child("debug"), XSKX_LOG_DEBUG);
	ck_assert_int_eq(level_in_child("nonsense"), XSKX_LOG_WARN);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("log");

	test_add_case(s, "default_logger_leaves_errors_to_the_caller",
		      default_logger_leaves_errors_to_the_caller);
	test_add_case(s, "default_logger_prints_what_is_not_an_error",
		      default_logger_prints_what_is_not_an_error);
	test_add_case(s, "none_lets_nothing_through", none_lets_nothing_through);
	test_add_case(s, "level_from_the_environment",
		      level_from_the_environment);
	return s;
}

int main(int argc, char **argv)
{
	return test_main(log_suite(), argc, argv);
}
