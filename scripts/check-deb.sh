#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The Debian packages of cmake/DebPackages.cmake, built and checked.
#
#   scripts/check-deb.sh [BUILD_DIR]          (default /tmp/build-deb)
#       Configures BUILD_DIR for the prefix /usr (no tests), builds it,
#       makes the four packages with `cpack -G DEB` and checks them as
#       --contents does; runs lintian on them when it is installed (an
#       error fails); then, as root, installs them with apt in a minimal
#       Debian 12 made by debootstrap in a folder of its own, where apt
#       brings their dependencies from Debian, and there runs xskx-bench,
#       xskx-l2fwd and xskx-fw on the simulated NIC and builds the README's
#       example against libxskx-dev through pkg-config (shared and
#       --static) and runs it. About 5 minutes on 2 cores, most of it the
#       build; needs debootstrap and the network to Debian's archive.
#
#   scripts/check-deb.sh --contents BUILD_DIR
#       Only `cpack -G DEB` in BUILD_DIR, an existing build of any prefix,
#       into a temporary folder, and the packages' checks: their names,
#       their Depends (the library and what the -dev files name) and that
#       each holds what it should and nothing of the others' (libxskx0.1
#       nothing of the simulated NIC, which is libxskx-sim0.1's, nor a
#       dependency on libpcap). Seconds; the
#       test xskx_deb (label package) runs it.
#
# CPACK: the cpack binary (default: cpack from PATH). XSKX_DEB_ROOT_CACHE: a tarball of the debootstrapped system, made on the
# first run and unpacked on the next ones (default
# BUILD_DIR/bookworm-minbase.tar); XSKX_DEB_MIRROR: the Debian archive
# (default http://deb.debian.org/debian).
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/.." && pwd)
contents_only=""
if [[ ${1:-} == --contents ]]; then
	contents_only=1
	shift
	if [[ $# -ne 1 ]]; then
		echo "usage: $0 --contents BUILD_DIR" >&2
		exit 2
	fi
fi
build=${1:-/tmp/build-deb}
mirror=${XSKX_DEB_MIRROR:-http://deb.debian.org/debian}
root_cache=${XSKX_DEB_ROOT_CACHE:-$build/bookworm-minbase.tar}

work=$(mktemp -d)
root=$work/root
mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do
		umount -l "$m" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

step() {
	echo "== $*"
}

fail() {
	echo "check-deb: $*" >&2
	exit 1
}

# --- the packages ----------------------------------------------------------

make_packages() {
	step "cpack -G DEB in $build"
	"${CPACK:-cpack}" -G DEB -B "$work/packages" \
		--config "$build/CPackConfig.cmake" \
		>"$work/cpack.log" 2>&1 || {
		cat "$work/cpack.log" >&2
		fail "cpack failed"
	}
	debs=("$work"/packages/*.deb)
	[[ ${#debs[@]} -eq 4 ]] ||
		fail "cpack made ${#debs[@]} packages, not 4: ${debs[*]##*/}"
}

# field DEB NAME: a field of the package's control file.
field() {
	dpkg-deb -f "$1" "$2"
}

# deb_of NAME: the package file whose Package field is NAME.
deb_of() {
	local deb
	for deb in "${debs[@]}"; do
		[[ $(field "$deb" Package) == "$1" ]] && echo "$deb" && return
	done
	fail "no package $1 among ${debs[*]##*/}"
}

# expect_files DEB REGEX...: every file (not folder) of DEB matches one
# REGEX, and every REGEX matches a file.
expect_files() {
	local deb=$1 re file found
	shift
	local -a files
	mapfile -t files < <(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' |
		sed 's|^\./||')
	for file in "${files[@]}"; do
		found=""
		for re in "$@"; do
			[[ $file =~ ^$re$ ]] && found=1 && break
		done
		[[ -n $found ]] || fail "${deb##*/} holds $file, which is not its to hold"
	done
	for re in "$@"; do
		found=""
		for file in "${files[@]}"; do
			[[ $file =~ ^$re$ ]] && found=1 && break
		done
		[[ -n $found ]] || fail "${deb##*/} holds no file matching $re"
	done
	echo "${deb##*/}: ${#files[@]} files, as expected"
}

# expect_links DEB [DEPENDED_ON...]: every symbolic link of DEB leads to
# a file or link of DEB or of a package it depends on (the compressed man3
# pages' links to their group's page; libxskx.so to the library's).
expect_links() {
	local deb=$1 entry path target n=0
	local -a entries
	local -A held=()
	# "PATH" for a file, "PATH TARGET" for a link.
	mapfile -t entries < <(for d in "$@"; do dpkg-deb -c "$d"; done |
		sed 's|\./||' |
		awk '$1 ~ /^-/ { print $6 } $1 ~ /^l/ { print $6, $8 }')
	for entry in "${entries[@]}"; do
		held[${entry%% *}]=1
	done
	while read -r path target; do
		[[ -n ${held[$(dirname "$path")/$target]:-} ]] ||
			fail "${deb##*/}: $path leads to $target, which none holds"
		n=$((n + 1))
	done < <(dpkg-deb -c "$deb" | sed 's|\./||' |
		awk '$1 ~ /^l/ { print $6, $8 }')
	echo "${deb##*/}: $n links, each to a file it or its dependencies hold"
}

# expect_depends DEB NAME...: DEB's Depends names every NAME.
expect_depends() {
	local deb=$1 depends name
	shift
	depends=$(field "$deb" Depends)
	for name in "$@"; do
		[[ ", $depends," == *", $name "* || ", $depends," == *", $name,"* ]] ||
			fail "${deb##*/}: Depends has no $name: $depends"
	done
	echo "${deb##*/}: Depends: $depends"
}

# expect_no_depends DEB NAME...: DEB's Depends names no NAME.
expect_no_depends() {
	local deb=$1 depends name
	shift
	depends=$(field "$deb" Depends)
	for name in "$@"; do
		[[ ", $depends," != *", $name "* && ", $depends," != *", $name,"* ]] ||
			fail "${deb##*/}: Depends names $name: $depends"
	done
}

check_packages() {
	local soversion lib sim dev tools dir='([^/]+/)*'
	# MAJOR.MINOR during 0.x, from the version's one place.
	soversion=$(sed -n 's/^#define XSKX_VERSION_\(MAJOR\|MINOR\) //p' \
		"$source_dir/include/xskx/xskx.h" | paste -sd.)
	lib=$(deb_of "libxskx$soversion")
	sim=$(deb_of "libxskx-sim$soversion")
	dev=$(deb_of libxskx-dev)
	tools=$(deb_of xskx-tools)

	# Which file is whose; the folders below the prefix are the build's
	# (the full check installs the packages and uses them from there).
	step "contents and dependencies"
	expect_files "$lib" "${dir}lib/${dir}libxskx\.so\.$soversion" \
		"${dir}lib/${dir}libxskx\.so\.$soversion\.[0-9]+" \
		"${dir}doc/libxskx$soversion/(copyright|changelog\.Debian\.gz)"
	expect_files "$sim" "${dir}lib/${dir}libxskx-sim\.so\.$soversion" \
		"${dir}lib/${dir}libxskx-sim\.so\.$soversion\.[0-9]+" \
		"${dir}doc/libxskx-sim$soversion/(copyright|changelog\.Debian\.gz)"
	expect_files "$dev" "${dir}include/xskx(-sim)?/[a-z_/.]+\.h" \
		"${dir}lib/${dir}libxskx(-sim)?\.(so|a)" \
		"${dir}pkgconfig/xskx(-sim)?\.pc" \
		"${dir}cmake/xskx/xskx[A-Za-z-]+\.cmake" \
		"${dir}man3/xskx_[a-z_]+\.3\.gz" "${dir}man7/xskx\.7\.gz" \
		"${dir}doc/xskx/(README\.md|CHANGELOG\.md|LICENSE[A-Za-z0-9.-]*|(docs|examples)/.+)" \
		"${dir}doc/libxskx-dev/(copyright|changelog\.Debian\.gz)"
	expect_files "$tools" "${dir}bin/xskx-(bench|l2fwd|fw|node-agent)" \
		"${dir}man1/xskx-(bench|l2fwd)\.1\.gz" \
		"${dir}man8/xskx-(fw|node-agent)\.8\.gz" \
		"${dir}man5/xskx-fw\.rules\.5\.gz" \
		"${dir}doc/xskx-tools/(copyright|changelog\.Debian\.gz)"
	# The library's own, from dpkg-shlibdeps; the other two on the library
	# at this very version.
	expect_depends "$lib" libc6 libxdp1 libbpf1
	expect_no_depends "$lib" libpcap0.8 "libxskx-sim$soversion"
	expect_depends "$sim" "libxskx$soversion" libc6 libpcap0.8
	[[ $(field "$sim" Depends) == *"libxskx$soversion (= $(field "$lib" Version))"* ]] ||
		fail "${sim##*/}: does not depend on exactly its own libxskx$soversion"
	expect_depends "$dev" "libxskx$soversion" "libxskx-sim$soversion" \
		libxdp-dev libbpf-dev libnl-3-dev libnl-route-3-dev \
		libnl-genl-3-dev libpcap-dev libsystemd-dev pkg-config
	expect_depends "$tools" "libxskx$soversion" "libxskx-sim$soversion" libc6
	expect_links "$lib"
	expect_links "$sim"
	expect_links "$dev" "$lib" "$sim"
	[[ $(dpkg-deb -I "$lib" shlibs) == "libxskx $soversion libxskx$soversion "* ]] ||
		fail "${lib##*/}: its shlibs file is not for libxskx $soversion"
	dpkg-deb -I "$lib" triggers | grep -qx 'activate-noawait ldconfig' ||
		fail "${lib##*/}: no ldconfig trigger"
	[[ $(dpkg-deb -I "$sim" shlibs) == "libxskx-sim $soversion libxskx-sim$soversion "* ]] ||
		fail "${sim##*/}: its shlibs file is not for libxskx-sim $soversion"
	dpkg-deb -I "$sim" triggers | grep -qx 'activate-noawait ldconfig' ||
		fail "${sim##*/}: no ldconfig trigger"
}

if [[ -n $contents_only ]]; then
	[[ -f $build/CPackConfig.cmake ]] ||
		fail "no $build/CPackConfig.cmake: configure and build $build first"
	make_packages
	check_packages
	exit 0
fi

# --- the full check --------------------------------------------------------

if [[ $EUID -ne 0 ]]; then
	fail "installing in a debootstrapped Debian needs root (chroot, mount)"
fi
command -v debootstrap >/dev/null ||
	fail "no debootstrap: apt-get install debootstrap"

step "configure and build $build for the prefix /usr"
cmake -S "$source_dir" -B "$build" -DCMAKE_INSTALL_PREFIX=/usr \
	-DBUILD_TESTING=OFF >"$work/cmake.log" 2>&1 || {
	cat "$work/cmake.log" >&2
	fail "configuring $build failed"
}
cmake --build "$build" -j "$(nproc)" >"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	fail "building $build failed"
}
make_packages
check_packages

if command -v lintian >/dev/null; then
	step "lintian"
	# Errors fail; warnings are printed (uncompressed man pages, a
	# maintainer address to set with -DXSKX_DEB_MAINTAINER=...).
	lintian --tag-display-limit 0 "${debs[@]}" | tee "$work/lintian.log" || true
	if grep -q '^E: ' "$work/lintian.log"; then
		fail "lintian found errors (above)"
	fi
else
	echo "lintian not installed: not run (apt-get install lintian)"
fi

step "a minimal Debian 12 in $root"
mkdir -p "$root"
if [[ -f $root_cache ]]; then
	tar -xf "$root_cache" -C "$root"
else
	debootstrap --variant=minbase bookworm "$root" "$mirror" \
		>"$work/debootstrap.log" 2>&1 || {
		tail -n 20 "$work/debootstrap.log" >&2
		fail "debootstrap failed"
	}
	tar -cf "$root_cache" -C "$root" .
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
for m in proc sys dev; do
	mount --rbind "/$m" "$root/$m"
	mounted=("$root/$m" "${mounted[@]}")
done

in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive "$@"
}

step "apt install the four packages, their dependencies from Debian"
mkdir -p "$root/tmp/debs"
cp "${debs[@]}" "$root/tmp/debs/"
in_root apt-get update -q >"$work/apt.log" 2>&1 || {
	cat "$work/apt.log" >&2
	fail "apt-get update failed in the new system"
}
in_root sh -c 'apt-get install -q -y --no-install-recommends /tmp/debs/*.deb' \
	>>"$work/apt.log" 2>&1 || {
	tail -n 30 "$work/apt.log" >&2
	fail "apt could not install the packages"
}
in_root dpkg -l 'libxskx*' xskx-tools | grep '^ii'

step "the tools on the simulated NIC"
summary=$(in_root xskx-bench --sim --duration 1 --quiet --json)
rx=$(grep -o '"rx_packets": [0-9]*' <<<"$summary" | head -n 1)
[[ -n $rx && ${rx##* } -gt 0 ]] || fail "xskx-bench received nothing: $summary"
echo "xskx-bench --sim: $rx"
in_root xskx-l2fwd --sim --duration 1 --quiet >/dev/null ||
	fail "xskx-l2fwd --sim failed"
printf 'allow proto udp\ndefault deny\n' >"$root/tmp/allow.rules"
in_root xskx-fw --sim -r /tmp/allow.rules --duration 1 --quiet >/dev/null ||
	fail "xskx-fw --sim failed"
echo "xskx-l2fwd --sim, xskx-fw --sim: ran"

step "the README's example against libxskx-dev, through pkg-config"
in_root apt-get install -q -y --no-install-recommends gcc libc6-dev \
	>>"$work/apt.log" 2>&1 || {
	tail -n 30 "$work/apt.log" >&2
	fail "apt could not install gcc"
}
"$source_dir/scripts/check-readme-example.sh" --print \
	"$source_dir/README.md" examples/minimal/rxdrop.c >"$root/tmp/example.c"
# shellcheck disable=SC2016 # the chroot's shell runs pkg-config
# The example runs on the simulated NIC too (--sim): xskx-sim, which
# requires xskx.
in_root sh -c 'gcc -O2 -o /tmp/example-shared /tmp/example.c \
	$(pkg-config --cflags --libs xskx-sim)' ||
	fail "the README's example did not build with pkg-config --libs xskx-sim"
# The archives by name, as pkg-config --static alone would still pick the
# .so files.
# shellcheck disable=SC2016
in_root sh -c 'gcc -O2 -o /tmp/example-static /tmp/example.c \
	$(pkg-config --cflags --libs --static xskx-sim |
	  sed "s/-lxskx-sim\b/-l:libxskx-sim.a/; s/-lxskx\b/-l:libxskx.a/")' ||
	fail "the README's example did not build with pkg-config --static"
for so in libxskx libxskx-sim; do
	in_root readelf -d /tmp/example-shared | grep -q "NEEDED.*$so\\.so" ||
		fail "the shared example does not load $so.so"
done
if in_root readelf -d /tmp/example-static | grep -q 'NEEDED.*libxskx'; then
	fail "the static example loads libxskx.so"
fi
for linkage in shared static; do
	out=$(in_root "/tmp/example-$linkage" --sim)
	[[ $out == "received 1000000 packets" ]] ||
		fail "the README's example ($linkage) printed: $out"
	echo "README example, $linkage: $out"
done
step "check-deb: the packages install and work on Debian 12"
