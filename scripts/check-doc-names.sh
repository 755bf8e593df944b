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
#     paths below an installation's prefix that docs/INSTALLING.md's
#     table names are not the tree's;
#   - man pages, NAME(N) — man/manN/NAME.N (xskx_rx_burst(3), xskx-fw(8));
#   - sections, docs/PAGE.md, "Heading" (or README.md, tests/README.md) —
#     a heading of that page that starts so; in a Markdown document also
#     "Heading" above (or below), a heading of the document itself;
#   - a Markdown document's links and images, ](TARGET) — TARGET from the
#     document's folder (web addresses are not checked).
# And docs/README.md, the reading order, lists every page of docs/.
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
# Not the tree's: the kernel's, and an installation's (docs/INSTALLING.md).
not_ours='^(include/(uapi|linux|net)/|include/xskx/bpf$|lib/cmake/xskx$|lib/pkgconfig/xskx\.pc$)'
sources=$(find include lib bpf examples tests -name '*.[ch]' -print)
status=0

missing() {
	echo "$1: names $2, which does not exist"
	status=1
}

# The headings of a Markdown document, without their #s, one per line
# (a line of a code block that starts with # is a comment, not a heading).
headings() {
	awk '/^```/ { code = !code; next }
	     !code && /^#+ / { sub(/^#+ /, ""); print }' "$1"
}

# Whether Markdown document $1 has a heading that starts with $2.
has_heading() {
	headings "$1" | awk -v section="$2" '
		index($0, section) == 1 { found = 1 }
		END { exit !found }'
}

# Identifiers the sources' code uses (comments stripped: a comment naming
# a function is what is checked, not proof that it exists), looked up
# without a process per name.
declare -A known=()
while read -r name; do
	known[$name]=1
done < <(perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' $sources |
	grep -ohE '\bxskx_[A-Za-z0-9_]+' | sort -u)

for doc in "${docs[@]}"; do
	# A man page link says what its page says: read the page once.
	[[ -f $doc && ! -L $doc ]] || continue
	# man pages escape hyphens; take the text as groff would print it.
	text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$doc")
	for name in $(grep -oE '\bxskx_[A-Za-z0-9_]+ ?\(' <<<"$text" |
		      tr -d ' (' | sort -u); do
		[[ -n ${known[$name]:-} ]] || missing "$doc" "$name()"
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
	# A reference may break across lines: read the text as one line.
	flat=$(tr '\n' ' ' <<<"$text" | tr -s ' ')
	for page in $(grep -oE '\bxskx[a-z0-9_.-]* ?\([1-8]\)' <<<"$flat" |
		      tr -d ' ' | sort -u); do
		name=${page%(*} section=${page#*(}
		section=${section%)}
		[[ -e man/man$section/$name.$section ]] ||
			missing "$doc" "the man page $page (man/man$section/$name.$section)"
	done
	while IFS=$'\t' read -r page section; do
		[[ -f $page ]] || continue # the path check names it
		has_heading "$page" "$section" ||
			missing "$doc" "the section \"$section\" of $page"
	done < <(grep -oE '(\bdocs/[A-Za-z0-9_]+\.md|\b(tests/)?README\.md), "[^"]+"' \
		<<<"$flat" | sed 's/, "/\t/; s/"$//' | sort -u)
	[[ $doc == *.md ]] || continue
	while read -r section; do
		has_heading "$doc" "$section" ||
			missing "$doc" "the section \"$section\" of its own"
	done < <(grep -oE '"[^"]+"\)? (above|below)' <<<"$flat" |
		sed -E 's/^"//; s/"\)? (above|below)$//' | sort -u)
	# ](TARGET): a link or an image, from the document's folder.
	for target in $(grep -oE '\]\([^)# ]+' "$doc" | cut -c3- | sort -u); do
		[[ $target =~ ^[a-z]+: ]] && continue
		[[ -e $(dirname "$doc")/$target ]] || missing "$doc" "$target"
	done
done

# The reading order names every page.
for page in docs/*.md; do
	[[ $page == docs/README.md ]] && continue
	grep -qF "$page" docs/README.md ||
		{ echo "docs/README.md: does not list $page in the reading order"; status=1; }
done
exit $status
