# Debian packages: `cpack -G DEB` in a build tree makes one package per
# install component (cmake/Package.cmake, examples/CMakeLists.txt):
#
#   libxskx0.1   lib    libxskx.so.0.1.0 and its soname link (the package
#                       is named after the soname, as Debian's policy asks)
#   libxskx-sim0.1 simlib  libxskx-sim.so.0.1.0, the simulated NIC, and its
#                       soname link: a package of its own, so that a
#                       production host installs libxskx0.1 without the
#                       simulator (nor libpcap); one shared library per
#                       package, named after its soname, as policy asks
#   libxskx-dev  dev    headers (include/xskx, include/xskx-sim),
#                       libxskx.so, libxskx.a, libxskx-sim.so,
#                       libxskx-sim.a, xskx.pc, xskx-sim.pc, the CMake
#                       package, man3 and man7, the documents. One -dev
#                       for both libraries: their CMake package is one
#                       (find_package(xskx) gives xskx::xskx_sim too), and
#                       a program is built against both at one version
#   xskx-tools   tools  xskx-bench, xskx-l2fwd, xskx-fw, xskx-node-agent and
#                       their pages
#
# The packages install below CMAKE_INSTALL_PREFIX: configure with
# -DCMAKE_INSTALL_PREFIX=/usr for packages that Debian's paths expect
# (scripts/check-deb.sh builds them so and installs them in a clean
# Debian 12). dpkg-shlibdeps computes what the library and the tools need
# from Debian; the -dev package needs what xskx.pc and the headers name.

set(xskx_deb_lib_name "libxskx")
get_target_property(xskx_deb_soversion xskx SOVERSION)
set(xskx_deb_lib_package ${xskx_deb_lib_name}${xskx_deb_soversion})
set(XSKX_DEB_MAINTAINER "xskx maintainers <maintainers@xskx.invalid>"
	CACHE STRING "The Maintainer field of the Debian packages")

set(CPACK_PACKAGE_NAME xskx)
# Each package's description below starts with its own summary line. CPack
# would put the project's summary before each one, unless that summary is
# CPack's default: left at it, so that the three summaries differ.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_VENDOR "The xskx authors")
set(CPACK_PACKAGE_CONTACT "${XSKX_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/DebCompress.cmake)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib simlib dev)
if(TARGET xskx-bench)
	list(APPEND CPACK_COMPONENTS_ALL tools)
endif()

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools link the library of this very build, which no package on the
# system provides yet: dpkg-shlibdeps finds it here, and the dependency on
# it comes from the component's (CPACK_COMPONENT_TOOLS_DEPENDS).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_LIB_PACKAGE_NAME ${xskx_deb_lib_package})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
# A shlibs file for the package that holds a shared library (CPack has no
# per-package switch; the -dev package's libxskx.so is a link, which it
# skips). ldconfig runs through dpkg's trigger, not the maintainer scripts
# CPack would write: cmake/deb/ has the trigger and scripts that do
# nothing.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA
	${CMAKE_CURRENT_LIST_DIR}/deb/triggers
	${CMAKE_CURRENT_LIST_DIR}/deb/postinst
	${CMAKE_CURRENT_LIST_DIR}/deb/postrm)
