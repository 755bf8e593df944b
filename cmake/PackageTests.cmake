# Tests of the build and packaging themselves (label "package"):
#   xskx_exports  headers, lib/libxskx.map and libxskx.so's dynamic symbols
#                 name the same functions, and no function of
#                 include/xskx-sim is among them (scripts/check-exports.sh)
#   xskx_static_exports  the same for libxskx.a's global symbols
#   xskx_sim_exports, xskx_sim_static_exports  the same for libxskx-sim
#                 (include/xskx-sim, lib/sim/libxskx-sim.map)
#   xskx_exports_refuses_sim  the check names the simulator's functions
#                 when a library exports them as libxskx's
#   xskx_static_names    a program with names xskx uses inside links
#                 against libxskx.a
#   xskx_install  an installed xskx works for a user's program, through
#                 pkg-config and find_package, with its man pages and the
#                 documents they name (scripts/check-install.sh)
#   xskx_man      every function of the API has a page in man/man3, and
#                 every page lints clean (scripts/check-man.sh)
#   xskx_abi      libxskx.so's public ABI equals abi/libxskx.abi
#                 (scripts/check-abi.sh: how to refresh it on purpose)
#   xskx_sim_abi  libxskx-sim.so's equals abi/libxskx-sim.abi
#   xskx_deb      cpack -G DEB makes libxskx0.1, libxskx-dev and
#                 xskx-tools, each with its own files and dependencies
#                 (scripts/check-deb.sh --contents; the script without it
#                 installs them in a debootstrapped Debian 12, by hand)
#   xskx_doc_names every function, macro, header, file, man page and
#                 section that README.md, tests/README.md, docs/, man/ and
#                 the headers' comments name exists, and docs/README.md
#                 lists every page of docs/ (scripts/check-doc-names.sh)
#   xskx_layers   no import circle between the modules of lib/, lib/kernel
#                 and lib/sim, and the core imports no backend
#                 (scripts/check-layers.py)
#   xskx_mutant_anchors  every mutant of tests/mutants.txt finds its code
#                 exactly once (scripts/check-mutant-anchors.py)
#   xskx_doc_checks_catch.man, .doc-names, .layers  xskx_man's,
#                 xskx_doc_names' and xskx_layers' checks fail on a tree
#                 with what they catch broken

# The export check reads the declarations through gcc -aux-info.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
	set(xskx_gcc ${CMAKE_C_COMPILER})
else()
	find_program(xskx_gcc NAMES gcc REQUIRED)
endif()
function(xskx_add_exports_test name library headers map)
	add_test(NAME ${name}
		COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-exports.sh
			${PROJECT_SOURCE_DIR}/include ${headers}
			${PROJECT_SOURCE_DIR}/${map}
			$<TARGET_FILE:${library}>)
	set_tests_properties(${name} PROPERTIES
		ENVIRONMENT "CC=${xskx_gcc}"
		LABELS package)
endfunction()
xskx_add_exports_test(xskx_exports xskx xskx lib/libxskx.map)
# libxskx.a exports only the API too (lib/CMakeLists.txt).
xskx_add_exports_test(xskx_static_exports xskx_static xskx lib/libxskx.map)
xskx_add_exports_test(xskx_sim_exports xskx_sim xskx-sim
	lib/sim/libxskx-sim.map)
xskx_add_exports_test(xskx_sim_static_exports xskx_sim_static xskx-sim
	lib/sim/libxskx-sim.map)
# The check itself: a library exporting the simulator's functions as
# libxskx's (libxskx-sim.so held to libxskx's headers and map) must be
# named for it, function by function.
add_test(NAME xskx_exports_refuses_sim
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-exports.sh
		${PROJECT_SOURCE_DIR}/include xskx
		${PROJECT_SOURCE_DIR}/lib/libxskx.map $<TARGET_FILE:xskx_sim>)
set_tests_properties(xskx_exports_refuses_sim PROPERTIES
	ENVIRONMENT "CC=${xskx_gcc}"
	PASS_REGULAR_EXPRESSION "the API of another library[^\n]*\n(\t[^\n]*\n)*\txskx_port_open_sim include/xskx-sim\n"
	LABELS package)

