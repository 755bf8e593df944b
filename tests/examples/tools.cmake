# The example programs as tools (issue 13): their JSON output parses
# whatever the names in it (a small python3 script does the parsing).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(XSKX_CHECK_OUTPUT ${Python3_EXECUTABLE}
	${CMAKE_CURRENT_SOURCE_DIR}/check_output.py)

add_executable(test_json test_json.c)
target_link_libraries(test_json PRIVATE xskx_examples_common)
xskx_add_test(NAME examples.json.writer_escapes_every_string
	COMMAND ${XSKX_CHECK_OUTPUT} writer $<TARGET_FILE:test_json>
	LABELS unit examples)
xskx_add_test(NAME examples.json.fw_rules_file_name
	COMMAND ${XSKX_CHECK_OUTPUT} fw-name $<TARGET_FILE:xskx-fw>
	LABELS sim examples)
xskx_add_test(NAME examples.json.bench_summary
	COMMAND ${XSKX_CHECK_OUTPUT} summary $<TARGET_FILE:xskx-bench>
		--sim --duration 1
	LABELS sim examples)
xskx_add_test(NAME examples.json.l2fwd_summary
	COMMAND ${XSKX_CHECK_OUTPUT} summary $<TARGET_FILE:xskx-l2fwd>
		--sim --duration 1
	LABELS sim examples)
xskx_add_test(NAME examples.json.fw_summary
	COMMAND ${XSKX_CHECK_OUTPUT} summary $<TARGET_FILE:xskx-fw>
		--sim -r ${CMAKE_CURRENT_SOURCE_DIR}/tools-allow.rules
		--duration 1
	LABELS sim examples)

# xskx-fw on 4 queues of the simulated NIC (RSS spreads the sources' 32
# flows): every queue receives, the per-queue counters add up to the ports'.
xskx_add_test(NAME examples.queues.fw_sim
	COMMAND ${XSKX_CHECK_OUTPUT} queues 4 $<TARGET_FILE:xskx-fw> --sim
		-r ${CMAKE_CURRENT_SOURCE_DIR}/tools-allow.rules --duration 2
	LABELS sim examples)

# xskx-bench likewise, rxdrop and l2fwd: 32 flows, 20,000 packets.
foreach(mode rxdrop l2fwd)
	xskx_add_test(NAME examples.queues.bench_${mode}_sim
		COMMAND ${XSKX_CHECK_OUTPUT} queues 4 $<TARGET_FILE:xskx-bench>
			--sim --mode ${mode} --flows 32 --packets 20000
			--duration 60 --app-cpu -1
		LABELS sim examples)
endforeach()

# Each program on the simulated NIC (xskx-fw with rules that let its
# traffic through):
#   json_lines  --json-lines for 2.5 s: two full intervals and the short
#               last one, then the summary; the totals never go down
#   lines       the line per second: a 3-second run prints 3 (the last
#               interval ends the run), with elapsed time, interval length
#               and running totals
set(xskx_tool_bench xskx-bench --sim)
set(xskx_tool_l2fwd xskx-l2fwd --sim)
set(xskx_tool_fw xskx-fw --sim -r ${CMAKE_CURRENT_SOURCE_DIR}/tools-allow.rules)
foreach(tool bench l2fwd fw)
	list(POP_FRONT xskx_tool_${tool} target)
	xskx_add_test(NAME examples.json_lines.${tool}
		COMMAND ${XSKX_CHECK_OUTPUT} lines 2.5 $<TARGET_FILE:${target}>
			${xskx_tool_${tool}}
		LABELS sim examples)
	xskx_add_test(NAME examples.lines.${tool}
		COMMAND ${XSKX_CHECK_OUTPUT} text 3 $<TARGET_FILE:${target}>
			${xskx_tool_${tool}}
		LABELS sim examples)
endforeach()

# xdpsock's command line (check_cli.py): every flag of xdpsock's --help runs
# or is refused with its reason; -q is a queue index everywhere; the MTU
# warning; the TX packet's fields on the wire; the library's messages in
# the programs' flags; --api batch on real sockets. The kernel parts run on veth pairs in a namespace of
# their own (root; the root-only cases are skipped, 77, otherwise).
set(XSKX_CHECK_CLI ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_cli.py)
xskx_add_test(NAME examples.cli.xdpsock_flags
	COMMAND ${XSKX_CHECK_CLI} xdpsock-flags $<TARGET_FILE:xskx-bench>
	LABELS sim veth examples)
xskx_add_test(NAME examples.cli.queue_index
	COMMAND ${XSKX_CHECK_CLI} queue $<TARGET_FILE:xskx-bench>
		$<TARGET_FILE:xskx-l2fwd>
	LABELS sim veth examples)
