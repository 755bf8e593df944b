#!/bin/bash
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds the libFuzzer targets of tests/fuzz (clang, -DXSKX_FUZZ=ON, in
# $FUZZ_BUILD_DIR, default build-fuzz) and runs each TARGET (default: all of
# them) for SECONDS (default 20) from its seed corpus, tests/fuzz/corpus/
# <target>/. What the fuzzer learns goes to $FUZZ_BUILD_DIR/fuzz-corpus/
# <target>/, never into the tree; a crash, leak, timeout or failed check is
# kept in $FUZZ_BUILD_DIR/fuzz-artifacts/. Exits non-zero when any target
# failed, after running all of them; the message says how to replay the
# input and how to keep it as a regression input.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-20}
if [[ $# -gt 0 ]]; then
	shift
fi
if ! [[ $seconds =~ ^[0-9]+$ ]] || [[ $seconds -eq 0 ]]; then
	echo "usage: $0 [SECONDS] [TARGET...]" >&2
	exit 2
fi
build=${FUZZ_BUILD_DIR:-build-fuzz}
jobs=$(nproc)

CC=${CC:-clang} cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DXSKX_WERROR=ON -DXSKX_FUZZ=ON >/dev/null
cmake --build "$build" -j "$jobs" --target fuzzers

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
	for program in "$build"/tests/fuzz/fuzz_*; do
		targets+=("${program##*/fuzz_}")
	done
fi

# A failed UBSan check is a crash, with its stack.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for target in "${targets[@]}"; do
	program=$build/tests/fuzz/fuzz_$target
	seeds=tests/fuzz/corpus/$target
	corpus=$build/fuzz-corpus/$target
	artifacts=$build/fuzz-artifacts
	log=$build/fuzz-$target.log
	if [[ ! -x $program || ! -d $seeds ]]; then
		echo "fuzz: no target $target ($program, $seeds)" >&2
		failed+=("$target")
		continue
	fi
	mkdir -p "$corpus" "$artifacts"
	echo "fuzz: $target for ${seconds}s"
	# New inputs go to the first directory only: the tree's stays as is.
	if "$program" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$target-" \
		"$corpus" "$seeds" >"$log" 2>&1; then
		grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units)' \
			"$log" | sed "s/^/fuzz: $target: /" || true
	else
		failed+=("$target")
		tail -n 60 "$log" >&2
		echo "fuzz: $target FAILED (log: $log); the input is the" \
			"'Test unit written to' above. Replay it with" \
			"$program <file>; keep it as a regression input in" \
			"$seeds/regression-<what it found> with the fix." >&2
	fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
	echo "fuzz: failed: ${failed[*]}" >&2
	exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, nothing found"
