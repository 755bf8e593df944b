#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The experiments of issue 4, as markdown tables for docs/PERFORMANCE.md:
# on the simulated NIC (1-5), on a veth pair with the kernel backend
# (veth1, veth5) and as instruction counts under callgrind (ir3, ir5). Each
# measured experiment runs its variants back to back, interleaved
# (A B A B ...), XSKX_PERF_REPS times; a table gives the median of each
# figure and the median of the per-repetition ratios, so that the drift of a
# shared machine cancels out of the ratios.
#
#   scripts/perf-experiments.sh [BUILD_DIR]      (default /tmp/build-perf)
#
# XSKX_PERF_DURATION seconds per run (default 1), XSKX_PERF_REPS (default 3),
# XSKX_PERF_ONLY="1 veth5 ir3" runs only those experiments. About 4 minutes
# with the defaults. Needs python3 (for the JSON); the veth experiments need
# root (they create the network namespace xskx-perf-PID, a veth pair inside
# it, and remove both on exit), the ir ones valgrind: each is skipped with a
# message otherwise. Build with optimization (CMAKE_BUILD_TYPE Release or
# RelWithDebInfo).
set -euo pipefail

build=${1:-/tmp/build-perf}
bench=$build/examples/xskx-bench
duration=${XSKX_PERF_DURATION:-1}
reps=${XSKX_PERF_REPS:-3}
only=${XSKX_PERF_ONLY:-1 2 3 4 5 veth1 veth5 ir3 ir5}

if [[ ! -x $bench ]]; then
	echo "perf-experiments: no $bench: build xskx first (cmake --build $build)" >&2
	exit 2
fi
out=$(mktemp -d)
ns=""	    # the veth experiments' network namespace, once created
peer_pid="" # the veth peer running now

