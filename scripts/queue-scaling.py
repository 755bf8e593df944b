#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""xskx-bench --queues on the simulated NIC: 1 queue against 2, interleaved
(1 2 1 2 ...) so that the machine's load falls on both alike, with the CPU
time of every thread of each run: the simulated NIC's (xskx-sim-nic), each
queue's (bench-qK) and the watching main thread's, read from
/proc/PID/task/*/stat over the run's middle (after WARMUP_S, until
TAIL_S before its end), as a share of one CPU.

Both counts run the same code: --queues 1 puts its queue on a thread of
its own too (bench-q0), the main thread only watching. The NIC thread is
pinned to --nic-cpu (0 unless given), the queues' threads are not pinned
(--app-cpu -1): with 2 CPUs, two queues and the NIC share them, which is
what the figures show. A thread's share counts what it ran, spinning
included: an idle queue thread naps (examples/common/run.c), the NIC
thread spins a while before it sleeps.

Usage: scripts/queue-scaling.py XSKX_BENCH [extra xskx-bench options]
  XSKX_SCALE_MODE    (rxdrop)     --mode
  XSKX_SCALE_PAIRS   (5)          1-queue/2-queue pairs
  XSKX_SCALE_SECONDS (5)          --duration of each run
  XSKX_SCALE_FLOWS   (16)         --flows: RSS spreads them over the queues
Prints, per queue count, the median rate (and range) and the median CPU
share of each thread; then the median of the per-pair ratios 2q/1q.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

WARMUP_S = 1.0
TAIL_S = 0.5
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_by_thread(pid):
    """Each thread's name and CPU seconds (user + system) so far."""
    threads = {}
    base = "/proc/%d/task" % pid
    for tid in os.listdir(base):
        try:
            with open("%s/%s/comm" % (base, tid)) as f:
                name = f.read().strip()
            with open("%s/%s/stat" % (base, tid)) as f:
                # After the ")" closing comm: state is field 3, utime 14.
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended meanwhile
        threads[tid] = (name, (int(fields[11]) + int(fields[12])) / TICKS)
    return threads


def one_run(bench, queues, mode, seconds, flows, extra):
    argv = [bench, "--sim", "--mode", mode, "--queues", str(queues),
            "--flows", str(flows), "--app-cpu", "-1", "--duration",
            str(seconds), "--json", "--quiet"] + extra
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE,
                             text=True)
        time.sleep(WARMUP_S)
        t0, before = time.monotonic(), cpu_by_thread(p.pid)
        time.sleep(seconds - WARMUP_S - TAIL_S)
        t1, after = time.monotonic(), cpu_by_thread(p.pid)
        err = p.communicate(timeout=seconds + 60)[1]
        if p.returncode:
            sys.exit("%s: exit %d: %s" % (" ".join(argv), p.returncode, err))
        out.seek(0)
        summary = json.load(out)
    share = {}
    for tid, (name, cpu) in after.items():
        if tid in before:
            share[name] = (cpu - before[tid][1]) / (t1 - t0)
    return summary["pps"], share


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench, extra = sys.argv[1], sys.argv[2:]
    mode = os.environ.get("XSKX_SCALE_MODE", "rxdrop")
    pairs = int(os.environ.get("XSKX_SCALE_PAIRS", "5"))
    seconds = float(os.environ.get("XSKX_SCALE_SECONDS", "5"))
    flows = int(os.environ.get("XSKX_SCALE_FLOWS", "16"))
    if seconds <= WARMUP_S + TAIL_S:
        sys.exit("XSKX_SCALE_SECONDS must exceed %.1f" % (WARMUP_S + TAIL_S))
    rates = {1: [], 2: []}
    shares = {1: [], 2: []}
    for _ in range(pairs):
        for q in (1, 2):
            pps, share = one_run(bench, q, mode, seconds, flows, extra)
            rates[q].append(pps)
            shares[q].append(share)
    print("%s on --sim, %d pairs of %g s, --flows %d, %d CPUs online"
          % (mode, pairs, seconds, flows, os.cpu_count()))
    for q in (1, 2):
        names = sorted({n for s in shares[q] for n in s})
        cpu = ", ".join("%s %.0f%%" % (n, 100 * statistics.median(
            [s.get(n, 0.0) for s in shares[q]])) for n in names)
        print("%d queue%s: %.3f Mpps (%.3f to %.3f); CPU: %s"
              % (q, "" if q == 1 else "s", statistics.median(rates[q]) / 1e6,
                 min(rates[q]) / 1e6, max(rates[q]) / 1e6, cpu))
    ratios = sorted(b / a for a, b in zip(rates[1], rates[2]))
    print("2 queues / 1 queue: %.3f (pairs %.3f to %.3f)"
          % (statistics.median(ratios), ratios[0], ratios[-1]))


if __name__ == "__main__":
    main()
