# Tests of the build and packaging themselves (label "package"):
#   xskx_exports  headers, lib/libxskx.map and libxskx.so's dynamic symbols
#                 name the same functions (scripts/check-exports.sh)
#   xskx_install  an installed xskx works for a user's program, through
#                 pkg-config and find_package (scripts/check-install.sh)
#   xskx_man      every function of the API has a page in man/man3, and
#                 every page lints clean (scripts/check-man.sh)
#   xskx_abi      libxskx.so's public ABI equals abi/libxskx.abi
#                 (scripts/check-abi.sh: how to refresh it on purpose)

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
	MANDIR=${CMAKE_INSTALL_MANDIR})
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

# Skipped (77) for a library without debug info (Release, MinSizeRel).
add_test(NAME xskx_abi
	COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-abi.sh
		${PROJECT_SOURCE_DIR}/include
		$<TARGET_FILE:xskx>
		${PROJECT_SOURCE_DIR}/abi/libxskx.abi)
set_tests_properties(xskx_abi PROPERTIES
	LABELS package
	SKIP_RETURN_CODE 77)
