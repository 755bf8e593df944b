# Tests of the build and packaging themselves (label "package"):
#   xskx_exports  headers, lib/libxskx.map and libxskx.so's dynamic symbols
#                 name the same functions (scripts/check-exports.sh)
#   xskx_install  an installed xskx works for a user's program, through
#                 pkg-config and find_package (scripts/check-install.sh)

# The export check reads the declarations through gcc -aux-info.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
	set(xskx_gcc ${CMAKE_C_COMPILER})
else()
	find_program(xskx_gcc NAMES gcc REQUIRED)
endif()
add_test(NAME xskx_exports
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-exports.sh
		${PROJECT_SOURCE_DIR}/include
		${PROJECT_SOURCE_DIR}/lib/libxskx.map
		$<TARGET_FILE:xskx>)
set_tests_properties(xskx_exports PROPERTIES
	ENVIRONMENT "CC=${xskx_gcc}"
	LABELS package)

list(JOIN XSKX_SANITIZER_FLAGS " " xskx_consumer_cflags)
set(xskx_install_env
	CC=${CMAKE_C_COMPILER}
	CFLAGS=${xskx_consumer_cflags}
	CMAKE=${CMAKE_COMMAND})
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

# libxskx.a exports only the API too (lib/CMakeLists.txt): the same check on
# its global symbols, and a program that defines functions under names the
# library uses inside links against it. The program is built by the test,
# so that a clash fails the test rather than the build.
add_test(NAME xskx_static_exports
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-exports.sh
		${PROJECT_SOURCE_DIR}/include
		${PROJECT_SOURCE_DIR}/lib/libxskx.map
		$<TARGET_FILE:xskx_static>)
set_tests_properties(xskx_static_exports PROPERTIES
	ENVIRONMENT "CC=${xskx_gcc}"
	LABELS package)

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
