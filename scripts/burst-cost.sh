#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Instructions per packet that each burst call costs the application, on the
# deterministic simulated NIC, counted by valgrind's callgrind: what the
# ownership checks (the held map, TX validation) cost is the difference
# between two builds, measured side by side.
#
# For every xskx-bench given, two runs:
#   rxdrop  xskx_rx_burst and xskx_rx_release (the held map set, then
#           checked and cleared as frames go back);
#   l2fwd   xskx_rx_burst and xskx_tx_burst on one socket (TX checks every
#           packet before its descriptor).
# Each call's count is inclusive of what it calls, less the kicks it made
# (xskx_socket_kick_rx/_tx run the simulated NIC), divided by the packets
# received. Figures are the same on every run of the same binary.
#
# Usage: scripts/burst-cost.sh XSKX_BENCH [XSKX_BENCH...]
#   e.g. a build of the commit before a change and one after:
#   scripts/burst-cost.sh /tmp/before/build/examples/xskx-bench build/examples/xskx-bench
#   Measure optimized builds (the project's default, RelWithDebInfo).
set -eu

[ $# -gt 0 ] || { echo "usage: $0 XSKX_BENCH [XSKX_BENCH...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
packets=100000
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# inclusive COUNTS_FILE FUNCTION: its inclusive instruction count, or 0.
inclusive() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v fn=":$2 " 'index($0, fn) && $0 ~ /\[/ {
			gsub(",", "", $1); print $1; found = 1; exit }
			END { if (!found) print 0 }'
}

# run BENCH MODE: one line, per packet: each call, less its kicks.
run() {
	bench=$1 mode=$2
	valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
		--toggle-collect="bench_${mode}_step" "$bench" \
		--sim-deterministic --mode "$mode" --packets "$packets" \
		--duration 3600 --quiet --json >"$out/json" 2>"$out/log" ||
		{ cat "$out/log" >&2; exit 1; }
	rx=$(grep -o '"rx_packets": *[0-9]*' "$out/json" | head -n 1 |
		grep -o '[0-9]*$')
	[ "${rx:-0}" -gt 0 ] || { echo "$0: $bench $mode received nothing" >&2; exit 1; }
	kick_rx=$(inclusive "$out/cg" xskx_socket_kick_rx)
	kick_tx=$(inclusive "$out/cg" xskx_socket_kick_tx)
	printf '%-6s' "$mode"
	for fn in xskx_rx_burst xskx_rx_release xskx_tx_burst; do
		ir=$(inclusive "$out/cg" $fn)
		case $fn in
		xskx_rx_burst) ir=$((ir - kick_rx)) ;;
		xskx_tx_burst) ir=$((ir - kick_tx)) ;;
		esac
		[ "$ir" -gt 0 ] || ir=0
		awk "BEGIN { printf \" %16.1f\", $ir / $rx }"
	done
	printf '   %s\n' "$bench"
}

printf '%-6s %16s %16s %16s\n' mode "rx_burst/pkt" "rx_release/pkt" "tx_burst/pkt"
for bench in "$@"; do
	[ -x "$bench" ] || { echo "$0: $bench: no such program" >&2; exit 1; }
	run "$bench" rxdrop
	run "$bench" l2fwd
done
