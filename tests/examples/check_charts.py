#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""scripts/charts.py on what the programs and the experiments measured:
the SVGs exist, hold the series the input has, and draw its figures.

  check_charts.py lines|lines-dropping CHARTS_PY PROGRAM ARGS...
      PROGRAM ARGS --json-lines --quiet --duration 2.5 on the simulated
      NIC, then charts.py on its output. NAME-pps.svg has a series per
      port (and queue) and direction that moved, and none for one that
      did not; NAME-drops.svg a series per cause that dropped packets
      (lines-dropping: the run must drop some, ARGS choose a setting that
      does), or, when nothing was dropped, every cause at zero. Each
      series has a point per interval, where the rates computed here
      from the running totals put it.
  check_charts.py experiments CHARTS_PY PERF_SCRIPT BUILD_DIR
      perf-experiments.sh's experiment 2, one short repetition, then
      charts.py on its results file. The results' rows are the markdown
      table's, and the chart has a cluster per packet size, a bar per
      frame size, each as high as its figure.

Reading the SVG: gnuplot draws series N as <g id="gnuplot_plot_N">: its
name in the key (the first <text>, in a <g> placed at the key), the
key's sample (a point or a box, right of the name) and the data (a
point or a box each).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
SECONDS = 2.5


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False,
                          timeout=120, **kwargs)
    if proc.returncode != 0:
        fail("%s exited %d: %s" % (cmd, proc.returncode, proc.stderr))
    return proc.stdout


def plots(path):
    """{series name: marks} of an SVG of charts.py: a point's (x, y), or
    a box's (left, top, bottom), in the order drawn, the key's sample
    left out (it stands right of the key's text, outside the plot)."""
    if not os.path.exists(path):
        fail("no %s" % path)
    series = {}
    for g in ET.parse(path).iter(SVG + "g"):
        if not g.get("id", "").startswith("gnuplot_plot_"):
            continue
        key = next(k for k in g.iter(SVG + "g")
                   if k.find(SVG + "text") is not None)
        key_x = float(re.search(r"translate\(([-\d.]+),",
                                key.get("transform")).group(1))
        marks = []
        for use in g.iter(SVG + "use"):
            x, y = re.search(r"translate\(([-\d.]+),([-\d.]+)\)",
                             use.get("transform")).groups()
            marks.append((float(x), float(y)))
        for box in g.iter(SVG + "polygon"):
            corners = [tuple(map(float, p.split(",")))
                       for p in box.get("points").split()]
            marks.append((min(x for x, _ in corners),
                          min(y for _, y in corners),
                          max(y for _, y in corners)))
        series[key.find(SVG + "text").text] = [m for m in marks if m[0] < key_x]
    return series


def check_linear(what, pairs):
    """pairs of (figure, pixel): pixel = a + b * figure for every pair,
    within a pixel and a half."""
    lo = min(pairs)
    hi = max(pairs)
    if hi[0] == lo[0]:
        return
    slope = (hi[1] - lo[1]) / (hi[0] - lo[0])
    for figure, pixel in pairs:
        if abs(lo[1] + slope * (figure - lo[0]) - pixel) > 1.5:
            fail("%s: %g drawn at %.2f, off the line through %r and %r" %
                 (what, figure, pixel, lo, hi))


def expected_rates(objs, totals):
    """{series: [(elapsed_s, rate)]} from each interval's running totals
    (totals(obj) gives {series: total})."""
    rates, last = {}, {}
    for obj in objs:
        for name, total in totals(obj).items():
            rate = (total - last.get(name, 0)) / obj["interval_s"]
            last[name] = total
            rates.setdefault(name, []).append((obj["elapsed_s"], rate))
    return rates


def packet_totals(obj):
    if "ports" not in obj:
        return {"%s queue %s %s" % (obj["backend"], obj["queue"], d):
                obj[d + "_packets"] for d in ("rx", "tx")}
    out = {}
    for port in obj["ports"]:
        name = port["port"]
        if "queue" in port:
            name += " queue %s" % port["queue"]
        out[name + " rx"] = port["rx"]
        out[name + " tx"] = port["tx"]
    return out


def drop_totals(obj):
    loss = obj["total"]["loss"] if "total" in obj else obj["loss"]
    out = {cause: n for cause, n in loss.items()
           if cause not in ("total", "no_socket")}
    if "filtered" in obj.get("total", {}):
        out["filtered by the rules"] = obj["total"]["filtered"]
    return out


