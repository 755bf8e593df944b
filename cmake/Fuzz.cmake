# XSKX_FUZZ=ON: the fuzz targets of tests/fuzz are libFuzzer programs.
# Needs clang and its libFuzzer runtime (Debian: libclang-rt-14-dev); asked
# for without them, configuring fails rather than building something else.
# The whole build is then instrumented for coverage (-fsanitize=fuzzer-no-link)
# and runs under ASan+UBSan (XSKX_SANITIZE=address), so that what the
# fuzzers reach in libxskx is what they learn from. Configure it in a build
# directory of its own with CC=clang (scripts/fuzz.sh does).
#
# Without XSKX_FUZZ the same targets are built with a small driver of their
# own (tests/fuzz/replay.c) that replays the seed corpus: every build runs
# the regression inputs, whatever the compiler.

option(XSKX_FUZZ "Build tests/fuzz as libFuzzer targets (clang only)" OFF)

if(XSKX_FUZZ)
	if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
		message(FATAL_ERROR "XSKX_FUZZ=ON needs clang's libFuzzer: "
			"configure a separate build directory with CC=clang "
			"(the compiler here is ${CMAKE_C_COMPILER_ID})")
	endif()
	if(XSKX_SANITIZE STREQUAL "")
		set(XSKX_SANITIZE address CACHE STRING
			"Sanitizers for every target: address (ASan+UBSan), thread (TSan)"
			FORCE)
	elseif(NOT XSKX_SANITIZE STREQUAL "address")
		message(FATAL_ERROR "XSKX_FUZZ=ON runs under ASan+UBSan: "
			"leave XSKX_SANITIZE empty or set it to address")
	endif()
	include(CheckCSourceCompiles)
	set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer,address,undefined)
	set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer,address,undefined)
	check_c_source_compiles("
		#include <stddef.h>
		#include <stdint.h>
		int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
		{ (void)d; (void)n; return 0; }" XSKX_HAVE_LIBFUZZER)
	unset(CMAKE_REQUIRED_FLAGS)
	unset(CMAKE_REQUIRED_LINK_OPTIONS)
	if(NOT XSKX_HAVE_LIBFUZZER)
		message(FATAL_ERROR "XSKX_FUZZ=ON: ${CMAKE_C_COMPILER} cannot link "
			"-fsanitize=fuzzer; install clang's libFuzzer runtime "
			"(Debian 12: libclang-rt-14-dev, scripts/install-deps.sh)")
	endif()
	add_compile_options(-fsanitize=fuzzer-no-link)
endif()
