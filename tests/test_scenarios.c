// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The scenarios (tests/scenario/) on the simulated NIC.
 *
 *	test_scenarios                       every scenario, deterministic NIC
 *	test_scenarios [--threaded] NAME     one scenario (how CTest runs them),
 *	                                     --threaded: the NIC on its own thread
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "peer_sim.h"
#include "scenario.h"

/* Under sanitizers a scenario takes seconds; the peer's own limit ends a stuck one. */
#define SCENARIO_TIMEOUT_S 120

static enum xskx_sim_mode sim_mode = XSKX_SIM_DETERMINISTIC;

START_TEST(run_scenario)
{
	const struct scenario *sc = &scenarios[_i];
	struct scenario_result result = { .status = SCENARIO_PASS };
	struct test_peer *peer;
	char peer_name[32];
	int err;

	err = test_peer_sim_create(&peer, sim_mode);
	ck_assert_msg(!err, "test_peer_sim_create: %s: %s", xskx_strerror(err),
		      xskx_last_error());
	snprintf(peer_name, sizeof(peer_name), "%s", peer->name);
	sc->run(peer, &result);
	peer->destroy(peer);
	if (result.status == SCENARIO_SKIP)
		test_skip(result.msg);
	ck_assert_msg(result.status == SCENARIO_PASS, "%s on %s: %s", sc->name,
		      peer_name, result.msg);
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenarios");

	for (int i = 0; scenarios[i].name; i++) {
		TCase *tc = tcase_create(scenarios[i].name);

		tcase_set_timeout(tc, SCENARIO_TIMEOUT_S);
		tcase_add_loop_test(tc, run_scenario, i, i + 1);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--threaded")) {
		sim_mode = XSKX_SIM_THREADED;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	return test_main(scenario_suite(), argc, argv);
}
