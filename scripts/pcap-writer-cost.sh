#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What --pcap-out's capture writer costs the forwarding path
# (docs/CAPTURES.md): instructions per forwarded packet of xskx-l2fwd's
# forwarding core, fwd_step() and all it calls less its kicks (they run the
# simulated NIC, the same with and without the writer), counted by
# valgrind's callgrind on the deterministic simulated NIC
# (tests/perf/capture_cost.c), without the writer and with it, for 64- and
# 1500-byte frames. The writer's ring has a slot for every packet, so
# that none finds it full: each pays for its copy, and the counts are the
# same on every run of the same binary. The writer thread's own work
# (libpcap's dumper, the file) is on its thread and not counted.
#
# Measure a Release build (-DCMAKE_BUILD_TYPE=Release), as the doc does:
#   cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-rel --target capture_cost
#   scripts/pcap-writer-cost.sh build-rel/tests/perf/capture_cost
#
# Usage: scripts/pcap-writer-cost.sh CAPTURE_COST
#   XSKX_COST_PACKETS (40000)   XSKX_COST_SIZES (64 1500)
set -eu

[ $# -eq 1 ] || { echo "usage: $0 CAPTURE_COST" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
cost=$1
[ -x "$cost" ] || { echo "$0: $cost: no such program" >&2; exit 1; }
packets=${XSKX_COST_PACKETS:-40000}
sizes=${XSKX_COST_SIZES:-64 1500}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# inclusive COUNTS_FILE FUNCTION: its inclusive instruction count, or 0.
inclusive() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v fn=":$2 " 'index($0, fn) && $0 ~ /\[/ {
			gsub(",", "", $1); print $1; found = 1; exit }
			END { if (!found) print 0 }'
}

# per_packet SIZE [FILE]: fwd_step's Ir per forwarded packet, less kicks.
per_packet() {
	size=$1
	shift
	counts=$out/counts.$size.$#
	valgrind --tool=callgrind --callgrind-out-file="$counts" \
		"$cost" "$packets" "$size" "$@" >"$out/log" 2>&1 ||
		{ cat "$out/log" >&2; exit 1; }
	step=$(inclusive "$counts" fwd_step)
	rx=$(inclusive "$counts" xskx_socket_kick_rx)
	tx=$(inclusive "$counts" xskx_socket_kick_tx)
	echo "$step $rx $tx $packets" |
		awk '{ printf "%.1f", ($1 - $2 - $3) / $4 }'
}

echo "| frame | without --pcap-out | with --pcap-out | the writer's share |"
echo "|---|---|---|---|"
for size in $sizes; do
	plain=$(per_packet "$size")
	writer=$(per_packet "$size" "$out/cost.pcap" "$packets" "$size")
	echo "$size $plain $writer" | awk '{ printf "| %d bytes | %s | %s | %+.1f |\n", $1, $2, $3, $3 - $2 }'
done
echo
echo "($packets packets each; $(basename "$cost"), fwd_step() inclusive less xskx_socket_kick_rx/_tx)"
