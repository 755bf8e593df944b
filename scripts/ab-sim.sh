#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Two xskx-bench binaries side by side on the simulated NIC — two build
# types of one tree, or two commits — interleaved A B A B so that the
# machine's load falls on both alike. For each mode, PAIRS pairs of runs of
# SECONDS each; prints per mode the median packet rate of each binary, the
# range of its runs, and the median and range of the per-pair ratios B/A:
# only ratios measured in one run mean anything on a shared machine.
#
# Runs use --same-core: the NIC and the application on one thread, one
# CPU, so that a second busy CPU is not part of what is compared.
#
# With XSKX_AB_IR=1 it also counts, with callgrind, the instructions per
# packet of each binary's whole run loop (bench_run: application and
# simulated NIC, --sim-deterministic, XSKX_AB_IR_PACKETS packets): the same
# on every run, whatever the machine's load, but blind to what instructions
# cost (an -O3 loop may run more of them in fewer cycles).
#
# Usage: scripts/ab-sim.sh BENCH_A BENCH_B [extra xskx-bench options]
#   XSKX_AB_MODES   (rxdrop txonly l2fwd)
#   XSKX_AB_PAIRS   (7)
#   XSKX_AB_SECONDS (2)
#   XSKX_AB_IR      (0), XSKX_AB_IR_PACKETS (200000)
#   e.g. scripts/ab-sim.sh build-rwdi/examples/xskx-bench \
#            build-release/examples/xskx-bench
set -eu

[ $# -ge 2 ] || { echo "usage: $0 BENCH_A BENCH_B [xskx-bench options]" >&2; exit 2; }
a=$1 b=$2
shift 2
for bench in "$a" "$b"; do
	[ -x "$bench" ] || { echo "$0: $bench: no such program" >&2; exit 1; }
done
modes=${XSKX_AB_MODES:-rxdrop txonly l2fwd}
pairs=${XSKX_AB_PAIRS:-7}
seconds=${XSKX_AB_SECONDS:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# rate BENCH MODE [options]: the run's packets per second (the mode's count).
rate() {
	bench=$1 mode=$2
	shift 2
	"$bench" --same-core --mode "$mode" --duration "$seconds" --quiet --json "$@" \
		>"$out/json" 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
	grep -o '"pps": *[0-9.]*' "$out/json" | head -n 1 | grep -o '[0-9.]*$'
}

# stats FILE: "median min max" of the numbers in FILE, one a line.
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %s %s\n", m, v[1], v[NR] }'
}

printf 'A = %s\nB = %s\n%d pairs of %s s per mode, interleaved\n' "$a" "$b" \
	"$pairs" "$seconds"
printf '%-7s %20s %20s %8s %16s\n' mode "A Mpps (range)" "B Mpps (range)" \
	"B/A" "B/A range"
for mode in $modes; do
	: >"$out/a" && : >"$out/b" && : >"$out/ratio"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		ra=$(rate "$a" "$mode" "$@")
		rb=$(rate "$b" "$mode" "$@")
		echo "$ra" >>"$out/a"
		echo "$rb" >>"$out/b"
		awk "BEGIN { print $rb / $ra }" >>"$out/ratio"
		i=$((i + 1))
	done
	sa=$(stats "$out/a") sb=$(stats "$out/b") sr=$(stats "$out/ratio")
	echo "$mode $sa $sb $sr" | awk '{
		printf "%-7s %7.3f (%.2f-%.2f) %7.3f (%.2f-%.2f) %7.3fx %7.3f-%.3f\n",
			$1, $2 / 1e6, $3 / 1e6, $4 / 1e6, $5 / 1e6, $6 / 1e6,
			$7 / 1e6, $8, $9, $10 }'
done

[ "${XSKX_AB_IR:-0}" = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
ir_packets=${XSKX_AB_IR_PACKETS:-200000}

# ir BENCH MODE [options]: instructions per packet of the whole run loop.
ir() {
	bench=$1 mode=$2
	shift 2
	valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_run \
		--callgrind-out-file="$out/cg" "$bench" --sim-deterministic \
		--mode "$mode" --packets "$ir_packets" --duration 3600 --quiet \
		--json "$@" >"$out/json" 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
	counted=rx_packets
	[ "$mode" = txonly ] && counted=tx_packets
	n=$(grep -o "\"$counted\": *[0-9]*" "$out/json" | head -n 1 | grep -o '[0-9]*$')
	awk "BEGIN { printf \"%.1f\", $(sed -n 's/^summary: *//p' "$out/cg") / $n }"
}

printf '\ninstructions per packet, whole run loop (callgrind, deterministic)\n'
printf '%-7s %10s %10s %8s\n' mode A B B/A
for mode in $modes; do
	ia=$(ir "$a" "$mode" "$@")
	ib=$(ir "$b" "$mode" "$@")
	printf '%-7s %10s %10s %7.3fx\n' "$mode" "$ia" "$ib" \
		"$(awk "BEGIN { print $ib / $ia }")"
done
