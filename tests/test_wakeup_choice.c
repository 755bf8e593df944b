// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Poll or busy loop (lib/wakeup_choice.c): the rule on its facts, and
 * xskx_socket_choose_wakeup() on the simulated NIC, which has no NAPI
 * thread, with and without the XSKX_WAKEUP override. The rule on a real
 * NAPI thread is tested on veth (tests/veth/test_veth_napi.c).
 */
#define _GNU_SOURCE /* cpu_set_t */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "wakeup_choice.h"

static cpu_set_t cpus(int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (a >= 0)
		CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return set;
}

START_TEST(rule)
{
	cpu_set_t cpu0 = cpus(0, -1), cpu1 = cpus(1, -1), both = cpus(0, 1);
	const char *why = NULL;

	/* No NAPI thread: loop, wherever anything runs. */
	ck_assert_int_eq(xskx__wakeup_rule(0, &cpu0, &cpu0, &why),
			 XSKX_WAKEUP_BUSY_LOOP);
	ck_assert_ptr_nonnull(strstr(why, "no NAPI thread"));
	/* A NAPI thread that may share this thread's CPU: poll. */
	ck_assert_int_eq(xskx__wakeup_rule(42, &cpu0, &cpu0, &why),
			 XSKX_WAKEUP_POLL);
	ck_assert_int_eq(xskx__wakeup_rule(42, &both, &cpu1, &why),
			 XSKX_WAKEUP_POLL);
	ck_assert_int_eq(xskx__wakeup_rule(42, &cpu1, &both, &why),
			 XSKX_WAKEUP_POLL);
	ck_assert_ptr_nonnull(strstr(why, "starve"));
	/* On CPUs of its own: loop. */
	ck_assert_int_eq(xskx__wakeup_rule(42, &cpu1, &cpu0, &why),
			 XSKX_WAKEUP_BUSY_LOOP);
	ck_assert_ptr_nonnull(strstr(why, "other CPUs"));
}
END_TEST

struct sim_socket {
	struct xskx_sim *sim;
	struct xskx_sim_port *port;
	struct xskx_umem *umem;
	struct xskx_socket *sock;
};

static void sim_open(struct sim_socket *t)
{
	XSKX_OPTS(xskx_sim_opts, so, .mode = XSKX_SIM_DETERMINISTIC);

	ck_assert_int_eq(xskx_sim_create(&t->sim, &so), 0);
	ck_assert_int_eq(xskx_sim_port_create(t->sim, NULL, &t->port), 0);
	ck_assert_int_eq(xskx_umem_create(&t->umem, NULL), 0);
	XSKX_OPTS(xskx_socket_opts, o, .port = test_port(t->port),
		  .flags = XSKX_SOCKET_NO_TX);
	ck_assert_int_eq(xskx_socket_open(&t->sock, t->umem, &o), 0);
}

static void sim_close(struct sim_socket *t)
{
	ck_assert_int_eq(xskx_socket_close(t->sock), 0);
	ck_assert_int_eq(xskx_umem_destroy(t->umem), 0);
	ck_assert_int_eq(test_sim_destroy(t->sim), 0);
}

START_TEST(choose_on_sim)
{
	struct sim_socket t;
	enum xskx_wakeup mode = XSKX_WAKEUP_POLL;
	const char *why = NULL;

	sim_open(&t);
	unsetenv("XSKX_WAKEUP");
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, &mode, &why), 0);
	ck_assert_int_eq(mode, XSKX_WAKEUP_BUSY_LOOP);
	ck_assert_ptr_nonnull(why);
	/* why is optional */
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, &mode, NULL), 0);

	ck_assert_int_eq(setenv("XSKX_WAKEUP", "poll", 1), 0);
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, &mode, &why), 0);
	ck_assert_int_eq(mode, XSKX_WAKEUP_POLL);
	ck_assert_ptr_nonnull(strstr(why, "XSKX_WAKEUP"));
	ck_assert_int_eq(setenv("XSKX_WAKEUP", "loop", 1), 0);
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, &mode, &why), 0);
	ck_assert_int_eq(mode, XSKX_WAKEUP_BUSY_LOOP);

	ck_assert_int_eq(setenv("XSKX_WAKEUP", "sometimes", 1), 0);
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, &mode, &why),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(xskx_last_error(), "'sometimes'"));
	unsetenv("XSKX_WAKEUP");

	ck_assert_int_eq(xskx_socket_choose_wakeup(NULL, &mode, &why), -EINVAL);
	ck_assert_int_eq(xskx_socket_choose_wakeup(t.sock, NULL, &why),
			 -EINVAL);
	sim_close(&t);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *suite = suite_create("wakeup_choice");
	TCase *rule_case = tcase_create("rule");
	TCase *sim_case = tcase_create("choose_on_sim");

	tcase_add_test(rule_case, rule);
	tcase_add_test(sim_case, choose_on_sim);
	suite_add_tcase(suite, rule_case);
	suite_add_tcase(suite, sim_case);
	return test_main(suite, argc, argv);
}
