#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Instructions per received packet of rxdrop on the simulated NIC: the xskx
# burst API against the same loop on bare libxdp ring operations
# (xskx-bench --baseline), counted by valgrind's callgrind.
#
# What is counted, exactly: the instructions executed inside the
# application's step function and everything it calls —
#   burst:    bench_rxdrop_step()          xskx_rx_burst + xskx_rx_release
#   baseline: bench_baseline_rxdrop_step() peek, reserve, fill, submit, release
# including steps that found nothing. Two figures per variant:
#   "with kicks"  also counts the kicks (xskx_socket_kick_rx) and the
#                 simulated NIC work done inside them, as a recvfrom() would
#                 cost the application on the kernel;
#   "w/o kicks"   the same run less the inclusive cost of the kicks the
#                 step made (callgrind_annotate --inclusive=yes): the
#                 wrapper's own work.
# Not counted: the simulated NIC's own poll (xskx_sim_poll, which the
# deterministic loop calls between steps), the run loop, setup and teardown.
# Each sum is divided by the packets the step received.
#
# --sim-deterministic runs NIC and application in one thread in a fixed
# order, so the figures are the same on every run. Both variants get a FILL
# ring that holds every frame (--fill-size 4096 for the default 4096
# frames), as --compare gives them: the baseline has no frame pool to top
# FILL up from.
#
# Usage: examples/bench-callgrind.sh [XSKX_BENCH] [PACKETS] [-- bench options]
#   Bench options come last and win: -- --batch 16, or
#   -- --frames 8192 --fill-size 8192. Measure an optimized build (the
#   project's default, RelWithDebInfo), not -O0.
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

# The first "key": value of a run's JSON summary, the top-level one.
field() {
	grep -o "\"$1\": [^,}]*" "$2" | head -n 1 | sed 's/.*: //; s/"//g'
}

# measure RUN "FUNCTIONS" [bench options]: instructions per packet inside
# the toggling functions, in $ipp; the run's JSON in $out/RUN.json.
measure() {
	run=$1 toggles=
	for fn in $2; do
		toggles="$toggles --toggle-collect=$fn"
	done
	shift 2
	# shellcheck disable=SC2086 # one word per toggle
	if ! valgrind --tool=callgrind --collect-atstart=no $toggles \
		--callgrind-out-file="$out/$run.out" \
		"$bench" --sim-deterministic --mode rxdrop --packets "$packets" \
		--fill-size 4096 --duration 3600 --quiet --json "$@" \
		>"$out/$run.json" 2>"$out/$run.log"; then
		cat "$out/$run.log" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$out/$run.out")
	rx=$(field rx_packets "$out/$run.json")
	[ "$rx" -gt 0 ] || { echo "$0: $run received nothing" >&2; exit 1; }
	[ "$ir" -gt 0 ] || { echo "$0: $2 never ran: no symbols in $bench?" >&2; exit 1; }
	ipp=$(awk "BEGIN { printf \"%.1f\", $ir / $rx }")
}

# kick_ir RUN: instructions spent inside xskx_socket_kick_rx (and what it
# called) while collection was on, i.e. kicks made from the step function.
kick_ir() {
	callgrind_annotate --inclusive=yes "$out/$1.out" 2>/dev/null |
		awk '/:xskx_socket_kick_rx / { gsub(",", "", $1); print $1; exit }'
}

# variant NAME STEP_FUNCTION [bench options]: one line of the table
variant() {
	name=$1 step=$2
	shift 2
	measure "$name" "$step" "$@"
	with=$ipp
	kicks=$(kick_ir "$name")
	ipp=$(awk "BEGIN { printf \"%.1f\", ($ir - ${kicks:-0}) / $rx }")
	printf '%-9s %8s %12s %12s %8s %8s\n' "$name" "$rx" "$with" "$ipp" \
		"$(field rx_kicks "$out/$name.json")" \
		"$(field idle_steps "$out/$name.json")"
}

printf '%-9s %8s %12s %12s %8s %8s\n' "" packets "Ir/pkt with" "Ir/pkt w/o" \
	kicks "idle"
printf '%-9s %8s %12s %12s %8s %8s\n' "" "" kicks kicks "" steps
variant burst bench_rxdrop_step "$@"
burst_with=$with burst_without=$ipp
variant baseline bench_baseline_rxdrop_step --baseline "$@"
awk "BEGIN { printf \"burst/baseline: %.2f with kicks, %.2f without\\n\", \
	$burst_with / $with, $burst_without / $ipp }"
