#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""xskx-bench on virtio_net, inside the guest of scripts/virtio-zc.sh
(guest-suite.sh runs it after the scenarios): one line per case in
RESULTS, "NAME PASS" or "NAME FAIL why", which CTest's
virtio_programs.NAME read (result.sh).

    guest-programs.py XSKX_BENCH RESULTS

ZERO_COPY_DETECTED  without -z or -c the library binds in zero-copy
COPY_FORCED         -c binds in copy mode on a driver that has zero-copy
RXDROP_TXONLY_ZC    txonly -z sends exactly N packets, all completed;
                    rxdrop -z on the other NIC receives exactly those N
"""
import json
import select
import signal
import subprocess
import sys
import time

PACKETS = 2000
A, B = "virtio-a", "virtio-b"


def summary(out):
    """The program's summary: its JSON object."""
    return json.loads(out)


def run(bench, *args, timeout=120):
    p = subprocess.run([bench, "--json", *args], capture_output=True,
                       text=True, timeout=timeout, check=False)
    if p.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (" ".join(args),
                                                   p.returncode,
                                                   p.stderr.strip()[-300:]))
    return summary(p.stdout)


def zero_copy_detected(bench):
    s = run(bench, "-i", B, "-r", "-d", "1")
    if s["zero_copy"] is not True:
        raise AssertionError("zero_copy %r without -z or -c" % s["zero_copy"])


def copy_forced(bench):
    s = run(bench, "-i", B, "-r", "-c", "-d", "1")
    if s["zero_copy"] is not False:
        raise AssertionError("zero_copy %r with -c" % s["zero_copy"])


def records(proc, limit_s):
    """The JSON records proc prints (--json-lines), each as it comes, for
    at most limit_s seconds."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [],
                                    max(0.0, end - time.monotonic()))
        if not ready:
            return
        line = proc.stdout.readline()
        if not line:
            return
        if line.startswith("{"):
            yield json.loads(line)


def rxdrop_txonly_zc(bench):
    rx = subprocess.Popen([bench, "--json-lines", "-i", B, "-r", "-z",
                           "-d", "300"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    tx = None
    try:
        # The receiver's socket must be bound before the first packet:
        # its XDP program drops nothing, a packet before it goes to the
        # stack and is not counted. Its first interval record says it
        # runs; startup under TCG beside other work took from 2 to over
        # 10 seconds.
        if any(r["record"] == "interval" for r in records(rx, 180)):
            tx = run(bench, "-i", A, "-t", "-z", "-C", str(PACKETS))
            # Until the receiver has counted them all, or 30 s.
            for r in records(rx, 30):
                if r["record"] == "interval" and r["rx_packets"] >= PACKETS:
                    break
    finally:
        rx.send_signal(signal.SIGINT)
        out, err = rx.communicate(timeout=60)
    if rx.returncode != 0 or tx is None:
        raise AssertionError("rxdrop exited %d%s: %s" % (
            rx.returncode, "" if tx else " without an interval in 180 s",
            err.strip()[-300:]))
    r = [json.loads(line) for line in out.splitlines()
         if line.startswith("{")][-1]
    got = {"tx zero_copy": tx["zero_copy"], "tx_packets": tx["tx_packets"],
           "tx_completed": tx["tx_completed"], "rx zero_copy": r["zero_copy"],
           "rx_packets": r["rx_packets"]}
    want = {"tx zero_copy": True, "tx_packets": PACKETS,
            "tx_completed": PACKETS, "rx zero_copy": True,
            "rx_packets": PACKETS}
    if got != want:
        raise AssertionError("expected %s, got %s" % (want, got))


CASES = {
    "ZERO_COPY_DETECTED": zero_copy_detected,
    "COPY_FORCED": copy_forced,
    "RXDROP_TXONLY_ZC": rxdrop_txonly_zc,
}


def main():
    bench, results = sys.argv[1], sys.argv[2]
    with open(results, "w", encoding="utf-8") as f:
        for name, case in CASES.items():
            try:
                case(bench)
                line = "%s PASS" % name
            except (AssertionError, subprocess.TimeoutExpired, ValueError,
                    KeyError) as e:
                line = "%s FAIL %s" % (name, str(e).replace("\n", " "))
            print(line, flush=True)
            f.write(line + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
