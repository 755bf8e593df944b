#!/bin/bash
# Usage: check-install.sh BUILD_DIR
#
# Installs BUILD_DIR into a temporary prefix and builds cmake/consumer
# against the installed copy four ways, each of which must compile, link and
# run, using the installed library and not the build tree:
#   pkg-config            -> libxskx.so
#   pkg-config --static   -> libxskx.a (no libxskx.so in the program)
#   find_package(xskx)    -> xskx::xskx, and xskx::xskx_static
# and the same four ways its program on the simulated NIC
# (cmake/consumer/sim_consumer.c) against libxskx-sim: pkg-config xskx-sim,
# xskx::xskx_sim, xskx::xskx_sim_static; while the plain program loads
# no libxskx-sim;
# and, when the BPF headers are installed, compiles an XDP program on
# <xskx/bpf/xskx_maps.bpf.h> with clang; and checks that every page and
# link of man/ is installed where man looks for it; and that the programs
# xskx-bench, xskx-l2fwd and xskx-fw are installed in bin/ with their pages,
# load the installed libxskx and run (--help) from the prefix; and that the
# documents are installed: the README, and every file of docs/ and
# examples/ that the README, the topic pages and the man pages name.
# Environment: CC, and CFLAGS (also used to link: the sanitizer flags of a
# sanitized build), CMAKE (the cmake binary; default: cmake from PATH),
# CLANG (default: clang from PATH), MANDIR (CMAKE_INSTALL_MANDIR; default
# share/man), DOCDIR (CMAKE_INSTALL_DOCDIR; default share/doc/xskx).
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$1
source_dir=$(cd "$(dirname "$0")/.." && pwd)
consumer=$source_dir/cmake/consumer
cc=${CC:-cc}
cflags=${CFLAGS:-}
cmake=${CMAKE:-cmake}
clang=${CLANG:-clang}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

step() {
	echo "== $*"
}

# Runs a built consumer and checks which libxskx (and libxskx-sim, for
# the program on the simulated NIC: libs "libxskx libxskx-sim") it loaded.
run_consumer() {
	local program=$1 linkage=$2 libs=${3:-libxskx} dynamic lib
	"$program"
	# Captured first: grep -q ending a pipe early would fail it (pipefail).
	if [[ $linkage == static ]]; then
		dynamic=$(readelf -d "$program")
		if grep -q 'NEEDED.*libxskx' <<<"$dynamic"; then
			echo "$program: linked to a shared libxskx, not the archives" >&2
			return 1
		fi
		return 0
	fi
	dynamic=$(ldd "$program")
	for lib in $libs; do
		if ! grep -q "$lib\.so.* => $prefix/" <<<"$dynamic"; then
			echo "$program: $lib.so not loaded from $prefix:" >&2
			echo "$dynamic" >&2
			return 1
		fi
	done
	if [[ $libs == libxskx ]] && grep -q 'libxskx-sim' <<<"$dynamic"; then
		echo "$program: loads libxskx-sim, which it does not use" >&2
		return 1
	fi
}

step "install into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" ||
	{ cat "$work/install.log" >&2; exit 1; }
pc=$(find "$prefix" -name xskx.pc)
if [[ -z $pc ]]; then
	echo "xskx.pc not installed" >&2
	exit 1
fi
libdir=$(dirname "$(dirname "$pc")")
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH

# Flags are lists of words: split them once, here.
read -ra cflags_words <<<"$cflags"
read -ra pc_cflags <<<"$(pkg-config --cflags xskx)"
read -ra pc_libs <<<"$(pkg-config --libs xskx)"
read -ra pc_static_libs <<<"$(pkg-config --static --libs xskx)"
read -ra sim_cflags <<<"$(pkg-config --cflags xskx-sim)"
read -ra sim_libs <<<"$(pkg-config --libs xskx-sim)"
read -ra sim_static_libs <<<"$(pkg-config --static --libs xskx-sim)"

step "pkg-config, shared: ${pc_cflags[*]} ${pc_libs[*]}"
"$cc" "${cflags_words[@]}" "${pc_cflags[@]}" "$consumer/consumer.c" \
	-o "$work/pc-shared" "${pc_libs[@]}" -Wl,-rpath,"$libdir"
run_consumer "$work/pc-shared" shared

step "pkg-config, static: ${pc_static_libs[*]}"
# -l:libxskx.a makes the linker take the archive over the .so beside it.
"$cc" "${cflags_words[@]}" "${pc_cflags[@]}" "$consumer/consumer.c" \
	-o "$work/pc-static" "${pc_static_libs[@]/#-lxskx/-l:libxskx.a}"
run_consumer "$work/pc-static" static

step "pkg-config xskx-sim, shared: ${sim_cflags[*]} ${sim_libs[*]}"
"$cc" "${cflags_words[@]}" "${sim_cflags[@]}" "$consumer/sim_consumer.c" \
	-o "$work/pc-sim-shared" "${sim_libs[@]}" -Wl,-rpath,"$libdir"
run_consumer "$work/pc-sim-shared" shared "libxskx libxskx-sim"

