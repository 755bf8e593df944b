#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The experiments of issue 4 on the simulated NIC, as markdown tables for
# docs/PERFORMANCE.md. Each experiment runs its variants back to back,
# interleaved (A B A B ...), XSKX_PERF_REPS times; a table gives the median
# of each figure and the median of the per-repetition ratios, so that the
# drift of a shared machine cancels out of the ratios.
#
#   scripts/perf-experiments.sh [BUILD_DIR]      (default /tmp/build-perf)
#
# XSKX_PERF_DURATION seconds per run (default 1), XSKX_PERF_REPS (default 3),
# XSKX_PERF_ONLY="1 4" runs only those experiments. About 2.5 minutes with
# the defaults. Needs python3 (for the JSON). Build with optimization
# (CMAKE_BUILD_TYPE Release or RelWithDebInfo).
set -euo pipefail

build=${1:-/tmp/build-perf}
bench=$build/examples/xskx-bench
duration=${XSKX_PERF_DURATION:-1}
reps=${XSKX_PERF_REPS:-3}
only=${XSKX_PERF_ONLY:-1 2 3 4 5}

if [[ ! -x $bench ]]; then
	echo "perf-experiments: no $bench: build xskx first (cmake --build $build)" >&2
	exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One run: its JSON summary goes to $out/<experiment>-<variant>-<rep>.json.
run() {
	local file=$1
	shift
	if ! "$bench" --quiet --json -d "$duration" "$@" >"$file"; then
		echo "perf-experiments: failed: xskx-bench $*" >&2
		exit 1
	fi
}

