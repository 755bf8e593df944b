#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Instructions per packet of the library's data-path APIs (the burst API,
# xskx/socket.h, and the batch API, xskx/batch.h: xskx-bench --api) against
# bare libxdp ring code doing the same work (xskx-bench --baseline,
# examples/xskx-bench/baseline.c), for rxdrop, txonly and l2fwd at batches
# of 16, 64 and 256, counted by valgrind's callgrind on the deterministic
# simulated NIC.
#
# What is counted: the instructions of the mode's step function and all it
# calls (bench_MODE_step for the burst API, bench_batch_MODE_step for the
# batch API, bench_baseline_MODE_step for the baseline), less the kicks it made (xskx_socket_kick_rx/_tx, inclusive:
# they run the simulated NIC, and both variants kick by the same rules),
# divided by the packets the mode counts (received; sent in txonly). Not
# counted: the simulated NIC's own poll between steps, the run loop, setup.
# --sim-deterministic runs NIC and application in one thread in a fixed
# order: the figures are the same on every run of the same binary.
#
# The baseline is measured with the first XSKX_BENCH given; the burst API
# with each, so that builds of two commits (or two build types) compare
# side by side against the same bare-ring code, e.g.
#   scripts/burst-cost.sh build-release/examples/xskx-bench \
#       /tmp/before/build-release/examples/xskx-bench
# Measure Release builds (-DCMAKE_BUILD_TYPE=Release), as the doc does.
#
# Usage: scripts/burst-cost.sh XSKX_BENCH [XSKX_BENCH...]
#   XSKX_COST_MODES   (rxdrop txonly l2fwd)
#   XSKX_COST_BATCHES (16 64 256)
#   XSKX_COST_PACKETS (200000)
#   XSKX_COST_APIS    (burst batch; a bench without --api runs burst only)
set -eu

[ $# -gt 0 ] || { echo "usage: $0 XSKX_BENCH [XSKX_BENCH...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
for bench in "$@"; do
	[ -x "$bench" ] || { echo "$0: $bench: no such program" >&2; exit 1; }
done
modes=${XSKX_COST_MODES:-rxdrop txonly l2fwd}
batches=${XSKX_COST_BATCHES:-16 64 256}
packets=${XSKX_COST_PACKETS:-200000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# inclusive COUNTS_FILE FUNCTION: its inclusive instruction count, or 0.
inclusive() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v fn=":$2 " 'index($0, fn) && $0 ~ /\[/ {
			gsub(",", "", $1); print $1; found = 1; exit }
			END { if (!found) print 0 }'
}

# cost BENCH MODE BATCH STEP [bench options]: Ir per packet of STEP, less
# its kicks, in $ipp.
cost() {
	bench=$1 mode=$2 batch=$3 step=$4
	shift 4
	# Every frame fits FILL, for the baseline (no pool to top FILL up
	# from) and the burst API alike, as --compare gives them.
	if ! valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect="$step" --callgrind-out-file="$out/cg" \
		"$bench" --sim-deterministic --mode "$mode" --batch "$batch" \
		--packets "$packets" --fill-size 4096 --duration 3600 \
		--quiet --json "$@" >"$out/json" 2>"$out/log"; then
		cat "$out/log" >&2
		exit 1
	fi
	counted=rx_packets
	[ "$mode" = txonly ] && counted=tx_packets
	n=$(grep -o "\"$counted\": *[0-9]*" "$out/json" | head -n 1 |
		grep -o '[0-9]*$')
	[ "${n:-0}" -gt 0 ] || { echo "$0: $bench $mode moved nothing" >&2; exit 1; }
	ir=$(sed -n 's/^summary: *//p' "$out/cg")
	[ "${ir:-0}" -gt 0 ] || { echo "$0: $step never ran: no symbols in $bench?" >&2; exit 1; }
	kicks=$(($(inclusive "$out/cg" xskx_socket_kick_rx) + \
		$(inclusive "$out/cg" xskx_socket_kick_tx)))
	ipp=$(awk "BEGIN { printf \"%.1f\", ($ir - $kicks) / $n }")
}

# The library's APIs a bench has (--api batch came later).
apis_of() {
	if "$1" --help 2>&1 | grep -q -- '--api'; then
		echo "${XSKX_COST_APIS:-burst batch}"
	else
		echo burst
	fi
}

printf '%-7s %5s %14s %6s %10s %13s   %s\n' mode batch "baseline Ir/p" \
	api "api Ir/p" "api/baseline" "xskx-bench"
for mode in $modes; do
	for batch in $batches; do
		cost "$1" "$mode" "$batch" "bench_baseline_${mode}_step" --baseline
		base=$ipp
		for bench in "$@"; do
			for api in $(apis_of "$bench"); do
				if [ "$api" = burst ]; then
					cost "$bench" "$mode" "$batch" "bench_${mode}_step"
				else
					cost "$bench" "$mode" "$batch" \
						"bench_${api}_${mode}_step" --api "$api"
				fi
				printf '%-7s %5s %14s %6s %10s %12sx   %s\n' "$mode" \
					"$batch" "$base" "$api" "$ipp" \
					"$(awk "BEGIN { printf \"%.2f\", $ipp / $base }")" \
					"$bench"
			done
		done
	done
done
