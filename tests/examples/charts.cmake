# scripts/charts.py on what was measured (issue 13), each program run for
# 2.5 s on the simulated NIC (tests/examples/check_charts.py says what is
# checked): the SVGs hold the series of the run and draw its rates.
#   charts.bench   one socket that drops for a full RX ring: the rx
#                  series, and rx_ring_full among the drops
#   charts.l2fwd   two queues on two ports: a series per queue, port and
#                  direction; nothing dropped, every cause at zero
#   charts.fw      rules that deny everything: the drops are what the
#                  rules filtered
#   charts.experiments  perf-experiments.sh's experiment 2, one short
#                  repetition: its results file repeats the table, the
#                  bars are as high as its figures
set(xskx_check_charts ${Python3_EXECUTABLE}
	${CMAKE_CURRENT_SOURCE_DIR}/check_charts.py)
set(xskx_charts_py ${PROJECT_SOURCE_DIR}/scripts/charts.py)
xskx_add_test(NAME examples.charts.bench
	COMMAND ${xskx_check_charts} lines-dropping ${xskx_charts_py}
		$<TARGET_FILE:xskx-bench> --sim-deterministic -r
		--rx-full-policy drop -b 1 --nic-budget 256
	LABELS sim examples)
xskx_add_test(NAME examples.charts.l2fwd
	COMMAND ${xskx_check_charts} lines ${xskx_charts_py}
		$<TARGET_FILE:xskx-l2fwd> --sim --queues 2
	LABELS sim examples)
xskx_add_test(NAME examples.charts.fw
	COMMAND ${xskx_check_charts} lines-dropping ${xskx_charts_py}
		$<TARGET_FILE:xskx-fw> --sim
		-r ${CMAKE_CURRENT_SOURCE_DIR}/tools-deny.rules
	LABELS sim examples)
xskx_add_test(NAME examples.charts.experiments
	COMMAND ${xskx_check_charts} experiments ${xskx_charts_py}
		${PROJECT_SOURCE_DIR}/scripts/perf-experiments.sh
		${PROJECT_BINARY_DIR}
	LABELS sim examples)