set(CPACK_COMPONENT_LIB_DESCRIPTION
	"AF_XDP packet I/O library
xskx moves packets between a network interface and user space through
AF_XDP sockets: UMEM and frame pool, the four rings, a burst API, an
embedded XDP redirect program; its simulated NIC, which follows the
kernel's rules, for tests and benchmarks without one, is libxskx-sim.

This package holds the shared library.")

# libxskx-sim calls libxskx's private, version-locked seam
# (docs/ARCHITECTURE.md): it depends on the library of its own version,
# exactly, beside what dpkg-shlibdeps finds (libpcap, libc).
set(CPACK_DEBIAN_SIMLIB_PACKAGE_NAME ${xskx_deb_lib_name}-sim${xskx_deb_soversion})
set(CPACK_DEBIAN_SIMLIB_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_SIMLIB_DEPENDS lib)
set(CPACK_DEBIAN_SIMLIB_PACKAGE_CONTROL_EXTRA
	${CMAKE_CURRENT_LIST_DIR}/deb/triggers
	${CMAKE_CURRENT_LIST_DIR}/deb/postinst
	${CMAKE_CURRENT_LIST_DIR}/deb/postrm)
set(CPACK_COMPONENT_SIMLIB_DESCRIPTION
	"AF_XDP packet I/O library: the simulated NIC
xskx's simulated NIC is a user-space model of a zero-copy AF_XDP driver
and of the kernel's xsk code: ports, queues, wires, traffic sources and
captures, under the kernel's rules, so that a program built on xskx runs
and is tested without a NIC or privileges.

This package holds the shared library libxskx-sim, which works with the
libxskx of its own version only.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME ${xskx_deb_lib_name}-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib simlib)
# xskx.pc requires libxdp, libbpf and libnl, xskx-sim.pc libpcap
# (Requires.private: their -I flags, and with --static their libraries);
# xskxConfig.cmake finds them through pkg-config. libpcap's own static link (pkg-config --static: dbus-1)
# names -lsystemd, which libsystemd-dev provides.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
	"libxdp-dev, libbpf-dev, libnl-3-dev, libnl-route-3-dev, libnl-genl-3-dev, libpcap-dev, libsystemd-dev, pkg-config")
set(CPACK_COMPONENT_DEV_DESCRIPTION
	"AF_XDP packet I/O library (development files)
xskx moves packets between a network interface and user space through
AF_XDP sockets.

This package holds the headers, the static libraries, the pkg-config and
CMake files, and the API's manual pages (man 7 xskx), of libxskx and of
its simulated NIC, libxskx-sim.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME xskx-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
set(CPACK_COMPONENT_TOOLS_DEPENDS lib simlib)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
	"AF_XDP benchmark, forwarder and firewall
Programs built on the xskx library: xskx-bench, an xdpsock-style
benchmark (rxdrop, txonly, l2fwd); xskx-l2fwd, a forwarder between two
interfaces; xskx-fw, a two-stage firewall whose first stage runs in the
XDP program. Each runs on a real interface or on a simulated NIC, and
prints a line per second, JSON or JSON Lines. xskx-node-agent hands
AF_XDP sockets of one shared UMEM to unprivileged processes.")

# What Debian's tools look for in every package's /usr/share/doc/PACKAGE:
# the copyright (both licences: the LGPL by reference to Debian's copy)
# and a changelog (compressed by DebCompress.cmake, with the man pages).
# Only packages carry them (EXCLUDE_FROM_ALL): `cmake --install` puts the
# licence texts in CMAKE_INSTALL_DOCDIR instead.
file(READ ${PROJECT_SOURCE_DIR}/LICENSE xskx_deb_license)
file(READ ${PROJECT_SOURCE_DIR}/LICENSE.BSD-2-Clause xskx_deb_bsd)
set(xskx_deb_dir ${PROJECT_BINARY_DIR}/deb)
file(WRITE ${xskx_deb_dir}/copyright
	"xskx\n\n${xskx_deb_license}\n"
	"On Debian systems the GNU Lesser General Public License version 2.1 "
	"is in /usr/share/common-licenses/LGPL-2.1.\n\n"
	"The BSD 2-Clause License:\n\n${xskx_deb_bsd}")
string(TIMESTAMP xskx_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${xskx_deb_dir}/changelog.Debian
	"xskx (${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}) unstable; urgency=medium\n\n"
	"  * Built from the xskx source tree; its CHANGELOG.md says what\n"
	"    this version holds.\n\n"
	" -- ${XSKX_DEB_MAINTAINER}  ${xskx_deb_date}\n")
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
	string(TOUPPER ${component} upper)
	install(FILES ${xskx_deb_dir}/copyright ${xskx_deb_dir}/changelog.Debian
		DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME}
		COMPONENT ${component}
		EXCLUDE_FROM_ALL)
endforeach()

include(CPack)
