#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Instructions per packet of handling partial TCP/UDP checksums
# (xskx/packet.h), counted by valgrind's callgrind in csum_cost_step() of
# tests/perf/csum_cost.c, one call per packet over PACKETS crafted packets:
#
#   parse     xskx_pkt_parse() alone (what a forwarder that reads headers
#             pays anyway: the reference)
#   complete  xskx_pkt_csum_complete() on a packet already complete
#   software  xskx_pkt_csum_complete() on a partial one (completed here)
#   txmeta    xskx_pkt_csum_partial() on a partial one plus the
#             XSKX_TX_META_CHECKSUM request written with xskx_tx_meta();
#             the sum itself is then the kernel's (copy mode) or the NIC's
#             (zero-copy), which callgrind does not see
#
# for UDP/IPv4, TCP/IPv4 and TCP/IPv6 frames of the smallest size (64
# bytes; 86 for TCP/IPv6, whose headers alone take 74) and of 1514 bytes. The
# figures are the same on every run of the same binary. Measure a Release
# build (-DCMAKE_BUILD_TYPE=Release), as docs/PERFORMANCE.md does:
#   cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-release --target csum_cost
#   scripts/csum-cost.sh build-release/tests/perf/csum_cost
#
# Usage: scripts/csum-cost.sh CSUM_COST
#   XSKX_CSUM_PACKETS (4096)
set -eu

[ $# -eq 1 ] || { echo "usage: $0 CSUM_COST" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 1; }
prog=$1
[ -x "$prog" ] || { echo "$0: $prog: no such program" >&2; exit 1; }
packets=${XSKX_CSUM_PACKETS:-4096}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# ipp CASE PROTO SIZE: Ir per packet of csum_cost_step.
ipp() {
	if ! valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect=csum_cost_step \
		--callgrind-out-file="$out/cg" \
		"$prog" "$1" "$2" "$3" "$packets" >"$out/log" 2>&1; then
		cat "$out/log" >&2
		exit 1
	fi
	ir=$(sed -n 's/^summary: *//p' "$out/cg")
	[ "${ir:-0}" -gt 0 ] || { echo "$0: csum_cost_step never ran" >&2; exit 1; }
	awk "BEGIN { printf \"%.1f\", $ir / $packets }"
}

printf '%-5s %5s %8s %9s %9s %9s %14s %13s\n' proto bytes parse \
	complete software txmeta "complete-parse" "software/txmeta"
for proto in udp4 tcp4 tcp6; do
	small=64
	[ "$proto" = tcp6 ] && small=86
	for size in $small 1514; do
		parse=$(ipp parse "$proto" "$size")
		complete=$(ipp complete "$proto" "$size")
		software=$(ipp software "$proto" "$size")
		txmeta=$(ipp txmeta "$proto" "$size")
		printf '%-5s %5s %8s %9s %9s %9s %14s %13s\n' "$proto" "$size" \
			"$parse" "$complete" "$software" "$txmeta" \
			"$(awk "BEGIN { printf \"%.1f\", $complete - $parse }")" \
			"$(awk "BEGIN { printf \"%.2fx\", $software / $txmeta }")"
	done
done
