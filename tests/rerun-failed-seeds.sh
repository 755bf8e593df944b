#!/bin/bash
# Usage: rerun-failed-seeds.sh LIST PROGRAM=PATH...
#
# Reruns every seed of LIST (tests/failed_seeds.txt, format described there)
# with its program's --seed option; PROGRAM=PATH says where each program
# the list may name was built. Fails when a rerun fails or skips, when a
# line names an unknown program or is malformed; passes with nothing to do
# when the list names no seed.
set -uo pipefail

list=$1
shift
declare -A path
for arg in "$@"; do
	path[${arg%%=*}]=${arg#*=}
done

status=0 runs=0 lineno=0
while IFS= read -r line || [[ -n $line ]]; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	read -r -a words <<<"$line"
	[[ ${#words[@]} -eq 0 ]] && continue
	program=${words[0]} seed=${words[1]:-} case=${words[2]:-}
	where="$list:$lineno"
	if [[ ${#words[@]} -gt 3 || ! $seed =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]]; then
		echo "$where: expected PROGRAM SEED [CASE]: $line" >&2
		status=1
		continue
	fi
	if [[ -z ${path[$program]:-} ]]; then
		echo "$where: unknown program $program (known: ${!path[*]})" >&2
		status=1
		continue
	fi
	command=("${path[$program]}" --seed "$seed")
	[[ -n $case ]] && command+=("$case")
	echo "$where: ${command[*]##*/}"
	"${command[@]}"
	rc=$?
	runs=$((runs + 1))
	if [[ $rc -ne 0 ]]; then
		echo "$where: $program seed $seed ${case:+($case) }exited $rc" \
			"$( [[ $rc -eq 77 ]] && echo '(skipped: a listed seed must run)')" >&2
		status=1
	fi
done <"$list"

echo "failed seeds: $runs rerun from $list"
exit $status
