#!/bin/bash
# Usage: check-man.sh INCLUDE_DIR MAN_DIR
#
# Every function of the API (scripts/list-api.sh: what INCLUDE_DIR/*/*.h
# declare, libxskx's in xskx/ and libxskx-sim's in xskx-sim/, the lists the
# export check holds lib/libxskx.map and lib/sim/libxskx-sim.map to), every
# function-like macro of it (xskx_socket_stats() over
# xskx_socket_stats_sized(), and the like) and every static inline
# function its headers define (xskx_rx_batch_data(), xskx_ring_prod_free():
# exported by no library, called all the same) has a page,
# MAN_DIR/man3/NAME.3, so that `man NAME` works: a page of its own or a
# symbolic link to the page of its group, whose NAME section lists it. A
# name a page lists that the API lacks is stale. Every page passes
# `groff -man -ww` and `mandoc -Tlint` without a word and names the version
# of include/xskx/xskx.h in its .TH line: those of the API (man3, man7) and
# those of the programs (man1, man5, man8).
# Environment: CC (gcc), for list-api.sh.
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 2 ]]; then
	echo "usage: $0 INCLUDE_DIR MAN_DIR" >&2
	exit 2
fi
include_dir=$1
man_dir=$2

for tool in groff mandoc; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool not found: run scripts/install-deps.sh" >&2
		exit 1
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
	"$(dirname "$0")/list-api.sh" "$include_dir"
	sed -n 's/^#define \(xskx_[a-z0-9_]*\)(.*/\1/p' "$include_dir"/*/*.h
	# The inline functions, their name on the line of "static inline" or
	# below it.
	perl -0777 -ne 'print "$1\n" while /^static\s+inline\b[^(;{]*?\b(xskx_\w+)\s*\(/mg' \
		"$include_dir"/*/*.h
} | sort -u >"$work/declared"

# The names a page's NAME section lists: "a, b, c \- what they do".
names_of() {
	sed -n '/^\.SH NAME/,/^\.SH/{/^\.SH/d;p}' "$1" | tr '\n' ' ' |
		sed 's/\\-.*//' | tr ', ' '\n\n' | sed '/^$/d'
}

# The version the pages name: the one in the API header.
version=$(sed -n 's/^#define XSKX_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' \
	"$include_dir/xskx/xskx.h" | paste -sd.)

status=0
fail() {
	echo "$*"
	status=1
}

: >"$work/listed"
shopt -s nullglob
for page in "$man_dir"/man3/*.3 "$man_dir"/man7/*.7 "$man_dir"/man1/*.1 \
	"$man_dir"/man5/*.5 "$man_dir"/man8/*.8; do
	if [[ -L $page ]]; then
		target=$(readlink -f "$page")
		if [[ ! -f $target || $(dirname "$target") != \
		      $(cd "$(dirname "$page")" && pwd -P) ]]; then
			fail "$page: a link to no page beside it"
		fi
		continue
	fi
	if ! grep -q "^\.TH .* \"xskx $version\"" "$page"; then
		fail "$page: its .TH line does not say \"xskx $version\" (include/xskx/xskx.h)"
	fi
	if ! lint=$({ groff -man -Tutf8 -ww -z "$page" &&
		mandoc -Tlint "$page"; } 2>&1) || [[ -n $lint ]]; then
		fail "$page: not clean:"
		echo "$lint" | sed 's/^/	/'
	fi
	if [[ $page == *.3 ]]; then
		names_of "$page" >>"$work/listed"
	fi
done
sort -u -o "$work/listed" "$work/listed"

while read -r name; do
	page=$man_dir/man3/$name.3
	if [[ ! -e $page ]]; then
		fail "$name: no page $page (write one, or link it to its group's)"
	elif ! names_of "$page" | grep -qx "$name"; then
		fail "$name: $page ($(readlink "$page" || echo page)) does not list it under NAME"
	fi
done <"$work/declared"
comm -13 "$work/declared" "$work/listed" | while read -r name; do
	echo "$name: listed under NAME in $man_dir/man3, but not declared in $include_dir/*/"
done | tee "$work/stale"
if [[ -s $work/stale ]]; then
	status=1
fi

if [[ $status -eq 0 ]]; then
	echo "$(wc -l <"$work/declared") functions, macros and inline functions, each with its page;" \
		"every page lints clean, the programs' too"
fi
exit $status
