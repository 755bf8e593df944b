#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Real clients through a Linux bridge and through xskx's programs,
interleaved: single-stream TCP goodput and ping latency, as ratios against
the bridge with their spread.

    scripts/real-traffic-ab.py [-n ROUNDS] [-t SECONDS] [-c PINGS]
                               [-o default|tx-off] [-l idle|10kpps|full]
                               [-f "bridge l2fwd fw"] [-a "ARGS"]
                               [-w "WRAPPER"] [BUILD_DIR]

  -n ROUNDS   rounds (default 5); each runs every forwarder once, in an
              order that rotates from round to round, so that the drift of
              a shared machine falls on all of them
  -t SECONDS  iperf3's single TCP stream A->B (default 5)
  -c PINGS    pings at 100 per second (default 500)
  -o OFFLOAD  the end hosts' offloads (default tx-off: TX checksumming
              off, so that the bridge and the programs carry the same
              segments; with default offloads the programs complete the
              partial checksums, docs/REAL_TRAFFIC.md)
  -l LOAD     what else crosses the bump while the pings do: nothing
              (idle, the default), 10,000 UDP datagrams of 64 bytes a
              second (10kpps), or an iperf3 TCP stream (full)
  -f LIST     the forwarders (default "bridge l2fwd fw"; the ratios need
              the bridge)
  -a ARGS     extra arguments for the programs
  -w WRAPPER  a command the programs run under (e.g. "chrt -f 1": their
              threads in SCHED_FIFO, ahead of every normal task)
  BUILD_DIR   where xskx-l2fwd and xskx-fw were built (default build-rel)

The topology is tests/realtraffic's (docs/REAL_TRAFFIC.md), made afresh for
each run. Each forwarder's goodput is iperf3's received rate; the pings'
p50, p99 and max come from ping's per-reply times. During iperf3 and during
the pings, each CPU's user / system / irq+softirq / idle shares
(scripts/cpu_time.py) and the program's own CPU time (user + system,
/proc/PID/stat) say where the time went. Printed: every round, then per forwarder the medians and the
ratios to the bridge (median, min-max of the per-round ratios).

Needs root, iperf3, ping, ethtool, iproute2. Every command is bounded by a
timeout; the namespaces go with the run.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "realtraffic"))
import cpu_time  # noqa: E402
import clients  # noqa: E402
from bump import ADDR4, Bump, Failure, program_in  # noqa: E402

RULES = os.path.join(HERE, "..", "tests", "realtraffic", "fw.rules")
LOADS = {
    "idle": None,
    # 10,000 pps: 64-byte payloads at 5.12 Mbit/s.
    "10kpps": ["-u", "-l", "64", "-b", "5120000"],
    "full": [],
}


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def program_pid(bump):
    """The program's PID: the child of the timeout that started it."""
    if not bump.program:
        return None
    pid = bump.program.pid
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        kids = f.read().split()
    return int(kids[0]) if kids else None


def cpu_seconds(pid):
    """utime + stime of pid (all its threads), in seconds."""
    if pid is None:
        return 0.0
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(pid, client):
    """client()'s result, with each CPU's shares and the program's CPU
    time (a share of one CPU) while it ran."""
    cpus, prog, t = cpu_time.snapshot(), cpu_seconds(pid), time.time()
    result = client()
    cpus += cpu_time.snapshot()
    return {"result": result, "cpu": cpu_time.shares(cpus),
            "prog_cpu": (cpu_seconds(pid) - prog) / (time.time() - t)}


