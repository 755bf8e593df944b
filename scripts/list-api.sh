#!/bin/bash
# Usage: list-api.sh INCLUDE_DIR
#
# Prints, sorted, one a line, the name of every function declared in
# INCLUDE_DIR/xskx/*.h: the library's API, as the export check
# (check-exports.sh) and the man page check (check-man.sh) read it.
#
# The declarations come from the compiler, not from a pattern over the
# text: gcc -aux-info writes one normalised prototype per function it saw,
# tagged with the file that declared it. CC must therefore be gcc.
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 1 ]]; then
	echo "usage: $0 INCLUDE_DIR" >&2
	exit 2
fi
include_dir=$(realpath "$1")
cc=${CC:-gcc}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for header in "$include_dir"/xskx/*.h; do
	printf '#include <xskx/%s>\n' "${header##*/}"
done >"$work/all.c"
"$cc" -I"$include_dir" -fsyntax-only -aux-info "$work/aux" "$work/all.c"
# "/* <file>:<line>:NC */ extern int xskx_sim_poll (struct xskx_sim *);"
# Static inline helpers appear as "static ...": they are not exported.
grep -F "/* $include_dir/xskx/" "$work/aux" |
	sed -n 's/^[^*]*\*[^*]*\*\/ extern [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\) (.*/\1/p' |
	sort -u >"$work/declared"
if [[ ! -s $work/declared ]]; then
	echo "no function declarations found in $include_dir/xskx/*.h" >&2
	exit 1
fi
cat "$work/declared"
