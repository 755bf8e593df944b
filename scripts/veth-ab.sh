#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A/B on a veth pair: xskx-bench against xdpsock (bpf-examples'
# AF_XDP-example, built by you, never by this script), or, without an
# xdpsock, xskx against itself with the kernel features of issue 10 on (A)
# and off (B: xskx-bench --kernel-tx-budget, the copy-mode TX budget left at
# the kernel's 32; NAPI settings are A's with -a "--napi ...").
#
#   scripts/veth-ab.sh [-x XDPSOCK] [-n PAIRS] [-d SECONDS] [-m MODES]
#                      [-a "ARGS"] [-b "ARGS"] [-D] [BUILD_DIR]
#
#   -x XDPSOCK  the xdpsock binary to compare against (B)
#   -n PAIRS    A/B pairs per mode (default 5; 1 for a smoke run)
#   -d SECONDS  measured seconds per run (default 10); each run lasts 2 s
#               longer, and its first second and its last partial one are
#               not counted
#   -m MODES    any of "rxdrop txonly l2fwd" (default: all three)
#   -a / -b     extra arguments for A's and B's program under test (e.g.
#               -a "-p" -b "-p" for poll(), -b "-B" for xdpsock's busy poll)
#   -D          the far end drops in XDP instead: an XDP_DROP program
#               (built here with clang) on xa takes l2fwd's forwarded
#               packets, and on xb replaces txonly's sink, so that neither
#               pays for the kernel stack or a second AF_XDP socket
#   BUILD_DIR   where xskx-bench was built (default build-rel)
#
# Topology: one network namespace of its own (kfeat-ab-PID) holding the
# veth pair xa-xb. The program under test runs on CPU 1 for rxdrop and
# l2fwd (on xb) and on CPU 0 for txonly (on xa); the other end is the same
# for A and B: xskx-bench -t on xa, CPU 0 (the generator of rxdrop and
# l2fwd) or xskx-bench -r on xb, CPU 1 (the sink of txonly; with -D an
# XDP_DROP program instead, and another on xa for l2fwd). Pairs
# alternate their order (A B, B A, ...) so that the drift of a shared
# machine falls on both sides.
#
# Measured: the rate the program under test counts itself (rxdrop:
# received; txonly: sent; l2fwd: forwarded), from its own per-second
# lines, between its first line and its last whole second; and, from
# /proc/stat, where each CPU's time went during the runs (user, system,
# irq and softirq, idle), which says what limited them. Printed per
# mode: every pair's A and B in Mpps and their ratio, then the medians,
# the ranges and the median ratio with the range of the ratios.
#
# Needs root, python3 and iproute2. Every run is bounded by timeout; the
# namespace is deleted on exit, whatever the exit.
set -euo pipefail

xdpsock=""
pairs=5
seconds=10
modes="rxdrop txonly l2fwd"
a_args=""
b_args=""
xdp_drop=false
while getopts "x:n:d:m:a:b:Dh" opt; do
	case $opt in
	x) xdpsock=$OPTARG ;;
	n) pairs=$OPTARG ;;
	d) seconds=$OPTARG ;;
	m) modes=$OPTARG ;;
	a) a_args=$OPTARG ;;
	b) b_args=$OPTARG ;;
	D) xdp_drop=true ;;
	*)
		sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//'
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build-rel}
bench=$build/examples/xskx-bench

fail() {
	echo "veth-ab: $*" >&2
	exit 2
}
[[ $(id -u) == 0 ]] || fail "needs root (network namespace, AF_XDP sockets)"
[[ -x $bench ]] || fail "no $bench: build xskx-bench first (cmake --build $build --target xskx-bench)"
[[ -z $xdpsock || -x $xdpsock ]] || fail "$xdpsock is not an executable xdpsock"
[[ $pairs =~ ^[1-9][0-9]*$ ]] || fail "-n $pairs: a positive number of pairs"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || fail "-d $seconds: whole seconds, at least 1"
for mode in $modes; do
	[[ $mode == rxdrop || $mode == txonly || $mode == l2fwd ]] ||
		fail "-m: unknown mode '$mode' (rxdrop, txonly, l2fwd)"
done