step "pkg-config xskx-sim, static: ${sim_static_libs[*]}"
sim_static_libs=("${sim_static_libs[@]/#-lxskx-sim/-l:libxskx-sim.a}")
"$cc" "${cflags_words[@]}" "${sim_cflags[@]}" "$consumer/sim_consumer.c" \
	-o "$work/pc-sim-static" "${sim_static_libs[@]/#-lxskx/-l:libxskx.a}"
run_consumer "$work/pc-sim-static" static

for target in xskx::xskx xskx::xskx_static; do
	step "find_package(xskx), $target"
	dir=$work/cmake-${target#xskx::}
	"$cmake" -S "$consumer" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" \
		-DXSKX_LIBRARY="$target" -DXSKX_SIM_LIBRARY="${target/#xskx::xskx/xskx::xskx_sim}" \
		>"$dir.log" ||
		{ cat "$dir.log" >&2; exit 1; }
	found=$(sed -n 's/^xskx_DIR:PATH=//p' "$dir/CMakeCache.txt")
	if [[ $found != "$prefix"/* ]]; then
		echo "find_package(xskx) found $found, not the copy in $prefix" >&2
		exit 1
	fi
	"$cmake" --build "$dir" >>"$dir.log" ||
		{ cat "$dir.log" >&2; exit 1; }
	if [[ $target == xskx::xskx ]]; then
		run_consumer "$dir/consumer" shared
		run_consumer "$dir/sim_consumer" shared "libxskx libxskx-sim"
	else
		run_consumer "$dir/consumer" static
		run_consumer "$dir/sim_consumer" static
	fi
done
maps_header=$prefix/include/xskx/bpf/xskx_maps.bpf.h
if [[ -f $maps_header ]]; then
	step "XDP program on <xskx/bpf/xskx_maps.bpf.h>"
	# clang's BPF target does not search the multiarch <asm/...> headers.
	"$clang" -target bpf -O2 -g -Wall -Werror -I"$prefix/include" \
		-idirafter "/usr/include/$("$cc" -print-multiarch)" \
		-c "$consumer/consumer.bpf.c" -o "$work/consumer.bpf.o"
fi

step "man pages"
# Where man looks for NAME in section N: MANDIR/manN/NAME.N (a link to a
# group's page must lead to it).
for page in "$source_dir"/man/man3/*.3 "$source_dir"/man/man7/*.7 \
	"$source_dir"/man/man1/*.1 "$source_dir"/man/man5/*.5 \
	"$source_dir"/man/man8/*.8; do
	name=${page##*/}
	installed=$prefix/${MANDIR:-share/man}/man${name##*.}/$name
	if [[ ! -f $installed ]]; then
		echo "man ${name%.*}: no page $installed" >&2
		exit 1
	fi
done

step "documents"
# What the README and xskx(7) send a reader to must be on the machine:
# docs/ and examples/ are installed as the source tree has them.
docdir=$prefix/${DOCDIR:-share/doc/xskx}
if [[ ! -f $docdir/README.md ]]; then
	echo "README.md: not installed in $docdir" >&2
	exit 1
fi
named=$(cd "$source_dir" && sed 's/\\-/-/g' README.md docs/*.md man/man*/* |
	grep -oE '(^|[ `(])(docs|examples)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' |
	sed 's/^[ `(]//' | sort -u)
for path in $named; do
	if [[ ! -e $docdir/$path ]]; then
		echo "$path: the documents name it, but it is not installed in $docdir" >&2
		exit 1
	fi
done
echo "README.md and the $(wc -w <<<"$named") files of docs/ and examples/ the documents name are in $docdir"

step "the programs"
# Each program with its page: section 1, but xskx-fw and xskx-node-agent
# (8, administrators' daemons) and xskx-fw's rule file (5).
for page in bin/xskx-bench:man1/xskx-bench.1 bin/xskx-l2fwd:man1/xskx-l2fwd.1 \
	bin/xskx-fw:man8/xskx-fw.8 bin/xskx-fw:man5/xskx-fw.rules.5 \
	bin/xskx-node-agent:man8/xskx-node-agent.8; do
	program=$prefix/${page%%:*}
	installed=$prefix/${MANDIR:-share/man}/${page#*:}
	if [[ ! -x $program ]]; then
		echo "${program##*/}: not installed as $program" >&2
		exit 1
	fi
	if [[ ! -f $installed ]]; then
		echo "${program##*/}: no page $installed" >&2
		exit 1
	fi
	dynamic=$(ldd "$program")
	if ! grep -q "libxskx\.so.* => $prefix/" <<<"$dynamic"; then
		echo "$program: libxskx.so not loaded from $prefix:" >&2
		echo "$dynamic" >&2
		exit 1
	fi
done
# From the prefix, with no build tree to fall back on.
(cd "$work" && "$prefix/bin/xskx-bench" --help >"$work/help.txt")
if ! grep -q '^Usage: xskx-bench' "$work/help.txt"; then
	echo "$prefix/bin/xskx-bench --help printed no usage:" >&2
	cat "$work/help.txt" >&2
	exit 1
fi
"$prefix/bin/xskx-l2fwd" --help >/dev/null
"$prefix/bin/xskx-fw" --help >/dev/null

step "the installed xskx works through pkg-config and find_package; its man pages and documents are in place; the programs run from the prefix"
