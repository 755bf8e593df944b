#!/bin/bash
# Installs, from Debian's own packages, everything xskx needs to build, test
# and benchmark; made for Debian 12 (bookworm). Safe to run again: when every
# package is present it changes nothing and needs neither root nor network.
# Runs as root, or through sudo when there is one.
set -euo pipefail

packages=(
	build-essential		# gcc, make, libc headers
	binutils		# nm, readelf: the export and install checks
	cmake
	pkg-config
	clang llvm		# the XDP program: clang -target bpf, llvm-strip
	libclang-rt-14-dev	# clang's libFuzzer and sanitizer runtimes: fuzz.sh
	libxdp-dev libbpf-dev
	libelf-dev zlib1g-dev	# libbpf's own, for static linking
	libnl-3-dev libnl-route-3-dev libnl-genl-3-dev
	check libsubunit-dev	# the test framework
	iproute2		# veth tests in network namespaces
	gdb			# veth_native.ATTACH_STEP_*: a process stopped at a step
	valgrind		# instruction counts of the benchmark
	groff-base mandoc	# the man pages' check: groff -ww, mandoc -Tlint
	abigail-tools		# abidw, abidiff: the ABI check
	python3			# the JSON checks of the example programs
	dpkg-dev file		# cpack -G DEB: dpkg-shlibdeps, file
	debootstrap		# scripts/check-deb.sh: a clean Debian 12
	gnuplot-nox		# scripts/charts.py draws its SVGs with it
	iputils-ping iperf3 curl ethtool	# real clients: tests/realtraffic
	libpcap-dev		# the simulated NIC's and the programs' captures
	libsystemd-dev		# libpcap's static link (pkg-config --static: dbus-1 wants -lsystemd)
	tcpdump tshark		# tests read the captures xskx writes with them
	qemu-system-x86 busybox-static cpio	# scripts/virtio-zc.sh's guest
	util-linux		# setpriv: veth_native.UNPRIV_* drop to CAP_NET_RAW
)

missing=()
for package in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null ||
		true)
	if [[ $status != installed ]]; then
		missing+=("$package")
	fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "install-deps: all ${#packages[@]} packages are installed"
	exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
	if ! command -v sudo >/dev/null; then
		echo "install-deps: run as root to install: ${missing[*]}" >&2
		exit 1
	fi
	as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
# iperf3's package asks whether to start a daemon at boot: no, answered
# before it asks (the tests start their own server in a namespace).
echo 'iperf3 iperf3/start_daemon boolean false' |
	"${as_root[@]}" debconf-set-selections
"${as_root[@]}" apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -q -y --no-install-recommends "${missing[@]}"