cleanup() {
	if [[ -n $peer_pid ]]; then
		kill "$peer_pid" 2>/dev/null || true
		wait "$peer_pid" 2>/dev/null || true
	fi
	if [[ -n $ns ]]; then
		ip netns del "$ns" 2>/dev/null || true
	fi
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wanted() { [[ " $only " == *" $1 "* ]]; }

# bounded [WRAPPER...] -- ARGS...: one xskx-bench run of --duration, killed
# if it outlives it by 20 s, and then tried again (twice at most): a hung
# run is reported on stderr and in the output's notes, not waited for.
hung_runs=0
bounded() {
	local -a wrap=()
	local try rc
	while [[ $1 != -- ]]; do
		wrap+=("$1")
		shift
	done
	shift
	for try in 1 2 3; do
		rc=0
		timeout -s INT -k 5 "$((${duration%.*} + 20))" "${wrap[@]}" "$bench" \
			--quiet --json -d "$duration" "$@" || rc=$?
		[[ $rc == 124 || $rc == 137 ]] || return "$rc"
		hung_runs=$((hung_runs + 1))
		echo "perf-experiments: hung, killed (try $try): xskx-bench $*" >&2
		echo "xskx-bench $*" >>"$out/hung"
	done
	return 1
}

# One run: its JSON summary goes to $out/<experiment>-<variant>-<rep>.json.
run() {
	local file=$1
	shift
	if ! bounded -- "$@" >"$file"; then
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
# What each mode counts: received (rxdrop), sent (txonly), forwarded (l2fwd).
declare -A mode_name=([r]=rxdrop [t]=txonly [l]=l2fwd)
declare -A mode_rate=([r]=rx_pps [t]=tx_pps [l]=tx_pps)
declare -A mode_count=([r]=rx_packets [t]=tx_packets [l]=tx_packets)
kicks_per_mpkt() { echo "(rx_kicks + tx_kicks) * 1e6 / max(${mode_count[$1]}, 1)"; }

echo "# xskx-bench experiments (simulated NIC, veth, callgrind)"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r); $reps repetitions of" \
	"$duration s per variant, interleaved; medians."

# 1. "xsk: stop NAPI Rx processing on full XSK RQ": l2fwd, the NIC busy
# polled on the application's core, budget 2048, hardware rings RX 2048 /
# TX 256. 8192 frames and a 4096-entry FILL ring, as xdpsock gives FILL
# twice the RX ring: enough frames for the RX ring to fill up.
if wanted 1; then
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
if wanted 2; then
	echo
	echo "## 2. Frame size relative to the MTU (rxdrop, MTU 1500)"
	echo
	cmd "--same-core -r -f 2048|4096 --pkt-size 64|1514"
	echo
	echo "| packet | frame | Mpps | UMEM bytes per packet in flight | UMEM MiB | 2 KiB / 4 KiB Mpps |"
	echo "|---|---|---|---|---|---|"
	for size in 64 1514; do
		measure "e2s$size" 2k "--same-core -r -f 2048 --pkt-size $size" \
			4k "--same-core -r -f 4096 --pkt-size $size"
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
if wanted 3; then
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
if wanted 4; then
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
if wanted 5; then
	echo
	echo "## 5. need_wakeup, and the batch size"
	echo
	echo "$(cmd "--sim -r|-t|-l [-m]") and $(cmd "--sim -r|-t|-l -b 1|16|64|256")"
	echo
	echo "| mode | need_wakeup | Mpps | kicks per Mpkt | on / off |"
	echo "|---|---|---|---|---|"
	for m in r t l; do
		measure "e5$m" on "--sim -$m" off "--sim -$m -m"
		for w in on off; do
			r="—"
			[[ $w == on ]] && r="$(ratio "e5$m" on off "${mode_rate[$m]}")×"
			echo "| ${mode_name[$m]} | $w | $(med "e5$m" $w "${mode_rate[$m]} / 1e6") |" \
				"$(med "e5$m" $w "$(kicks_per_mpkt $m)" "{:.0f}") | $r |"
		done
	done
	echo
	echo "| mode | batch | Mpps | kicks per Mpkt | / batch 64 |"
	echo "|---|---|---|---|---|"
	for m in r t l; do
		measure "e5b$m" 1 "--sim -$m -b 1" 16 "--sim -$m -b 16" \
			64 "--sim -$m -b 64" 256 "--sim -$m -b 256"
		for b in 1 16 64 256; do
			echo "| ${mode_name[$m]} | $b | $(med "e5b$m" $b "${mode_rate[$m]} / 1e6") |" \
				"$(med "e5b$m" $b "$(kicks_per_mpkt $m)" "{:.0f}") |" \
				"$(ratio "e5b$m" $b 64 "${mode_rate[$m]}")× |"
		done
	done
fi

# The veth experiments: the kernel backend on a veth pair xa <-> xb inside a
# network namespace of our own, two xskx-bench processes — the sender on
# xa pinned to CPU 0, the receiver on xb pinned to CPU 1. veth has no
# zero-copy: both sockets run in copy mode, and xb's NAPI (the XDP program,
# the copy into the receiver's UMEM) runs in the sender's softirq, on CPU 0.
veth_up() {
	if [[ $EUID -ne 0 ]]; then
		echo "perf-experiments: veth experiments skipped: creating a network namespace needs root" >&2
		return 1
	fi
	ns=xskx-perf-$$
	if ! ip netns add "$ns"; then
		ns=""
		echo "perf-experiments: veth experiments skipped: ip netns add failed" >&2
		return 1
	fi
	ip -n "$ns" link add xa type veth peer name xb
	ip -n "$ns" link set xa up
	ip -n "$ns" link set xb up
}

# pair FILE "ARGS" "PEER ARGS": the peer starts first and runs until the
# measured process is done (bounded by --duration all the same); the
# measured run's JSON goes to FILE. A receiving peer is ready once its XDP
# program sits on xb.
pair() {
	local file=$1 args=$2 peer=$3 i
	# shellcheck disable=SC2086 # the arguments are words
	ip netns exec "$ns" "$bench" --quiet --json -d "$((${duration%.*} + 10))" \
		$peer >"$file.peer" 2>"$file.peer.err" &
	peer_pid=$!
	for ((i = 0; i < 60; i++)); do
		[[ $peer != "-i xb "* ]] && break
		ip -n "$ns" link show xb | grep -q xdp && break
		sleep 0.05
	done
	sleep 0.3
	# shellcheck disable=SC2086
	if ! bounded ip netns exec "$ns" -- $args >"$file"; then
		echo "perf-experiments: failed: xskx-bench $args (peer: $peer)" >&2
		exit 1
	fi
	kill -INT "$peer_pid"
	if ! wait "$peer_pid"; then
		echo "perf-experiments: peer failed: xskx-bench $peer" >&2
		cat "$file.peer.err" >&2
		exit 1
	fi
	peer_pid=""
}

# measure_pair EXP NAME1 "ARGS1" "PEER1" NAME2 ...: as measure, in pairs.
measure_pair() {
	local exp=$1 rep i
	shift
	local -a spec=("$@")
	for ((rep = 1; rep <= reps; rep++)); do
		for ((i = 0; i < ${#spec[@]}; i += 3)); do
			pair "$out/$exp-${spec[i]}-$rep.json" "${spec[i + 1]}" "${spec[i + 2]}"
		done
	done
}

send="-i xa -t --app-cpu 0"
recv="-i xb -r --app-cpu 1"
# The roles: the measured mode on its end, the other end as its peer.
declare -A veth_args=([r]="-i xb -r --app-cpu 1" [t]="-i xa -t --app-cpu 0" [l]="-i xb -l --app-cpu 1")
declare -A veth_peer=([r]="$send" [t]="$recv" [l]="$send")
# Packets that reached the receiving socket: received, or dropped for a
# full RX ring or an empty FILL ring.
offered='max(rx_packets + rx_ring_full + rx_dropped, 1)'

veth_ok=""
if wanted veth1 || wanted veth5; then
	veth_up && veth_ok=1
	if [[ -z $veth_ok ]]; then
		echo
		echo "## veth experiments: skipped (need root to create a network namespace)"
	fi
fi

# veth 1: copy mode has no stop policy: with a full RX ring the kernel drops.
# What it does then, and which counter says so, with a receiver that keeps
# up (rxdrop) and with l2fwd, which drains slower than the sender sends once
# it forwards one packet per burst (a sendto per packet), with FILL as
# large as RX (the library's default) or twice as large (as in experiment 1).
if wanted veth1 && [[ -n $veth_ok ]]; then
	big="--frames 8192 --fill-size 4096"
	measure_pair v1 r "${veth_args[r]}" "$send" l64 "${veth_args[l]}" "$send" \
		l1 "${veth_args[l]} -b 1" "$send" l1big "${veth_args[l]} -b 1 $big" "$send"
	echo
	echo "## veth 1. A full RX ring in copy mode"
	echo
	echo "Receiver $(cmd "-i xb -r|-l --app-cpu 1 [-b 1] [$big]"), sender \`xskx-bench -i xa -t --app-cpu 0\`, both in one network namespace"
	echo
	echo "| receiver | batch | FILL / RX entries | reached the socket, Mpps | received, Mpps | rx_ring_full per Mpkt | FILL empty per Mpkt | received / reached |"
	echo "|---|---|---|---|---|---|---|---|"
	for v in r l64 l1 l1big; do
		rings="2048 / 2048" batch=64
		[[ $v == *big ]] && rings="4096 / 2048"
		[[ $v == l1* ]] && batch=1
		echo "| ${mode_name[${v:0:1}]} | $batch | $rings | $(med v1 $v "$offered / duration_s / 1e6") |" \
			"$(med v1 $v "rx_pps / 1e6") |" \
			"$(med v1 $v "rx_ring_full * 1e6 / $offered" "{:.0f}") |" \
			"$(med v1 $v "rx_dropped * 1e6 / $offered" "{:.0f}") |" \
			"$(med v1 $v "rx_packets / $offered" "{:.3f}") |"
	done
fi

# veth 5: need_wakeup on and off, and the batch size, the measured mode on
# its end of the pair.
if wanted veth5 && [[ -n $veth_ok ]]; then
	echo
	echo "## veth 5. need_wakeup, and the batch size"
	echo
	echo "$(cmd "-i xb -r|-i xa -t|-i xb -l --app-cpu 1|0|1 [-m] [-b 1|16|64|256]"); the peer: \`xskx-bench -i xa -t --app-cpu 0\` for rxdrop and l2fwd, \`xskx-bench -i xb -r --app-cpu 1\` for txonly"
	echo
	echo "| mode | need_wakeup | Mpps | kicks per Mpkt | dropped at the socket per Mpkt | on / off |"
	echo "|---|---|---|---|---|---|"
	for m in r t l; do
		measure_pair "v5$m" on "${veth_args[$m]}" "${veth_peer[$m]}" \
			off "${veth_args[$m]} -m" "${veth_peer[$m]}"
		for w in on off; do
			r="—" drops="—"
			[[ $w == on ]] && r="$(ratio "v5$m" on off "${mode_rate[$m]}")×"
			[[ $m != t ]] && drops=$(med "v5$m" $w "(rx_ring_full + rx_dropped) * 1e6 / $offered" "{:.0f}")
			echo "| ${mode_name[$m]} | $w | $(med "v5$m" $w "${mode_rate[$m]} / 1e6") |" \
				"$(med "v5$m" $w "$(kicks_per_mpkt $m)" "{:.0f}") | $drops | $r |"
		done
	done
	echo
	echo "| mode | batch | Mpps | kicks per Mpkt | dropped at the socket per Mpkt | / batch 64 |"
	echo "|---|---|---|---|---|---|"
	for m in r t l; do
		measure_pair "v5b$m" 1 "${veth_args[$m]} -b 1" "${veth_peer[$m]}" \
			16 "${veth_args[$m]} -b 16" "${veth_peer[$m]}" \
			64 "${veth_args[$m]} -b 64" "${veth_peer[$m]}" \
			256 "${veth_args[$m]} -b 256" "${veth_peer[$m]}"
		for b in 1 16 64 256; do
			drops="—"
			[[ $m != t ]] && drops=$(med "v5b$m" $b "(rx_ring_full + rx_dropped) * 1e6 / $offered" "{:.0f}")
			echo "| ${mode_name[$m]} | $b | $(med "v5b$m" $b "${mode_rate[$m]} / 1e6") |" \
				"$(med "v5b$m" $b "$(kicks_per_mpkt $m)" "{:.0f}") | $drops |" \
				"$(ratio "v5b$m" $b 64 "${mode_rate[$m]}")× |"
		done
	done
fi

# Instruction counts: callgrind on --sim-deterministic (or --same-core)
# runs of a fixed number of packets, so that every run gives the same
# figures. Counted: bench_run() and all it calls — the application's bursts
# and, in these modes, the simulated NIC's work, which runs on the same
# thread. Setup and teardown are left out.
ir_ok=""
if wanted ir3 || wanted ir5; then
	if command -v valgrind >/dev/null; then
		ir_ok=1
	else
		echo
		echo "## Instruction counts: skipped (valgrind not found)"
	fi
fi
ir_packets=${XSKX_PERF_IR_PACKETS:-200000}

# [toggles="FUNCTIONS"] ir NAME ARGS...: one run under callgrind, counting
# inside bench_run() or the given functions; $out/NAME.json and $out/NAME.ir
ir() {
	local name=$1 fn
	local -a toggle=()
	shift
	for fn in ${toggles:-bench_run}; do
		toggle+=("--toggle-collect=$fn")
	done
	if ! valgrind --tool=callgrind --collect-atstart=no "${toggle[@]}" \
		--callgrind-out-file="$out/$name.out" "$bench" --quiet --json \
		--duration 3600 --packets "$ir_packets" "$@" >"$out/$name.json" \
		2>"$out/$name.log"; then
		cat "$out/$name.log" >&2
		exit 1
	fi
	sed -n 's/^summary: *//p' "$out/$name.out" >"$out/$name.ir"
}
# irx EXPR [FORMAT]: a Python expression of the runs so far: r["NAME"] holds
# a run's JSON fields and, as "ir", the instructions counted; pkt(NAME, M)
# and kicks(NAME, M) are per packet that mode M counts.
irx() {
	python3 - "$out" "$1" "${2:-"{:.1f}"}" <<'PY'
import glob, json, os, sys
out, expr, fmt = sys.argv[1:4]
r = {}
for path in glob.glob(out + "/*.ir"):
    name = os.path.basename(path)[:-3]
    with open(out + "/" + name + ".json") as f:
        r[name] = json.load(f)
    with open(path) as f:
        r[name]["ir"] = int(f.read())
count = {"r": "rx_packets", "t": "tx_packets", "l": "tx_packets"}
def pkt(n, m):
    return r[n]["ir"] / r[n][count[m]]
def kicks(n, m):
    return (r[n]["rx_kicks"] + r[n]["tx_kicks"]) / r[n][count[m]]
print(fmt.format(eval(expr)))
PY
}

# ir 3: what a refill costs the simulated NIC, in the setting of experiment 3
# with the application's batch of 4 (where the refill batch changes the
# number of refills).
if wanted ir3 && [[ -n $ir_ok ]]; then
	e3="--same-core -l --nic-budget 2048 --hw-ring 2048 --hw-tx-ring 256 --frames 8192 --fill-size 4096 --rx-full-policy stop -b 4"
	for b in 1 64; do
		# shellcheck disable=SC2086 # the arguments are words
		ir "i3b$b" $e3 --refill-batch $b
	done
	echo
	echo "## Instructions: refill batch (experiment 3)"
	echo
	echo "\`valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_run xskx-bench --quiet --json --duration 3600 --packets $ir_packets $e3 --refill-batch 1|64\`"
	echo
	echo "| refill batch | instructions per forwarded packet | refills per forwarded packet | / refill batch 1 |"
	echo "|---|---|---|---|"
	for b in 1 64; do
		echo "| $b | $(irx "pkt('i3b$b', 'l')") |" \
			"$(irx "r['i3b$b']['sim_port']['hw_refills'] / r['i3b$b']['tx_packets']" "{:.4f}") |" \
			"$(irx "pkt('i3b$b', 'l') / pkt('i3b1', 'l')" "{:.3f}")× |"
	done
	refills="r[n]['sim_port']['hw_refills'] / r[n]['tx_packets']"
	echo
	echo "Instructions per refill avoided: $(irx "(pkt('i3b1', 'l') - pkt('i3b64', 'l')) / ((lambda n: $refills)('i3b1') - (lambda n: $refills)('i3b64'))" "{:.0f}")."
fi

# ir 5: what need_wakeup saves in instructions on the simulated NIC, and
# what a kick it saves costs.
if wanted ir5 && [[ -n $ir_ok ]]; then
	for m in r t l; do
		ir "i5${m}on" --sim-deterministic -$m
		ir "i5${m}off" --sim-deterministic -$m -m
	done
	echo
	echo "## Instructions: need_wakeup (experiment 5)"
	echo
	echo "\`valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_run xskx-bench --quiet --json --duration 3600 --packets $ir_packets --sim-deterministic -r|-t|-l [-m]\`"
	echo
	echo "| mode | need_wakeup | instructions per packet | kicks per packet | on / off |"
	echo "|---|---|---|---|---|"
	for m in r t l; do
		for w in on off; do
			r="—"
			[[ $w == on ]] && r=$(irx "pkt('i5${m}on', '$m') / pkt('i5${m}off', '$m')" "{:.3f}")×
			echo "| ${mode_name[$m]} | $w | $(irx "pkt('i5$m$w', '$m')") |" \
				"$(irx "kicks('i5$m$w', '$m')" "{:.4f}") | $r |"
		done
	done
	# A kick's own cost: on --same-core the simulated NIC works only
	# inside kicks, so the kick's instructions less those of the NIC
	# functions it calls (which do not call each other in rxdrop) are the
	# way there and back: what a syscall is on the kernel.
	toggles="xskx_socket_kick_rx" ir i5kick --same-core -r
	toggles="sim_sources_run sim_napi_poll sim_tx_zc sim_tx_wake" ir i5nic --same-core -r
	echo
	echo "A kick on the simulated NIC, less the NIC's work it runs: $(irx "(r['i5kick']['ir'] - r['i5nic']['ir']) / r['i5kick']['rx_kicks']" "{:.0f}") instructions" \
		"(\`--same-core -r\`, counted in xskx_socket_kick_rx() less sim_sources_run(), sim_napi_poll(), sim_tx_zc(), sim_tx_wake())."
fi

if [[ -s $out/hung ]]; then
	echo
	echo "Runs that hung, were killed after --duration + 20 s and run again:"
	echo
	# shellcheck disable=SC2016 # backquotes for markdown
	sed 's/.*/- `&`/' "$out/hung"
fi
