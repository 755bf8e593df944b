#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Instructions per received packet of rxdrop on the simulated NIC: the xskx
# burst API against the same loop on bare libxdp ring operations
# (xskx-bench --baseline), counted by valgrind's callgrind.
#
# What is counted, exactly: every instruction executed inside the
# application's step function and everything it calls —
#   burst:    bench_rxdrop_step()          xskx_rx_burst + xskx_rx_release
#   baseline: bench_baseline_rxdrop_step() peek, reserve, fill, submit, release
# including steps that found nothing, and any kick with the simulated NIC work
# done inside it (the kicks are printed: 0 in steady state with need_wakeup).
# Not counted: the simulated NIC's own poll (xskx_sim_poll, which the
# deterministic loop calls between steps), the run loop, setup and teardown.
# The sum is divided by the packets the step received. --sim-deterministic
# runs NIC and application in one thread in a fixed order, so the figure is
# the same on every run.
#
# Usage: examples/bench-callgrind.sh [XSKX_BENCH] [PACKETS] [-- bench options]
# Build optimized first (cmake -DCMAKE_BUILD_TYPE=Release), or the figures
# measure the compiler's -O0 output.
set -eu

bench=${1:-build/examples/xskx-bench}
packets=${2:-100000}
if [ $# -gt 2 ]; then
	shift 2
	[ "$1" = "--" ] && shift
else
	set --
fi

command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
[ -x "$bench" ] || { echo "$0: $bench: no such program (pass the path of xskx-bench)" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The first "key": value of the run's JSON summary, the top-level one.
field() {
	grep -o "\"$1\": [^,}]*" "$2" | head -n 1 | sed 's/.*: //; s/"//g'
}

# count NAME STEP_FUNCTION [bench options]: prints a line, sets $ipp
count() {
	name=$1 fn=$2
	shift 2
	if ! valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect="$fn" --callgrind-out-file="$out/$name.out" \
		"$bench" --sim-deterministic --mode rxdrop --packets "$packets" \
		--duration 3600 --quiet --json "$@" \
		>"$out/$name.json" 2>"$out/$name.log"; then
		cat "$out/$name.log" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$out/$name.out")
	rx=$(field rx_packets "$out/$name.json")
	[ "$rx" -gt 0 ] || { echo "$0: $name received nothing" >&2; exit 1; }
	ipp=$(awk "BEGIN { printf \"%.1f\", $ir / $rx }")
	printf '%-9s %10s packets %13s Ir %8s Ir/packet  (rx_kicks %s, idle steps %s, stopped by %s)\n' \
		"$name" "$rx" "$ir" "$ipp" "$(field rx_kicks "$out/$name.json")" \
		"$(field idle_steps "$out/$name.json")" \
		"$(field stopped_by "$out/$name.json")"
}

count burst bench_rxdrop_step "$@"
burst_ipp=$ipp
count baseline bench_baseline_rxdrop_step "$@"
awk "BEGIN { printf \"burst/baseline instructions per packet: %.2f\\n\", $burst_ipp / $ipp }"
