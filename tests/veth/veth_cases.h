/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The test cases of test_veth, one file per theme, each adding its own. */
#ifndef XSKX_TESTS_VETH_CASES_H
#define XSKX_TESTS_VETH_CASES_H

#include <check.h>

void add_scenario_cases(Suite *suite); /* test_veth.c */
void add_error_cases(Suite *suite);    /* veth_errors.c */
void add_crash_cases(Suite *suite);    /* veth_crash.c */
void add_verdict_cases(Suite *suite);  /* veth_verdicts.c */
void add_option_cases(Suite *suite);   /* veth_options.c */
void add_multiproc_cases(Suite *suite); /* veth_multiproc.c */
void add_kernel_feature_cases(Suite *suite); /* veth_kernel_features.c */
void add_rx_meta_cases(Suite *suite);	      /* veth_rx_meta.c */
void add_tx_meta_cases(Suite *suite);	     /* veth_tx_meta.c */
void add_netns_port_cases(Suite *suite);     /* veth_netns_ports.c */
void add_peer_csum_cases(Suite *suite);      /* veth_peer_csum.c */

/* A test case of its own, so that CTest can run it alone by name. */
void veth_add_case(Suite *suite, const char *name, const TTest *test);

#endif /* XSKX_TESTS_VETH_CASES_H */