ns=kfeat-ab-$$
out=$(mktemp -d)
peer_pid=""
cleanup() {
	if [[ -n $peer_pid ]]; then
		kill "$peer_pid" 2>/dev/null || true
		wait "$peer_pid" 2>/dev/null || true
	fi
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$ns"
ip -n "$ns" link add xa type veth peer name xb
ip -n "$ns" link set xa up
ip -n "$ns" link set xb up

# -D: XDP_DROP is 1 (enum xdp_action); the program needs no header.
if $xdp_drop; then
	command -v clang >/dev/null || fail "-D needs clang (scripts/install-deps.sh)"
	printf '%s\n' '__attribute__((section("xdp"), used)) int drop(void *ctx) { return 1; }' \
		'char _license[] __attribute__((section("license"), used)) = "GPL";' \
		>"$out/drop.bpf.c"
	clang -O2 -target bpf -c "$out/drop.bpf.c" -o "$out/drop.o"
fi

# -D: where a mode's packets end, dropped in XDP: l2fwd's forwarded ones on
# xa, txonly's on xb. Only for that mode: xdpsock -t attaches its own
# program to xa, and the receivers theirs to xb.
drop_end() {
	case $1 in
	l2fwd) echo xa ;;
	txonly) echo xb ;;
	esac
}

run_len=$((seconds + 2))
# in_ns CMD...: CMD inside the namespace, killed if it outlives its run by 20 s.
in_ns() { timeout -s INT -k 5 $((run_len + 20)) ip netns exec "$ns" "$@"; }

# The fixed end of a mode, the same for A and B, started before the program
# under test and outliving it. The pause also lets the kernel finish
# releasing the previous run's socket: xdpsock does not retry a bind that
# finds the queue still busy.
start_peer() {
	local mode=$1
	local -a peer
	if [[ $mode == txonly ]] && $xdp_drop; then
		sleep 0.5
		return
	elif [[ $mode == txonly ]]; then
		peer=(-i xb -r --app-cpu 1)
	else
		peer=(-i xa -t --app-cpu 0)
	fi
	in_ns "$bench" --quiet --json -d $((run_len + 2)) "${peer[@]}" \
		>"$out/peer.json" 2>"$out/peer.err" &
	peer_pid=$!
	sleep 0.5
}

stop_peer() {
	[[ -n $peer_pid ]] || return 0
	wait "$peer_pid" || fail "the fixed end failed: $(tail -3 "$out/peer.err")"
	peer_pid=""
}

# The two CPUs' time counters (/proc/stat: user nice system idle iowait irq
# softirq ...), before and after a run: where each CPU's time went.
cpu_times() { grep -E '^cpu[01] ' /proc/stat; }

# run_side SIDE MODE FILE: one run of A or B, its output in FILE, the CPUs'
# counters around it in FILE.cpu.
run_side() {
	local side=$1 mode=$2 file=$3 extra iface cpu
	if [[ $side == A ]]; then extra=$a_args; else extra=$b_args; fi
	if [[ $mode == txonly ]]; then iface=xa cpu=0; else iface=xb cpu=1; fi
	start_peer "$mode"
	cpu_times >"$file.cpu"
	# shellcheck disable=SC2086 # the extra arguments are words
	if [[ $side == B && -n $xdpsock ]]; then
		in_ns taskset -c "$cpu" "$xdpsock" -i "$iface" -q 0 \
			"--$mode" -d "$run_len" $extra >"$file" 2>"$file.err" ||
			fail "xdpsock failed: $(tail -3 "$file.err")"
	elif [[ $side == B ]]; then
		in_ns "$bench" --kernel-tx-budget --quiet \
			--json-lines -i "$iface" --mode "$mode" --app-cpu "$cpu" \
			-d "$run_len" $extra >"$file" 2>"$file.err" ||
			fail "xskx-bench (B) failed: $(tail -3 "$file.err")"
	else
		in_ns "$bench" --quiet --json-lines -i "$iface" \
			--mode "$mode" --app-cpu "$cpu" -d "$run_len" $extra \
			>"$file" 2>"$file.err" ||
			fail "xskx-bench (A) failed: $(tail -3 "$file.err")"
	fi
	cpu_times >>"$file.cpu"
	stop_peer
}