xskx_add_test(NAME examples.cli.mtu_warning
	COMMAND ${XSKX_CHECK_CLI} mtu $<TARGET_FILE:xskx-bench>
	LABELS veth examples)
xskx_add_test(NAME examples.cli.queues
	COMMAND ${XSKX_CHECK_CLI} queues $<TARGET_FILE:xskx-bench>
	LABELS sim veth examples)
xskx_add_test(NAME examples.cli.rx_meta
	COMMAND ${XSKX_CHECK_CLI} rx-meta $<TARGET_FILE:xskx-bench>
	LABELS veth examples)
xskx_add_test(NAME examples.cli.tx_packet
	COMMAND ${XSKX_CHECK_CLI} packet $<TARGET_FILE:xskx-bench>
	LABELS veth examples)
xskx_add_test(NAME examples.cli.messages_in_flags
	COMMAND ${XSKX_CHECK_CLI} translated $<TARGET_FILE:xskx-bench>
		$<TARGET_FILE:xskx-l2fwd>
	LABELS sim veth examples)
xskx_add_test(NAME examples.cli.tx_kick_defaults
	COMMAND ${XSKX_CHECK_CLI} tx-kick-defaults $<TARGET_FILE:xskx-bench>
	LABELS sim examples)
xskx_add_test(NAME examples.cli.fwd_command_line
	COMMAND ${XSKX_CHECK_CLI} fwd-command-line $<TARGET_FILE:xskx-l2fwd>
		$<TARGET_FILE:xskx-fw>
		${PROJECT_SOURCE_DIR}/examples/xskx-fw/transparent.rules
	LABELS sim examples)
# xskx-bench txonly --pcap-in on a veth pair: tcpdump on the peer receives
# every frame as the capture holds it, at a rate and at the frames' own
# pace (check_replay.py; root, 77 otherwise).
xskx_add_test(NAME examples.replay.bench_veth
	COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_replay.py
		$<TARGET_FILE:xskx-bench>
	LABELS veth examples)
xskx_add_test(NAME examples.cli.batch_api
	COMMAND ${XSKX_CHECK_CLI} batch-api $<TARGET_FILE:xskx-bench>
	LABELS veth examples)
set_tests_properties(examples.cli.xdpsock_flags examples.cli.queue_index
	examples.cli.queues examples.cli.mtu_warning examples.cli.tx_packet
	examples.cli.rx_meta
	examples.cli.messages_in_flags examples.cli.batch_api PROPERTIES
	RUN_SERIAL ON SKIP_RETURN_CODE 77 TIMEOUT 300)

# Partial checksums from real stacks (check_csum.py): UDP over IPv4 and
# IPv6 and a TCP exchange from a namespace whose veth offloads TX checksums
# (the default) reach the other side through xskx-l2fwd and xskx-fw with
# good checksums, counted as completed; with --no-csum-complete every
# datagram is dropped for its checksum. Root; 77 otherwise.
set(XSKX_CHECK_CSUM ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_csum.py)
xskx_add_test(NAME examples.csum.l2fwd_real_stack
	COMMAND ${XSKX_CHECK_CSUM} $<TARGET_FILE:xskx-l2fwd>
	LABELS veth examples)
xskx_add_test(NAME examples.csum.fw_real_stack
	COMMAND ${XSKX_CHECK_CSUM} $<TARGET_FILE:xskx-fw>
		-r ${CMAKE_CURRENT_SOURCE_DIR}/allow-all.rules
	LABELS veth examples)
set_tests_properties(examples.csum.l2fwd_real_stack examples.csum.fw_real_stack
	PROPERTIES RUN_SERIAL ON SKIP_RETURN_CODE 77 TIMEOUT 180)
# The same at MTU 9000 through xskx-fw -F: 8000-byte datagrams arrive as
# multi-buffer chains, are judged whole and completed across fragments.
xskx_add_test(NAME examples.csum.fw_real_stack_mtu9000
	COMMAND ${XSKX_CHECK_CSUM} --mtu 9000 $<TARGET_FILE:xskx-fw> -F
		-r ${CMAKE_CURRENT_SOURCE_DIR}/allow-all.rules
	LABELS veth examples)
set_tests_properties(examples.csum.fw_real_stack_mtu9000
	PROPERTIES RUN_SERIAL ON SKIP_RETURN_CODE 77 TIMEOUT 180)
# xskx-l2fwd and xskx-fw on veth pairs writing what they forward and deny
# (--pcap-out, --pcap-drops): read back by tcpdump and tshark byte for byte,
# each denied frame's rule as its comment, a one-frame queue's drops
# counted, bad paths reported (check_pcap_writer.py; root, 77 otherwise).
xskx_add_test(NAME examples.pcap_writer.veth
	COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_pcap_writer.py
		$<TARGET_FILE:xskx-l2fwd> $<TARGET_FILE:xskx-fw>
	LABELS veth examples threaded)
