#!/bin/bash
# Usage: scripts/check-commits.sh BASE [LABEL]
#
# Builds every commit in BASE..HEAD, oldest first, each on its own (merges
# and the commits of merged branches included), with -Werror, and runs the
# tests labelled LABEL (default: unit) — so that the history stays
# bisectable. One scratch worktree and one build tree are reused, so each
# commit is an incremental build. Prints a line per commit and exits non-zero
# when any commit fails; the worktree is removed at the end.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
	echo "usage: $0 BASE [LABEL]" >&2
	exit 2
fi
base=$1
label=${2:-unit}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
tree=$work/tree
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

commits=$(git -C "$root" rev-list --reverse --topo-order "$base..HEAD")
if [[ -z $commits ]]; then
	echo "no commit in $base..HEAD"
	exit 0
fi
git -C "$root" worktree add -q --detach "$tree" "$base"

failed=0
for commit in $commits; do
	subject=$(git -C "$root" log -1 --format=%s "$commit" | cut -c1-60)
	git -C "$tree" checkout -q "$commit"
	if ! cmake -S "$tree" -B "$work/build" -DXSKX_WERROR=ON \
		>"$work/log" 2>&1 ||
		! cmake --build "$work/build" -j "$(nproc)" >>"$work/log" 2>&1; then
		echo "FAIL build  ${commit:0:12} $subject"
		tail -n 20 "$work/log" | sed 's/^/    /'
		failed=1
		continue
	fi
	if ! ctest --test-dir "$work/build" -L "$label" --no-tests=ignore \
		>"$work/log" 2>&1; then
		echo "FAIL tests  ${commit:0:12} $subject"
		grep -E 'Failed|\*\*\*' "$work/log" | sed 's/^/    /' | head -n 20
		failed=1
		continue
	fi
	echo "ok          ${commit:0:12} $subject"
done
exit $failed
