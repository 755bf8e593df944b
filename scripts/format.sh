#!/bin/bash
# Usage: format.sh [CLANG_FORMAT]
#
# Formats every C source and header of the project in place with the
# tree's .clang-format. The build's `format` target runs it.
set -euo pipefail

clang_format=${1:-clang-format}
cd "$(dirname "$0")/.."
dirs=()
for dir in lib include bpf tests examples; do
	if [[ -d $dir ]]; then
		dirs+=("$dir")
	fi
done
find "${dirs[@]}" -name '*.[ch]' -print0 |
	xargs -0 --no-run-if-empty "$clang_format" -i --style=file