b_name=${xdpsock:+xdpsock}
b_name=${b_name:-"xskx, features off"}
echo "# veth A/B: A = xskx-bench, B = $b_name"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r);" \
	"$pairs pairs of $seconds s per mode; A args '$a_args', B args '$b_args';" \
	"far end: $($xdp_drop && echo XDP_DROP || echo xskx-bench);" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in $modes; do
	if $xdp_drop && [[ -n $(drop_end "$mode") ]]; then
		ip -n "$ns" link set dev "$(drop_end "$mode")" xdpdrv \
			obj "$out/drop.o" sec xdp
	fi
	for ((p = 1; p <= pairs; p++)); do
		if ((p % 2)); then order="A B"; else order="B A"; fi
		for side in $order; do
			run_side "$side" "$mode" "$out/$mode-$side-$p"
		done
	done
	if $xdp_drop && [[ -n $(drop_end "$mode") ]]; then
		ip -n "$ns" link set dev "$(drop_end "$mode")" xdpdrv off
	fi
	python3 - "$out" "$mode" "$pairs" "$(dirname "$0")" <<'EOF'
import json, re, statistics, sys
out, mode, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
import cpu_time  # the CPUs' shares, shared with real-traffic-ab.py
# What each mode counts: received, sent, forwarded.
xskx_field = {"rxdrop": "rx_packets", "txonly": "tx_packets",
              "l2fwd": "tx_packets"}[mode]
xdpsock_row = {"rxdrop": "rx", "txonly": "tx", "l2fwd": "tx"}[mode]

def xskx_points(text):
    """(elapsed seconds, running total) at every whole-second line."""
    pts = []
    for line in text.splitlines():
        rec = json.loads(line)
        if rec.get("record") == "interval" and rec["interval_s"] > 0.9:
            pts.append((rec["elapsed_s"], rec[xskx_field]))
    return pts

def xdpsock_points(text):
    """xdpsock prints, per period, a header with the period's length and
    a row per direction: 'rx  PPS  TOTAL'."""
    pts, t, period = [], 0.0, None
    for line in text.splitlines():
        m = re.match(r"\s+pps\s+pkts\s+([0-9.]+)", line)
        if m:
            period = float(m.group(1))
            continue
        m = re.match(rf"{xdpsock_row}\s+\d+\s+(\d+)", line)
        if m and period is not None and period > 0.9:
            t += period
            pts.append((t, int(m.group(1))))
            period = None
    return pts

def rate(path):
    text = open(path).read()
    pts = xskx_points(text) if text.startswith("{") else xdpsock_points(text)
    if len(pts) < 2:
        sys.exit(f"veth-ab: {path}: fewer than two whole seconds measured")
    (t0, c0), (t1, c1) = pts[0], pts[-1]
    return (c1 - c0) / (t1 - t0) / 1e6

a = [rate(f"{out}/{mode}-A-{p}") for p in range(1, pairs + 1)]
b = [rate(f"{out}/{mode}-B-{p}") for p in range(1, pairs + 1)]
r = [x / y if y else float("nan") for x, y in zip(a, b)]
print(f"\n## {mode}\n")
print("| pair | A Mpps | B Mpps | A/B |")
print("|---|---|---|---|")
for p in range(pairs):
    print(f"| {p + 1} | {a[p]:.3f} | {b[p]:.3f} | {r[p]:.2f} |")
med = statistics.median
print(f"| median | {med(a):.3f} ({min(a):.3f}-{max(a):.3f}) "
      f"| {med(b):.3f} ({min(b):.3f}-{max(b):.3f}) "
      f"| {med(r):.2f} ({min(r):.2f}-{max(r):.2f}) |")
print(f"\nA ahead in {sum(x > 1 for x in r)} of {pairs} pairs")

def cpu_shares(path):
    return cpu_time.shares(open(path).readlines())

# The program under test runs on CPU 1 (rxdrop, l2fwd) or 0 (txonly); the
# fixed end on the other.
prog_cpu = "cpu0" if mode == "txonly" else "cpu1"
other_cpu = "cpu1" if prog_cpu == "cpu0" else "cpu0"
print(f"\nWhere the CPUs' time went (median of the runs): the program's "
      f"{prog_cpu}, the fixed end's {other_cpu}\n")
print("| side | program CPU user / system / irq+softirq / idle "
      "| fixed end's CPU user / system / irq+softirq / idle |")
print("|---|---|---|")
for side in ("A", "B"):
    runs = [cpu_shares(f"{out}/{mode}-{side}-{p}.cpu")
            for p in range(1, pairs + 1)]
    print(f"| {side} | {cpu_time.cell(runs, prog_cpu, med)} "
          f"| {cpu_time.cell(runs, other_cpu, med)} |")
EOF
	echo
	echo "load average after $mode: $(cut -d' ' -f1-3 /proc/loadavg)"
done
