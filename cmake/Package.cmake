# Installation: the headers, libxskx.so and libxskx.a, the simulated NIC's
# libxskx-sim.so and libxskx-sim.a, a pkg-config file for each, a CMake
# package, the man pages and the documents, so that a user finds xskx
# either way:
#     pkg-config --cflags --libs xskx      (--static for libxskx.a)
#     pkg-config --cflags --libs xskx-sim  (the simulator, and xskx)
#     find_package(xskx) -> xskx::xskx, xskx::xskx_static,
#                           xskx::xskx_sim, xskx::xskx_sim_static
# Both files locate the prefix from where they are installed, so an install
# tree can be moved (cmake --install --prefix, DESTDIR) and still work.
# Each file belongs to a component, a Debian package of its own
# (cmake/DebPackages.cmake): "lib" the shared library alone, "simlib" the
# simulator's shared library alone, "dev" what a program is built with,
# both libraries', "tools" the programs (examples/CMakeLists.txt).

include(CMakePackageConfigHelpers)

set(XSKX_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/xskx)
set(XSKX_PKGCONFIG_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/xskx
	${PROJECT_SOURCE_DIR}/include/xskx-sim
	DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
	COMPONENT dev
	FILES_MATCHING PATTERN "*.h")
# The maps header that an XDP program of the user's builds on (see
# xskx_port_opts.xdp_obj in xskx/port.h): #include <xskx/bpf/xskx_maps.bpf.h>.
if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/bpf)
	install(DIRECTORY ${PROJECT_SOURCE_DIR}/bpf/
		DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xskx/bpf
		COMPONENT dev
		FILES_MATCHING PATTERN "*.h")
endif()
# libxskx.so.0.1.0 and its soname link are the library's; the link
# libxskx.so, which only the linker reads, is the -dev package's.
install(TARGETS xskx xskx_static
	EXPORT xskxTargets
	LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
		COMPONENT lib
		NAMELINK_COMPONENT dev
	ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
		COMPONENT dev)
install(TARGETS xskx_sim xskx_sim_static
	EXPORT xskxTargets
	LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
		COMPONENT simlib
		NAMELINK_COMPONENT dev
	ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
		COMPONENT dev)
install(EXPORT xskxTargets
	NAMESPACE xskx::
	DESTINATION ${XSKX_CMAKE_INSTALL_DIR}
	COMPONENT dev)

configure_package_config_file(
	${CMAKE_CURRENT_LIST_DIR}/xskxConfig.cmake.in
	${PROJECT_BINARY_DIR}/xskxConfig.cmake
	INSTALL_DESTINATION ${XSKX_CMAKE_INSTALL_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(
	${PROJECT_BINARY_DIR}/xskxConfigVersion.cmake
	COMPATIBILITY SameMinorVersion)
install(FILES
	${PROJECT_BINARY_DIR}/xskxConfig.cmake
	${PROJECT_BINARY_DIR}/xskxConfigVersion.cmake
	DESTINATION ${XSKX_CMAKE_INSTALL_DIR}
	COMPONENT dev)

# xskx.pc derives its prefix from ${pcfiledir}, the directory pkg-config
# found it in, instead of hard-coding CMAKE_INSTALL_PREFIX.
file(RELATIVE_PATH XSKX_PC_TO_PREFIX
	${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" XSKX_PC_TO_PREFIX "${XSKX_PC_TO_PREFIX}")
file(RELATIVE_PATH XSKX_PC_LIBDIR
	${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH XSKX_PC_INCLUDEDIR
	${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
foreach(pc xskx xskx-sim)
	configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in
		${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
	install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc
		DESTINATION ${XSKX_PKGCONFIG_INSTALL_DIR}
		COMPONENT dev)
endforeach()

# man/: a page per function name in man3 (a group's page, or a symbolic link
# to it: `man xskx_rx_burst`), and xskx(7), the overview. Links are
# installed as links.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/man/man3 ${PROJECT_SOURCE_DIR}/man/man7
	DESTINATION ${CMAKE_INSTALL_MANDIR}
	COMPONENT dev)

install(FILES
	${PROJECT_SOURCE_DIR}/README.md
	${PROJECT_SOURCE_DIR}/CHANGELOG.md
	${PROJECT_SOURCE_DIR}/LICENSE
	${PROJECT_SOURCE_DIR}/LICENSE.LGPL-2.1
	${PROJECT_SOURCE_DIR}/LICENSE.BSD-2-Clause
	DESTINATION ${CMAKE_INSTALL_DOCDIR}
	COMPONENT dev)
# The topic pages and the example programs that the README and xskx(7)
# point to, as the source tree has them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs ${PROJECT_SOURCE_DIR}/examples
	DESTINATION ${CMAKE_INSTALL_DOCDIR}
	COMPONENT dev)
