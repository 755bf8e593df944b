#!/bin/bash
# Usage: list-api.sh INCLUDE_DIR [HEADERS...]
#
# Prints, sorted, one a line, the name of every function declared in
# INCLUDE_DIR/HEADERS/*.h for each HEADERS (default: every directory of
# INCLUDE_DIR): a library's API, as the export check (check-exports.sh)
# and the man page check (check-man.sh) read it. include/xskx is libxskx's,
# include/xskx-sim libxskx-sim's.
#
# The declarations come from the compiler, not from a pattern over the
# text: gcc -aux-info writes one normalised prototype per function it saw,
# tagged with the file that declared it. CC must therefore be gcc.
set -euo pipefail
export LC_ALL=C

if [[ $# -lt 1 ]]; then
	echo "usage: $0 INCLUDE_DIR [HEADERS...]" >&2
	exit 2
fi
include_dir=$(realpath "$1")
shift
if [[ $# -eq 0 ]]; then
	for dir in "$include_dir"/*/; do
		dir=${dir%/}
		set -- "$@" "${dir##*/}"
	done
fi
cc=${CC:-gcc}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for headers in "$@"; do
	for header in "$include_dir/$headers"/*.h; do
		printf '#include <%s/%s>\n' "$headers" "${header##*/}"
	done
done >"$work/all.c"
"$cc" -I"$include_dir" -fsyntax-only -aux-info "$work/aux" "$work/all.c"
# "/* <file>:<line>:NC */ extern int xskx_sim_poll (struct xskx_sim *);"
# Static inline helpers appear as "static ...": they are not exported.
# The headers of one directory include another's (xskx-sim/sim.h includes
# xskx/port.h): only the declarations made in HEADERS count.
for headers in "$@"; do
	grep -F "/* $include_dir/$headers/" "$work/aux" |
		sed -n 's/^[^*]*\*[^*]*\*\/ extern [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\) (.*/\1/p' ||
		true
done | sort -u >"$work/declared"
if [[ ! -s $work/declared ]]; then
	echo "no function declarations found in $include_dir/{$*}/*.h" >&2
	exit 1
fi
cat "$work/declared"
