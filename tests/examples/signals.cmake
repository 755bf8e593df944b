# Every program stops on SIGINT and on SIGTERM as a run that reached its end
# does, exit 0 with its summary, in each way it waits (check_signals.py):
# on the simulated NIC, and on veth pairs in a namespace of the test's own
# (root; skipped, 77, otherwise). Each case is named after its place and
# its wait; the signal lands once the first interval line is out.
set(XSKX_CHECK_SIGNALS ${Python3_EXECUTABLE}
	${CMAKE_CURRENT_SOURCE_DIR}/check_signals.py)
set(xskx_fw_allow ${CMAKE_CURRENT_SOURCE_DIR}/tools-allow.rules)
set(xskx_signal_cases
	"bench_sim_loop|sim|xskx-bench|--sim --wakeup loop -d 60"
	"bench_sim_poll|sim|xskx-bench|--sim -p -d 60"
	"bench_veth_loop|veth|xskx-bench|-i xs0 --wakeup loop -d 60"
	"bench_veth_poll|veth|xskx-bench|-i xs0 -p -d 60"
	"bench_veth_poll_no_need_wakeup|veth|xskx-bench|-i xs0 -p -m -d 60"
	"bench_veth_busy_poll|veth|xskx-bench|-i xs0 -B -d 60"
	"bench_veth_poll_generic|veth|xskx-bench|-i xs0 -S -p -d 60"
	"bench_veth_txonly_poll|veth|xskx-bench|-i xs0 -t -p -d 60"
	"bench_veth_l2fwd_poll|veth|xskx-bench|-i xs0 -l -p -d 60"
	"l2fwd_sim|sim|xskx-l2fwd|--sim"
	"l2fwd_veth|veth|xskx-l2fwd|-i xs0 -o xs2"
	"l2fwd_veth_generic|veth|xskx-l2fwd|-i xs0 -o xs2 -S"
	"fw_sim|sim|xskx-fw|--sim -r ${xskx_fw_allow}"
	"fw_veth|veth|xskx-fw|-i xs0 -o xs2 -r ${xskx_fw_allow}"
	"fw_veth_generic|veth|xskx-fw|-i xs0 -o xs2 -S -r ${xskx_fw_allow}"
	"minimal_rxdrop_veth|minimal|xskx-minimal-rxdrop|xs0"
	"minimal_l2fwd_veth|minimal|xskx-minimal-l2fwd|xs0 xs2")
foreach(case IN LISTS xskx_signal_cases)
	string(REPLACE "|" ";" fields "${case}")
	list(GET fields 0 name)
	list(GET fields 1 place)
	list(GET fields 2 target)
	list(GET fields 3 args)
	separate_arguments(args UNIX_COMMAND "${args}")
	if(place STREQUAL "sim")
		set(labels sim examples)
	else()
		set(labels veth examples)
	endif()
	foreach(sig INT TERM)
		xskx_add_test(NAME examples.signals.${name}_${sig}
			COMMAND ${XSKX_CHECK_SIGNALS} ${sig} ${place}
				$<TARGET_FILE:${target}> ${args}
			LABELS ${labels})
		set_tests_properties(examples.signals.${name}_${sig} PROPERTIES
			TIMEOUT 120)
	endforeach()
endforeach()
