#!/bin/bash
# Usage: check-exports.sh INCLUDE_DIR HEADERS VERSION_SCRIPT LIBRARY
#
# The export list must not drift from the API: every function declared in
# INCLUDE_DIR/HEADERS/*.h (HEADERS: xskx for libxskx, xskx-sim for
# libxskx-sim) must be listed in VERSION_SCRIPT (lib/libxskx.map,
# lib/sim/libxskx-sim.map) and exported by LIBRARY, and nothing else may
# be. A function the map lacks, or whose definition lacks XSKX_API, would
# be missing from the .so and only a user's link would notice. LIBRARY is
# a shared library (its dynamic symbols) or an archive (its global defined
# symbols: an internal one left global there would clash with a program's
# function of the same name).
#
# Each library exports its own API and no other's: a function declared in
# another directory of INCLUDE_DIR (an xskx_sim_* function of
# include/xskx-sim, for libxskx) fails the check when LIBRARY exports it,
# whatever the map says. The one exception to "declared in HEADERS" is the
# map's private node, XSKX_PRIVATE_<version> (lib/libxskx.map: the seam
# that libxskx-sim calls, docs/ARCHITECTURE.md): its functions are
# exported, are core functions (xskx__*), and no public header declares
# them.
#
# The declarations come from scripts/list-api.sh (gcc -aux-info, so CC
# must be gcc).
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 4 ]]; then
	echo "usage: $0 INCLUDE_DIR HEADERS VERSION_SCRIPT LIBRARY" >&2
	exit 2
fi
include_dir=${1%/}
headers=$2
map=$3
library=$4
cc=${CC:-gcc}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

list_api=$(dirname "$0")/list-api.sh
"$list_api" "$include_dir" "$headers" >"$work/declared"
# Every other library's API, with the directory that declares it.
: >"$work/foreign"
for dir in "$include_dir"/*/; do
	dir=${dir%/}
	dir=${dir##*/}
	if [[ $dir != "$headers" ]]; then
		"$list_api" "$include_dir" "$dir" | sed "s|\$| include/$dir|" \
			>>"$work/foreign"
	fi
done
sort -o "$work/foreign" "$work/foreign"

# Every "name;" of the version script, its comments stripped by the
# preprocessor, by node: a line "NODE {" opens one; "local: *;" has no
# name. Names of a node called *PRIVATE* are the seam's.
"$cc" -E -P -x c "$map" | awk '
	/^[[:space:]]*[A-Za-z_][A-Za-z0-9_.]*[[:space:]]*\{/ {
		node = $1
		sub(/\{.*/, "", node)
	}
	match($0, /^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*;/) {
		name = substr($0, RSTART, RLENGTH)
		gsub(/[[:space:];]/, "", name)
		print (node ~ /PRIVATE/ ? "private" : "public"), name
	}' >"$work/nodes"
awk '$1 == "public" { print $2 }' "$work/nodes" | sort -u >"$work/mapped"
awk '$1 == "private" { print $2 }' "$work/nodes" | sort -u >"$work/private"

# Defined dynamic symbols, without their @@VERSION suffix; the version
# node itself is an absolute symbol (type A) and is skipped. An archive:
# its defined global symbols ("member.o:" lines have no third field).
if [[ $library == *.a ]]; then
	nm -g --defined-only "$library" | awk 'NF == 3 { print $3 }'
else
	nm -D --defined-only "$library" |
		awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }'
fi | sort -u >"$work/exported_all"
comm -23 "$work/exported_all" "$work/private" >"$work/exported"

status=0
report() {
	local what=$1 file=$2
	if [[ -s $file ]]; then
		echo "$what:"
		sed 's/^/	/' "$file"
		status=1
	fi
}
comm -23 "$work/declared" "$work/mapped" >"$work/unmapped"
comm -13 "$work/declared" "$work/mapped" >"$work/stale"
comm -23 "$work/declared" "$work/exported" >"$work/hidden"
comm -13 "$work/declared" "$work/exported" >"$work/leaked"
join "$work/exported_all" "$work/foreign" >"$work/trespass"
comm -23 "$work/private" "$work/exported_all" >"$work/private_hidden"
{
	grep -v '^xskx__' "$work/private" || true
	cut -d' ' -f1 "$work/foreign" | sort -u |
		cat - "$work/declared" | sort | comm -12 - "$work/private"
} | sort -u >"$work/private_bad"
report "declared in $include_dir/$headers but missing from $map (add them)" \
	"$work/unmapped"
report "listed in $map but declared nowhere in $include_dir/$headers (remove them)" \
	"$work/stale"
report "declared but not exported by $library (definition lacks XSKX_API, or is missing)" \
	"$work/hidden"
report "exported by $library but not declared in $include_dir/$headers" \
	"$work/leaked"
report "exported by $library but the API of another library (the header that declares it)" \
	"$work/trespass"
report "in the private node of $map but not exported by $library (definition lacks XSKX_BACKEND_API)" \
	"$work/private_hidden"
report "in the private node of $map but not a core function (xskx__*) or declared in a public header" \
	"$work/private_bad"
if [[ $status -eq 0 ]]; then
	echo "$(wc -l <"$work/declared") functions: headers, map and exports agree" \
		"($(wc -l <"$work/private") private, $(wc -l <"$work/foreign") of other libraries not exported)"
fi
exit $status
