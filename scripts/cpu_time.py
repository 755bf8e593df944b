# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Where each CPU's time went during a run, from the counters of /proc/stat
(user nice system idle iowait irq softirq steal ...) read before and after
it: the shares of user, system, irq+softirq and idle time. Used by
scripts/veth-ab.sh and scripts/real-traffic-ab.py."""

KINDS = ("user", "system", "irq", "idle")


def snapshot():
    """The per-CPU lines of /proc/stat ("cpu0 ...", "cpu1 ...")."""
    with open("/proc/stat") as f:
        return [l for l in f if l.startswith("cpu") and l[3].isdigit()]


def shares(lines):
    """{cpu: {kind: share}} from lines holding each CPU's row twice,
    before and after the run (as veth-ab.sh writes them)."""
    rows = {}
    for line in lines:
        name, *vals = line.split()
        rows.setdefault(name, []).append([int(v) for v in vals])
    out = {}
    for name, (before, after) in rows.items():
        d = [y - x for x, y in zip(before, after)]
        total = sum(d[:8]) or 1
        out[name] = {"user": (d[0] + d[1]) / total,
                     "system": d[2] / total,
                     "irq": (d[5] + d[6]) / total,
                     "idle": (d[3] + d[4]) / total}
    return out


def cell(runs, cpu, summarise):
    """"u% / s% / i% / idle%" of cpu over runs (a list of shares()), each
    kind summarised (e.g. statistics.median) across the runs."""
    return " / ".join("%.0f%%" % (summarise([r[cpu][k] for r in runs]) * 100)
                      for k in KINDS)