def one_run(o, forwarder):
    """Goodput, then pings under the load: one forwarder, one round."""
    program = program_in(o.build, forwarder) if forwarder != "bridge" else None
    with Bump(forwarder, 1500, o.offload, program, RULES,
              extra_args=o.args.split(), wrapper=o.wrapper.split(),
              log=lambda _: None) as bump:
        clients.start_servers(bump, o.seconds * 4 + o.pings // 100 + 120)
        clients.ping(bump, ADDR4["b"], 3, 0.2)  # neighbours resolved
        pid = program_pid(bump)
        tcp = measure(pid, lambda: clients.iperf3(bump, o.seconds))
        load = None
        if LOADS[o.load] is not None:
            seconds = o.pings // 100 + 4
            load = bump.start_in("a", "iperf3 load",
                                 ["iperf3", "-c", ADDR4["b"], "-p",
                                  str(clients.IPERF_PORT + 1), "-t",
                                  str(seconds)] + LOADS[o.load],
                                 seconds + 30)
            time.sleep(1)  # the load runs before the pings start
        pings = measure(pid, lambda: clients.ping(
            bump, ADDR4["b"], o.pings, 0.01, deadline=o.pings // 100 + 30))
        if load:
            bump.stop(load, grace=o.pings // 100 + 30)
        summary = bump.stop_program()
    r = pings["result"]
    if not r["rtt_ms"]:
        raise Failure("%s: no ping answered" % forwarder)
    return {"goodput": clients.tcp_goodput(tcp["result"]) / 1e9,
            "p50": percentile(r["rtt_ms"], 0.5),
            "p99": percentile(r["rtt_ms"], 0.99),
            "max": max(r["rtt_ms"]),
            "lost": r["sent"] - r["received"],
            "counted": summary["total"]["lost"] if summary else 0,
            "tcp": tcp, "pings": pings}


def cpu_cells(m):
    return "%.0f%%; %s; %s" % (
        m["prog_cpu"] * 100,
        cpu_time.cell([m["cpu"]], "cpu0", statistics.median),
        cpu_time.cell([m["cpu"]], "cpu1", statistics.median))


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("-n", dest="rounds", type=int, default=5)
    ap.add_argument("-t", dest="seconds", type=int, default=5)
    ap.add_argument("-c", dest="pings", type=int, default=500)
    ap.add_argument("-o", dest="offload", default="tx-off")
    ap.add_argument("-l", dest="load", default="idle", choices=LOADS)
    ap.add_argument("-f", dest="forwarders", default="bridge l2fwd fw")
    ap.add_argument("-a", dest="args", default="")
    ap.add_argument("-w", dest="wrapper", default="")
    ap.add_argument("build", nargs="?", default="build-rel")
    o = ap.parse_args()
    fwds = o.forwarders.split()
    if os.geteuid() != 0:
        sys.exit("real-traffic-ab: needs root (namespaces, XDP, AF_XDP)")
    for f in fwds:
        if f != "bridge" and not os.access(program_in(o.build, f), os.X_OK):
            sys.exit("real-traffic-ab: no %s: build it first (cmake --build "
                     "%s)" % (program_in(o.build, f), o.build))

    print("# real traffic A/B: %s; %s" % (", ".join(fwds),
          time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    print("%d CPUs, %s; %d rounds; iperf3 -t %d; %d pings at 100 pps, load "
          "%s; end hosts' offloads %s; program args '%s', under '%s'; load "
          "average %s" %
          (os.cpu_count(), os.uname().release, o.rounds, o.seconds, o.pings,
           o.load, o.offload, o.args, o.wrapper,
           " ".join(open("/proc/loadavg").read().split()[:3])))
    runs = {f: [] for f in fwds}
    print("\nCPU columns: the program's CPU time, then each CPU's user / "
          "system / irq+softirq / idle, during iperf3 (TCP) and during the "
          "pings")
    print("\n| round | forwarder | Gbit/s | ping p50 / p99 / max ms | pings "
          "lost | program's lost, whole run | TCP: program, cpu0, cpu1 "
          "| pings: program, cpu0, cpu1 |")
    print("|---|---|---|---|---|---|---|---|")
    for rnd in range(o.rounds):
        order = fwds[rnd % len(fwds):] + fwds[:rnd % len(fwds)]
        for f in order:
            try:
                r = one_run(o, f)
            except Failure as e:
                sys.exit("real-traffic-ab: %s: %s" % (f, e))
            runs[f].append(r)
            print("| %d | %s | %.2f | %.3f / %.3f / %.3f | %d | %d | %s | %s |"
                  % (rnd + 1, f, r["goodput"], r["p50"], r["p99"], r["max"],
                     r["lost"], r["counted"], cpu_cells(r["tcp"]),
                     cpu_cells(r["pings"])), flush=True)
    med = statistics.median
    print("\n| forwarder | Gbit/s | p50 ms | p99 ms | max ms (worst) | "
          "goodput / bridge | p99 - bridge's, us |")
    print("|---|---|---|---|---|---|---|")
    for f in fwds:
        rs = runs[f]
        row = "| %s | %.2f | %.3f | %.3f | %.3f (%.3f) |" % (
            f, med([r["goodput"] for r in rs]), med([r["p50"] for r in rs]),
            med([r["p99"] for r in rs]), med([r["max"] for r in rs]),
            max(r["max"] for r in rs))
        if "bridge" in runs and f != "bridge":
            ratio = [r["goodput"] / b["goodput"]
                     for r, b in zip(rs, runs["bridge"])]
            extra = [(r["p99"] - b["p99"]) * 1000
                     for r, b in zip(rs, runs["bridge"])]
            row += " %.2f (%.2f-%.2f) | %.0f (%.0f-%.0f) |" % (
                med(ratio), min(ratio), max(ratio), med(extra), min(extra),
                max(extra))
        else:
            row += " | |"
        print(row)
    print("\nload average after: %s" %
          " ".join(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
