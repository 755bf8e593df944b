#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What xskx-l2fwd's and xskx-fw's forwarding core costs a packet
# (docs/PERFORMANCE.md): instructions per packet received of fwd_step()
# (l2fwd) or fw_step() (fw-pass: every packet allowed; fw-half: every
# other one denied) and all they call, less their kicks (they run the
# simulated NIC, the same whatever the core does), counted by valgrind's
# callgrind on the deterministic simulated NIC (tests/perf/fwd_cost.c),
# for 64- and 1500-byte frames, without a capture and with --pcap-out's
# (a writer's ring with a slot per packet: each pays for its copy, and the
# counts are the same on every run of the same binary; the writer
# thread's own work is not counted). For l2fwd and fw-pass every packet
# received is forwarded; for fw-half, half of them.
#
# Measure a Release build, as the doc does:
#   cmake -S . -B build-rel-vp -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-rel-vp --target fwd_cost
#   scripts/fwd-cost.sh build-rel-vp/tests/perf/fwd_cost
#
# Usage: scripts/fwd-cost.sh FWD_COST
#   XSKX_COST_PACKETS (20000)   XSKX_COST_SIZES (64 1500)
#   XSKX_COST_CASES (l2fwd fw-pass fw-half)
set -eu

[ $# -eq 1 ] || { echo "usage: $0 FWD_COST" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
cost=$1
[ -x "$cost" ] || { echo "$0: $cost: no such program" >&2; exit 1; }
packets=${XSKX_COST_PACKETS:-20000}
sizes=${XSKX_COST_SIZES:-64 1500}
cases=${XSKX_COST_CASES:-l2fwd fw-pass fw-half}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# inclusive COUNTS_FILE FUNCTION: its inclusive instruction count, or 0.
inclusive() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v fn=":$2 " 'index($0, fn) && $0 ~ /\[/ {
			gsub(",", "", $1); print $1; found = 1; exit }
			END { if (!found) print 0 }'
}

# per_packet CASE SIZE [FILE]: the step's Ir per packet received, less kicks.
per_packet() {
	case=$1
	size=$2
	shift 2
	counts=$out/counts.$case.$size.$#
	valgrind --tool=callgrind --callgrind-out-file="$counts" \
		"$cost" "$packets" "$size" "$case" "$@" >"$out/log" 2>&1 ||
		{ cat "$out/log" >&2; exit 1; }
	step=fw_step
	[ "$case" = l2fwd ] && step=fwd_step
	step=$(inclusive "$counts" $step)
	rx=$(inclusive "$counts" xskx_socket_kick_rx)
	tx=$(inclusive "$counts" xskx_socket_kick_tx)
	echo "$step $rx $tx $packets" |
		awk '{ printf "%.1f", ($1 - $2 - $3) / $4 }'
}

echo "| core | frame | without a capture | with --pcap-out |"
echo "|---|---|---|---|"
for case in $cases; do
	for size in $sizes; do
		plain=$(per_packet "$case" "$size")
		capture=$(per_packet "$case" "$size" "$out/cost.pcap")
		echo "| $case | $size bytes | $plain | $capture |"
	done
done
echo
echo "($packets packets each; $(basename "$cost"), fwd_step()/fw_step() inclusive less xskx_socket_kick_rx/_tx, per packet received)"