def check_chart(path, rates):
    """The chart draws exactly the series of rates that moved (all of
    them if none did), each point where its elapsed time and rate put
    it."""
    moving = {n: p for n, p in rates.items() if any(r for _, r in p)}
    moving = moving or rates
    drawn = plots(path)
    if set(drawn) != set(moving):
        fail("%s: series %s, expected %s" %
             (path, sorted(drawn), sorted(moving)))
    xs, ys = [], []
    for name, points in moving.items():
        marks = drawn[name]
        if len(marks) != len(points):
            fail("%s: %s has %d points, the run %d intervals" %
                 (path, name, len(marks), len(points)))
        xs += [(t, m[0]) for (t, _), m in zip(points, marks)]
        ys += [(r, m[1]) for (_, r), m in zip(points, marks)]
    check_linear(path + " (elapsed time)", xs)
    check_linear(path + " (rate)", ys)
    print("ok: %s: %d series, %d points each" %
          (path, len(moving), len(next(iter(moving.values())))))


def moved(rates):
    return any(r for points in rates.values() for _, r in points)


def check_lines(must_drop, charts, program, args):
    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "run.jsonl")
        with open(stream, "w", encoding="utf-8") as f:
            f.write(run([program] + args + ["--json-lines", "--quiet",
                                            "--duration", str(SECONDS)]))
        out = run([sys.executable, charts, "-o", tmp, stream]).split()
        want = [os.path.join(tmp, "run-pps.svg"),
                os.path.join(tmp, "run-drops.svg")]
        if out != want:
            fail("charts.py printed %r, expected %r" % (out, want))
        with open(stream, encoding="utf-8") as f:
            objs = [o for o in map(json.loads, f)
                    if o["record"] == "interval"]
        if len(objs) < 2:
            fail("%d intervals in %g s, expected 3" % (len(objs), SECONDS))
        packets = expected_rates(objs, packet_totals)
        drops = expected_rates(objs, drop_totals)
        if not moved(packets) or (must_drop and not moved(drops)):
            fail("the run moved no packets or dropped none: the test "
                 "would check nothing")
        check_chart(want[0], packets)
        check_chart(want[1], drops)


def markdown_rows(text, heading):
    """The rows of the table under the heading that starts with
    `heading`, as lists of cells."""
    section = text.split("\n## " + heading, 1)[1].split("\n## ", 1)[0]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in section.splitlines()
            if line.startswith("|") and not line.startswith("|---")][1:]


def check_experiments(charts, script, build):
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "perf.jsonl")
        env = dict(os.environ, XSKX_PERF_ONLY="2", XSKX_PERF_REPS="1",
                   XSKX_PERF_DURATION="0.2", XSKX_PERF_RESULTS=results)
        tables = run([script, build], env=env)
        with open(results, encoding="utf-8") as f:
            rows = [o["cells"] for o in map(json.loads, f)
                    if o["record"] == "row"]
        if rows != markdown_rows(tables, "2. "):
            fail("results rows %r differ from the table:\n%s" %
                 (rows, tables))
        out = run([sys.executable, charts, "-o", tmp, results]).split()
        svg = os.path.join(tmp, "perf-2-mpps.svg")
        if out != [svg]:
            fail("charts.py printed %r, expected [%r]" % (out, svg))
        drawn = plots(svg)
        frames = sorted({r[1] for r in rows})
        if sorted(drawn) != ["frame " + f for f in frames]:
            fail("%s: series %s, expected one per frame size %s" %
                 (svg, sorted(drawn), frames))
        labels = {t.text for t in ET.parse(svg).iter(SVG + "text")}
        for size in {r[0] for r in rows}:
            if size not in labels:
                fail("%s: no cluster labelled %r" % (svg, size))
        heights = []
        for frame in frames:
            bars = drawn["frame " + frame]
            figures = [float(r[2]) for r in rows if r[1] == frame]
            if len(bars) != len(figures):
                fail("%s: %d bars for frame %s, %d rows" %
                     (svg, len(bars), frame, len(figures)))
            heights += [(v, b[2] - b[1]) for v, b in zip(figures, bars)]
        # Bars stand on the axis at 0: a height is the figure, scaled.
        check_linear(svg + " (bar heights)", heights + [(0.0, 0.0)])
        print("ok: %s: %d bars, heights as the table's figures" %
              (svg, len(heights)))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] in ("lines", "lines-dropping"):
        check_lines(sys.argv[1] == "lines-dropping", sys.argv[2],
                    sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 5 and sys.argv[1] == "experiments":
        check_experiments(*sys.argv[2:])
    else:
        fail("usage: see the top of " + sys.argv[0])


if __name__ == "__main__":
    main()
