// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel backend on a veth pair, inside a private network namespace
 * (netns.h): the scenarios of tests/scenario/ in generic and in native XDP
 * mode (SEND_RECEIVE_generic, ...), and the cases of
 * veth_errors.c, veth_crash.c, veth_verdicts.c, veth_options.c and
 * veth_multiproc.c. CTest runs one case per
 * process; without root every case exits 77 (skipped).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "netns.h"
#include "peer_veth.h"
#include "scenario.h"
#include "veth_cases.h"

/* Room for the names of every scenario in both modes. */
#define MAX_SCENARIOS 64
#define CASE_TIMEOUT_S 120

static const enum xskx_xdp_mode modes[] = { XSKX_XDP_GENERIC, XSKX_XDP_NATIVE };

/* One scenario on a fresh veth pair; a skip ends the process with 77. */
static void run_on_veth(const char *name, enum xskx_xdp_mode mode)
{
	const struct scenario *s = scenario_find(name);
	struct scenario_result r = { 0 };
	struct test_peer *peer;

	ck_assert_msg(s, "no scenario named %s", name);
	peer = peer_veth_create(mode);
	ck_assert_msg(peer, "creating the veth pair");
	s->run(peer, &r);
	peer->destroy(peer);
	if (r.status == SCENARIO_SKIP)
		test_skip(r.msg);
	ck_assert_msg(r.status == SCENARIO_PASS, "%s on %s: %s", name,
		      peer_veth_mode_name(mode), r.msg);
}

/* _i = index in scenarios[] * 2 + mode index */
START_TEST(scenario_on_veth)
{
	run_on_veth(scenarios[_i / 2].name, modes[_i % 2]);
}
END_TEST

static void add_loop_case(Suite *suite, const char *name, const TTest *test,
			  int i)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, CASE_TIMEOUT_S);
	tcase_add_loop_test(tc, test, i, i + 1);
	suite_add_tcase(suite, tc);
}

void veth_add_case(Suite *suite, const char *name, const TTest *test)
{
	add_loop_case(suite, name, test, 0);
}

/* Every scenario that runs on veth (scenario_runs_on_veth), in both modes. */
void add_scenario_cases(Suite *suite)
{
	/* Check keeps the names: they live as long as the program. */
	static char names[MAX_SCENARIOS * 2][64];

	for (unsigned int i = 0; scenarios[i / 2].name; i++) {
		if (i >= MAX_SCENARIOS * 2) {
			fprintf(stderr, "more than %d scenarios: raise MAX_SCENARIOS\n",
				MAX_SCENARIOS);
			exit(EXIT_FAILURE);
		}
		if (!scenario_runs_on_veth(&scenarios[i / 2]))
			continue;
		snprintf(names[i], sizeof(names[i]), "%s_%s",
			 scenarios[i / 2].name,
			 peer_veth_mode_name(modes[i % 2]));
		add_loop_case(suite, names[i], scenario_on_veth, (int)i);
	}
}

int main(int argc, char **argv)
{
	Suite *suite = suite_create("veth");

	veth_sandbox_enter();
	add_scenario_cases(suite);
	add_error_cases(suite);
	add_crash_cases(suite);
	add_verdict_cases(suite);
	add_option_cases(suite);
	add_multiproc_cases(suite);
	add_kernel_feature_cases(suite);
	add_rx_meta_cases(suite);
	add_tx_meta_cases(suite);
	add_netns_port_cases(suite);
	add_peer_csum_cases(suite);
	return test_main(suite, argc, argv);
}
