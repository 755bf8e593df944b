# Developer targets:
#   format  clang-format -i on every C file of the tree (.clang-format)
#   tidy    clang-tidy (.clang-tidy) on the files of compile_commands.json
# Each exists only when its tool is installed.

find_program(XSKX_CLANG_FORMAT NAMES clang-format clang-format-14)
if(XSKX_CLANG_FORMAT)
	add_custom_target(format
		COMMAND ${PROJECT_SOURCE_DIR}/scripts/format.sh
			${XSKX_CLANG_FORMAT}
		WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
		COMMENT "clang-format on lib/ include/ bpf/ tests/ examples/"
		VERBATIM)
endif()

find_program(XSKX_RUN_CLANG_TIDY NAMES run-clang-tidy run-clang-tidy-14)
if(XSKX_RUN_CLANG_TIDY)
	add_custom_target(tidy
		COMMAND ${XSKX_RUN_CLANG_TIDY} -quiet -p ${PROJECT_BINARY_DIR}
			"^${PROJECT_SOURCE_DIR}/(lib|tests|examples)/"
		COMMENT "clang-tidy on lib/ tests/ examples/"
		VERBATIM)
endif()
