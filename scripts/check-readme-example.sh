#!/bin/sh
# Usage: check-readme-example.sh [--print] README FILE
#
# The README shows FILE's code after a line "<!-- FILE -->" (FILE as given
# relative to the repository's root), in a ```c block: the text must be the
# file, word for word, so that the example a reader copies is the one CI
# builds and runs. --print: print the README's block instead
# (scripts/check-deb.sh builds it against the installed package).
set -eu
print=""
if [ "$1" = --print ]; then
	print=1
	shift
fi
readme=$1 file=$2
root=$(dirname "$readme")
shown=$(awk -v marker="<!-- $file -->" '
	$0 == marker { found = 1; next }
	found == 1 && /^```c$/ { found = 2; next }
	found == 2 && /^```$/ { exit }
	found == 2 { print }
' "$readme")
if [ -z "$shown" ]; then
	echo "$readme shows no block after <!-- $file -->" >&2
	exit 1
fi
if [ -n "$print" ]; then
	printf '%s\n' "$shown"
	exit 0
fi
if ! printf '%s\n' "$shown" | diff -u "$root/$file" - >&2; then
	echo "$readme: the example differs from $file (above: - the file, + the README)" >&2
	exit 1
fi
echo "$readme shows $file as it is"
