#!/bin/bash
# Usage: check-doc-names.sh SOURCE_DIR
#
# Every name the documents give must exist: README.md, tests/README.md,
# docs/*.md, the man pages (man/man*/*) and the public headers' comments
# (include/xskx/*.h) are read for
#   - functions and macros, xskx_NAME( — declared or defined somewhere in
#     include/, lib/, bpf/, examples/ or tests/ (the API, a library
#     internal such as xskx__pool_take, or a program's own);
#   - headers, xskx/NAME.h — in include/ (or bpf/ for xskx/bpf/...);
#   - files and folders of the tree, lib/..., docs/..., examples/...,
#     scripts/..., tests/..., include/..., bpf/..., cmake/..., man/... —
#     present, or the source of a program of that name (tests/test_umem:
#     tests/test_umem.c); the kernel's own (include/uapi/..., include/net/...) and the
#     paths below an installation's prefix that the README's Installing
#     table names are not the tree's.
# A name that is gone fails the check with the document that names it.
# Exit status: 0 all found, 1 something named is missing, 2 usage.
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 1 ]]; then
	echo "usage: $0 SOURCE_DIR" >&2
	exit 2
fi
cd "$1"
docs=(README.md tests/README.md docs/*.md man/man*/* include/xskx/*.h)
# Not the tree's: the kernel's, and an installation's (README, Installing).
not_ours='^(include/(uapi|linux|net)/|include/xskx/bpf$|lib/cmake/xskx$|lib/pkgconfig/xskx\.pc$)'
sources=$(find include lib bpf examples tests -name '*.[ch]' -print)
status=0

missing() {
	echo "$1: names $2, which does not exist"
	status=1
}

# Identifiers the sources' code uses (comments stripped: a comment naming
# a function is what is checked, not proof that it exists), one per line.
known=$(perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' $sources |
	grep -ohE '\bxskx_[A-Za-z0-9_]+' | sort -u)

for doc in "${docs[@]}"; do
	[[ -f $doc ]] || continue
	# man pages escape hyphens; take the text as groff would print it.
	text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$doc")
	for name in $(grep -oE '\bxskx_[A-Za-z0-9_]+ ?\(' <<<"$text" |
		      tr -d ' (' | sort -u); do
		grep -qx "$name" <<<"$known" || missing "$doc" "$name()"
	done
	for header in $(grep -oE '\bxskx/[a-z0-9_/]+\.h\b' <<<"$text" | sort -u); do
		[[ -f include/$header || -f bpf/${header#xskx/bpf/} ]] ||
			missing "$doc" "$header"
	done
	for path in $(grep -oE '(^|[ `(])(lib|docs|examples|scripts|tests|include|bpf|cmake|man)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' <<<"$text" |
		      sed 's/^[ `(]//' | sort -u); do
		[[ -e $path || -e $path.c ]] || [[ $path =~ $not_ours ]] ||
			missing "$doc" "$path"
	done
done
exit $status