add_test(NAME xskx_man
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-man.sh
		${PROJECT_SOURCE_DIR}/include
		${PROJECT_SOURCE_DIR}/man)
set_tests_properties(xskx_man PROPERTIES
	ENVIRONMENT "CC=${xskx_gcc}"
	LABELS package)

list(JOIN XSKX_SANITIZER_FLAGS " " xskx_consumer_cflags)
set(xskx_install_env
	CC=${CMAKE_C_COMPILER}
	CFLAGS=${xskx_consumer_cflags}
	CMAKE=${CMAKE_COMMAND}
	MANDIR=${CMAKE_INSTALL_MANDIR}
	DOCDIR=${CMAKE_INSTALL_DOCDIR})
if(XSKX_BPF_CLANG)
	list(APPEND xskx_install_env CLANG=${XSKX_BPF_CLANG})
endif()
add_test(NAME xskx_install
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-install.sh
		${PROJECT_BINARY_DIR})
set_tests_properties(xskx_install PROPERTIES
	ENVIRONMENT "${xskx_install_env}"
	LABELS package
	TIMEOUT 300)

# A program that defines functions under names the library uses inside
# links against libxskx.a. The test builds it, so that a clash fails the
# test rather than the build.
add_executable(xskx_static_names EXCLUDE_FROM_ALL
	${PROJECT_SOURCE_DIR}/tests/package/static_names.c)
target_link_libraries(xskx_static_names PRIVATE xskx_static)
add_test(NAME xskx_static_names.build
	COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR}
		--target xskx_static_names)
add_test(NAME xskx_static_names COMMAND xskx_static_names)
set_tests_properties(xskx_static_names.build PROPERTIES
	FIXTURES_SETUP xskx_static_names
	LABELS package)
set_tests_properties(xskx_static_names PROPERTIES
	FIXTURES_REQUIRED xskx_static_names
	LABELS package)

# Skipped (77) for a library without debug info (MinSizeRel).
foreach(abi xskx:xskx xskx_sim:xskx-sim)
	string(REGEX REPLACE ":.*" "" target ${abi})
	string(REGEX REPLACE ".*:" "" file ${abi})
	add_test(NAME ${target}_abi
		COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-abi.sh
			${PROJECT_SOURCE_DIR}/include
			$<TARGET_FILE:${target}>
			${PROJECT_SOURCE_DIR}/abi/lib${file}.abi)
	set_tests_properties(${target}_abi PROPERTIES
		LABELS package
		SKIP_RETURN_CODE 77)
endforeach()

# cpack runs the install rules of this build: the programs must be built.
add_test(NAME xskx_deb
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-deb.sh --contents
		${PROJECT_BINARY_DIR})
# Four packages (libxskx-sim0.1 the fourth): 264 s alone at a load
# average of 25 on 2 cores, so 300 s timed out beside the full suite.
set_tests_properties(xskx_deb PROPERTIES
	ENVIRONMENT "CPACK=${CMAKE_CPACK_COMMAND}"
	LABELS package
	TIMEOUT 600)

add_test(NAME xskx_doc_names
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-doc-names.sh
		${PROJECT_SOURCE_DIR})
set_tests_properties(xskx_doc_names PROPERTIES LABELS package)

add_test(NAME xskx_layers
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-layers.py
		${PROJECT_SOURCE_DIR})
set_tests_properties(xskx_layers PROPERTIES LABELS package)

add_test(NAME xskx_mutant_anchors
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-mutant-anchors.py
		${PROJECT_SOURCE_DIR}/tests/mutants.txt)
set_tests_properties(xskx_mutant_anchors PROPERTIES LABELS package)

# The two document checks and the layer check fail on what they exist to
# catch: a copy of the tree with one thing of each kind broken
# (tests/package/doc-checks-catch.sh).
foreach(check man doc-names layers)
	add_test(NAME xskx_doc_checks_catch.${check}
		COMMAND ${PROJECT_SOURCE_DIR}/tests/package/doc-checks-catch.sh
			${PROJECT_SOURCE_DIR} ${check})
	set_tests_properties(xskx_doc_checks_catch.${check} PROPERTIES
		ENVIRONMENT "CC=${xskx_gcc}"
		LABELS package)
endforeach()
