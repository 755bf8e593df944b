#!/bin/bash
# Usage: check-exports.sh INCLUDE_DIR VERSION_SCRIPT LIBRARY
#
# The export list must not drift from the API: every function declared in
# INCLUDE_DIR/xskx/*.h must be listed in VERSION_SCRIPT (lib/libxskx.map) and
# exported by LIBRARY, and nothing else may be. A function the map lacks, or
# whose definition lacks XSKX_API, would be missing from the .so and only a
# user's link would notice. LIBRARY is libxskx.so (its dynamic symbols) or
# libxskx.a (its global defined symbols: an internal one left global there
# would clash with a program's function of the same name).
#
# The declarations come from scripts/list-api.sh (gcc -aux-info, so CC
# must be gcc).
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 3 ]]; then
	echo "usage: $0 INCLUDE_DIR VERSION_SCRIPT LIBRARY" >&2
	exit 2
fi
include_dir=$1
map=$2
library=$3
cc=${CC:-gcc}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$(dirname "$0")/list-api.sh" "$include_dir" >"$work/declared"

# Every "name;" of the version script, its comments stripped by the
# preprocessor; "local: *;" has no name.
"$cc" -E -P -x c "$map" |
	grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*;' |
	tr -d ' \t;' | sort -u >"$work/mapped"

# Defined dynamic symbols, without their @@VERSION suffix; the version
# node itself is an absolute symbol (type A) and is skipped. An archive:
# its defined global symbols ("member.o:" lines have no third field).
if [[ $library == *.a ]]; then
	nm -g --defined-only "$library" | awk 'NF == 3 { print $3 }'
else
	nm -D --defined-only "$library" |
		awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }'
fi | sort -u >"$work/exported"

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
report "declared in include/xskx but missing from $map (add them)" \
	"$work/unmapped"
report "listed in $map but declared nowhere in include/xskx (remove them)" \
	"$work/stale"
report "declared but not exported by $library (definition lacks XSKX_API, or is missing)" \
	"$work/hidden"
report "exported by $library but not declared in include/xskx" \
	"$work/leaked"
if [[ $status -eq 0 ]]; then
	echo "$(wc -l <"$work/declared") functions: headers, map and exports agree"
fi
exit $status