# measure EXP NAME1 "ARGS1" NAME2 "ARGS2" ...: every variant once per
# repetition, in order.
measure() {
	local exp=$1 rep i
	shift
	local -a spec=("$@")
	for ((rep = 1; rep <= reps; rep++)); do
		for ((i = 0; i < ${#spec[@]}; i += 2)); do
			# shellcheck disable=SC2086 # the arguments are words
			run "$out/$exp-${spec[i]}-$rep.json" ${spec[i + 1]}
		done
	done
}

# med EXP NAME EXPR [FORMAT]: median over the repetitions of a Python
# expression of the JSON fields (sim_port and frames are dicts).
# ratio EXP NAME BASE EXPR: median of EXPR(NAME) / EXPR(BASE) per repetition.
stat() {
	python3 - "$out" "$reps" "$@" <<'EOF'
import json, statistics, sys
out, reps, kind, exp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def value(name, rep, expr):
    with open(f"{out}/{exp}-{name}-{rep}.json") as f:
        return eval(expr, {}, json.load(f))

if kind == "med":
    name, expr = sys.argv[5], sys.argv[6]
    fmt = sys.argv[7] if len(sys.argv) > 7 else "{:.3f}"
    print(fmt.format(statistics.median(
        value(name, r, expr) for r in range(1, reps + 1))))
else:
    name, base, expr = sys.argv[5], sys.argv[6], sys.argv[7]
    ratios = []
    for r in range(1, reps + 1):
        b = value(base, r, expr)
        ratios.append(value(name, r, expr) / b if b else float("nan"))
    print("{:.2f}".format(statistics.median(ratios)))
EOF
}
med() { stat med "$@"; }
ratio() { stat ratio "$@"; }

mpps='pps / 1e6'
fwd_mpps='tx_pps / 1e6'
per_mpkt() { echo "$1 * 1e6 / max(sim_port['rx_packets'], 1)"; }
cmd() { echo "\`xskx-bench --quiet --json -d $duration $*\`"; }

echo "# xskx-bench experiments on the simulated NIC"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r); $reps repetitions of" \
	"$duration s per variant, interleaved; medians."

# 1. "xsk: stop NAPI Rx processing on full XSK RQ": l2fwd, the NIC busy
# polled on the application's core, budget 2048, hardware rings RX 2048 /
# TX 256. 8192 frames and a 4096-entry FILL ring, as xdpsock gives FILL
# twice the RX ring: enough frames for the RX ring to fill up.
if [[ " $only " == *" 1 "* ]]; then
	e1="--same-core -l --nic-budget 2048 --hw-ring 2048 --hw-tx-ring 256 --frames 8192 --fill-size 4096"
	measure e1 drop "$e1 --rx-full-policy drop" stop "$e1 --rx-full-policy stop"
	# The same with a wire 1.25 times as fast as the stop policy forwards.
	rate=$(med e1 stop "int(tx_pps * 1.25)" "{}")
	measure e1r drop "$e1 --rx-full-policy drop --rate $rate" \
		stop "$e1 --rx-full-policy stop --rate $rate"
	echo
	echo "## 1. Stop the NAPI poll on a full RX ring, or drop"
	echo
	cmd "$e1 --rx-full-policy drop|stop [--rate R]"
	echo
	echo "| wire | policy | forwarded Mpps | rx_ring_full per Mpkt received | packets the poll processed, then dropped, per forwarded packet | NAPI polls stopped | stop/drop forwarded |"
	echo "|---|---|---|---|---|---|---|"
	for exp in e1 e1r; do
		wire="fills every posted buffer"
		[[ $exp == e1r ]] && wire="$rate pps"
		for p in drop stop; do
			r="—"
			[[ $p == stop ]] && r="$(ratio $exp stop drop tx_pps)×"
			echo "| $wire | $p | $(med $exp $p "$fwd_mpps") |" \
				"$(med $exp $p "$(per_mpkt rx_ring_full)" "{:.0f}") |" \
				"$(med $exp $p "sim_port['wasted_polls'] / max(tx_packets, 1)" "{:.2f}") |" \
				"$(med $exp $p "sim_port['napi_stops']" "{:.0f}") | $r |"
		done
	done
fi

# 2. mlx5, stride size relative to the MTU: rxdrop at MTU 1500 with 2 KiB and
# 4 KiB frames, the same number of frames (4096).
if [[ " $only " == *" 2 "* ]]; then
	echo
	echo "## 2. Frame size relative to the MTU (rxdrop, MTU 1500)"
	echo
	cmd "--same-core -r -f 2048|4096 -s 64|1514"
	echo
	echo "| packet | frame | Mpps | UMEM bytes per packet in flight | UMEM MiB | 2 KiB / 4 KiB Mpps |"
	echo "|---|---|---|---|---|---|"
	for size in 64 1514; do
		measure "e2s$size" 2k "--same-core -r -f 2048 -s $size" \
			4k "--same-core -r -f 4096 -s $size"
		for f in 2k 4k; do
			r="—"
			[[ $f == 2k ]] && r="$(ratio "e2s$size" 2k 4k pps)×"
			echo "| $size B | $f | $(med "e2s$size" $f "$mpps") |" \
				"$(med "e2s$size" $f "frames['umem_bytes'] // frames['umem']" "{}") |" \
				"$(med "e2s$size" $f "frames['umem_bytes'] / 2**20" "{:.0f}") | $r |"
		done
	done
fi

# 3. ice, "avoid refilling single Rx descriptors": the NIC refills its
# hardware ring one descriptor at a time or in batches, in the setting of
# experiment 1 (stop policy: polls cut short leave few empty descriptors).
if [[ " $only " == *" 3 "* ]]; then
	e3="--same-core -l --nic-budget 2048 --hw-ring 2048 --hw-tx-ring 256 --frames 8192 --fill-size 4096 --rx-full-policy stop"
	echo
	echo "## 3. Refill the hardware RX ring in batches"
	echo
	cmd "$e3 -b 64|4 --refill-batch 1|32|64"
	echo
	echo "| application batch | refill batch | forwarded Mpps | refills per Mpkt | FILL entries per refill | / refill batch 1 |"
	echo "|---|---|---|---|---|---|"
	# An application batch of 4 frees 4 RX slots at a time: the polls it
	# lets through are short and leave few hardware descriptors empty.
	for app in 64 4; do
		measure "e3a$app" b1 "$e3 -b $app --refill-batch 1" \
			b32 "$e3 -b $app --refill-batch 32" \
			b64 "$e3 -b $app --refill-batch 64"
		for b in b1 b32 b64; do
			echo "| $app | ${b#b} | $(med "e3a$app" $b "$fwd_mpps") |" \
				"$(med "e3a$app" $b "$(per_mpkt "sim_port['hw_refills']")" "{:.0f}") |" \
				"$(med "e3a$app" $b "sim_port['rx_packets'] / max(sim_port['hw_refills'], 1)" "{:.1f}") |" \
				"$(ratio "e3a$app" $b b1 tx_pps)× |"
		done
	done
fi

# 4. fec, XDP_TX vs XDP_REDIRECT: the port's XDP hook reflects the packets
# (MACs swapped) or xskx l2fwd forwards them through user space.
if [[ " $only " == *" 4 "* ]]; then
	measure e4s xdptx "--same-core -l --xdp-action tx" l2fwd "--same-core -l"
	measure e4t xdptx "--sim -l --xdp-action tx" l2fwd "--sim -l"
	echo
	echo "## 4. XDP_TX in the NIC vs l2fwd through user space"
	echo
	cmd "--same-core|--sim -l [--xdp-action tx]"
	echo
	echo "| NIC | path | forwarded Mpps | XDP_TX / l2fwd |"
	echo "|---|---|---|---|"
	for exp in e4s e4t; do
		where="same core (busy poll)"
		[[ $exp == e4t ]] && where="own thread (threaded)"
		echo "| $where | XDP_TX | $(med $exp xdptx "$fwd_mpps") | $(ratio $exp xdptx l2fwd tx_pps)× |"
		echo "| $where | l2fwd (AF_XDP) | $(med $exp l2fwd "$fwd_mpps") | — |"
	done
fi

# 5. need_wakeup on and off, and the batch size, for the three modes, with
# the NIC on a thread (and CPU) of its own: there a kick is a wakeup of
# another CPU, the cost need_wakeup saves.
if [[ " $only " == *" 5 "* ]]; then
	echo
	echo "## 5. need_wakeup, and the batch size"
	echo
	echo "$(cmd "--sim -r|-t|-l [-m]") and $(cmd "--sim -r|-t|-l -b 1|16|64|256")"
	echo
	echo "| mode | need_wakeup | Mpps | kicks per Mpkt | on / off |"
	echo "|---|---|---|---|---|"
	declare -A mode_name=([r]=rxdrop [t]=txonly [l]=l2fwd)
	for m in r t l; do
		measure "e5$m" on "--sim -$m" off "--sim -$m -m"
		for w in on off; do
			r="—"
			[[ $w == on ]] && r="$(ratio "e5$m" on off pps)×"
			echo "| ${mode_name[$m]} | $w | $(med "e5$m" $w "$mpps") |" \
				"$(med "e5$m" $w "(rx_kicks + tx_kicks) * 1e6 / max(rx_packets + tx_packets, 1)" "{:.0f}") | $r |"
		done
	done
	echo
	echo "| mode | batch | Mpps | kicks per Mpkt | / batch 64 |"
	echo "|---|---|---|---|---|"
	for m in r t l; do
		measure "e5b$m" 1 "--sim -$m -b 1" 16 "--sim -$m -b 16" \
			64 "--sim -$m -b 64" 256 "--sim -$m -b 256"
		for b in 1 16 64 256; do
			echo "| ${mode_name[$m]} | $b | $(med "e5b$m" $b "$mpps") |" \
				"$(med "e5b$m" $b "(rx_kicks + tx_kicks) * 1e6 / max(rx_packets + tx_packets, 1)" "{:.0f}") |" \
				"$(ratio "e5b$m" $b 64 pps)× |"
		done
	done
fi
