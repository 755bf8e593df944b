#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The capture writer at full rate on veth (docs/CAPTURES.md): xskx-bench
# txonly sends as fast as it can into veth a0 for SECONDS; xskx-l2fwd
# forwards a1 to b1 with --pcap-out and a queue of QUEUE frames, and its
# JSON summary says how many forwarded frames the writer wrote and how
# many found the queue full. In a network namespace of its own, removed
# at the end. Root only.
#
# Usage: scripts/pcap-writer-veth.sh BUILD_DIR [SECONDS [QUEUE]]
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [SECONDS [QUEUE]]" >&2; exit 2; }
build=$1
seconds=${2:-3}
queue=${3:-1024}
ns=xskx-pcapw-veth-$$
out=$(mktemp -d)
l2fwd_pid=
cleanup() {
	[ -z "$l2fwd_pid" ] || kill "$l2fwd_pid" 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT

ip netns add "$ns"
ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
for pair in a b; do
	ip -n "$ns" link add "${pair}0" type veth peer name "${pair}1"
	ip -n "$ns" link set "${pair}0" up
	ip -n "$ns" link set "${pair}1" up
done
ip netns exec "$ns" "$build/examples/xskx-l2fwd/xskx-l2fwd" -i a1 -o b1 \
	--pcap-out "$out/fwd.pcap" --pcap-queue "$queue" \
	-d $((seconds + 3)) --json --quiet >"$out/l2fwd.json" &
l2fwd_pid=$!
sleep 1
ip netns exec "$ns" "$build/examples/xskx-bench" -i a0 -t -d "$seconds" -Q \
	>/dev/null
wait "$l2fwd_pid"
l2fwd_pid=
python3 - "$out/l2fwd.json" "$out/fwd.pcap" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
tx = sum(p["tx"] for p in s["ports"])
c = s["captures"]
print("forwarded %d; --pcap-queue %d: written %d, queue_full %d, "
      "unwritten %d; the file %d bytes" %
      (tx, c["queue"], c["forwarded"]["written"],
       c["forwarded"]["queue_full"], c["forwarded"]["unwritten"],
       os.path.getsize(sys.argv[2])))
PY
