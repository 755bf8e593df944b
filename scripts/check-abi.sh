#!/bin/bash
# Usage: check-abi.sh [--update] INCLUDE_DIR SHARED_LIBRARY BASELINE
#
# libxskx.so's ABI, and libxskx-sim.so's, must not change by accident. The
# public ABI — the exported functions and every type they reach that
# include/*/*.h defines (sizes, field offsets, enumerators, prototypes) — is
# read from the library's DWARF by abidw (libabigail, Debian's
# abigail-tools), with every directory of INCLUDE_DIR (xskx, xskx-sim) as
# the public headers, and compared by abidiff with BASELINE
# (abi/libxskx.abi, abi/libxskx-sim.abi). libxskx's private node (the
# seam libxskx-sim calls, lib/libxskx.map) is in its baseline too: its
# functions are exported, their lib/ types are not described. Any
# difference abidiff reports fails, a compatible one (a function added) as
# well as an incompatible one (a field added to an output struct, a
# parameter changed, a function removed): the baseline changes only on
# purpose, in the commit that changes the ABI.
#
# When an ABI change is intended, refresh the baseline from a build with
# debug info (the default Release keeps it, as do RelWithDebInfo and Debug)
# and commit it with the change:
#
#	scripts/check-abi.sh --update include build/lib/libxskx.so abi/libxskx.abi
#	scripts/check-abi.sh --update include build/lib/libxskx-sim.so abi/libxskx-sim.abi
#
# and, in the same commit: an incompatible change must change the SOVERSION
# (lib/CMakeLists.txt), so that programs built against the old library
# refuse to load the new one. Only two kinds of change are compatible: an
# added function, which goes into a new version node of lib/libxskx.map
# (never an older one), and fields added at the end of an options struct,
# which the sz rule of xskx/opts.h keeps compatible. Anything else — an
# output struct's size or layout, an enumerator's value, a prototype, a
# function removed — is incompatible. CHANGELOG.md says what changed.
#
# Exit status: 0 same ABI (or baseline written), 1 the ABI changed or a tool
# failed, 2 usage, 77 skipped (a library without debug info, as Release
# builds are, or a machine other than x86_64, where the baseline was made).
set -euo pipefail
export LC_ALL=C

update=false
if [[ ${1:-} == --update ]]; then
	update=true
	shift
fi
if [[ $# -ne 3 ]]; then
	echo "usage: $0 [--update] INCLUDE_DIR SHARED_LIBRARY BASELINE" >&2
	exit 2
fi
include_dir=$1
library=$2
baseline=$3
skip=77

for tool in abidw abidiff readelf; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool not found: run scripts/install-deps.sh" >&2
		exit 1
	fi
done
if [[ $(uname -m) != x86_64 ]]; then
	echo "skipped: $baseline describes x86_64, this is $(uname -m)"
	exit $skip
fi
sections=$(readelf -S --wide "$library")
if ! grep -q '\.debug_info' <<<"$sections"; then
	echo "skipped: $library has no debug info (build with" \
		"the default CMAKE_BUILD_TYPE Release, or RelWithDebInfo or Debug, to check the ABI)"
	exit $skip
fi

# The description is kept free of anything but the ABI: no paths, line
# numbers or DT_NEEDED, no private types, and type ids derived from the
# types rather than from their order, so that the baseline changes only
# when the ABI does.
headers_dirs=()
for dir in "$include_dir"/*/; do
	headers_dirs+=(--headers-dir "${dir%/}")
done
describe() {
	abidw "${headers_dirs[@]}" --drop-private-types \
		--exported-interfaces-only --drop-undefined-syms \
		--no-corpus-path --no-comp-dir-path --no-show-locs \
		--no-elf-needed --type-id-style hash \
		--out-file "$2" "$1"
}

if $update; then
	describe "$library" "$baseline"
	echo "wrote $baseline: commit it with the ABI change; an incompatible" \
		"change also changes the SOVERSION (see $0)"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
describe "$library" "$work/current.abi"

status=0
abidiff "$baseline" "$work/current.abi" >"$work/report" || status=$?
if [[ $status -eq 0 ]]; then
	echo "the ABI of $library matches $baseline"
	exit 0
fi
cat "$work/report"
# abidiff's status is a bit field: 1 error, 2 usage, 4 ABI change,
# 8 incompatible ABI change.
if ((status & 3)); then
	echo "abidiff failed (status $status)" >&2
	exit 1
fi
# abidiff calls a change incompatible only when it is sure (a function
# removed, say); a struct that grew is "an ABI change" to it, yet breaks
# every program that passes the old size.
if ((status & 8)); then
	echo "INCOMPATIBLE ABI change against $baseline."
else
	echo "ABI change against $baseline: compatible only if it adds" \
		"functions; a changed struct size or layout, enumerator or" \
		"prototype breaks programs built against the old headers."
fi
echo "If intended: refresh the baseline in the same commit, and change" \
	"the SOVERSION (lib/CMakeLists.txt) unless the change only adds" \
	"functions (a new node of lib/libxskx.map) or fields at the end of an" \
	"options struct (the sz rule of xskx/opts.h); see $0."
echo "refresh: $0 --update $include_dir $library $baseline"
exit 1
