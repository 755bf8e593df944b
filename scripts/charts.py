#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""SVG charts of what xskx's programs and experiments measured.

  scripts/charts.py [-o DIR] FILE...

FILE is either
  - the --json-lines output of xskx-bench, xskx-l2fwd or xskx-fw:
    NAME-pps.svg, packets per second over time per port or queue (rx and
    tx), and NAME-drops.svg, packets dropped per second by cause (the
    stages of the "loss" object; for xskx-fw also what its rules
    filtered);
  - the results file of scripts/perf-experiments.sh
    (perf-experiments.jsonl): NAME-TABLE-COLUMN.svg, a bar chart of each
    charted column of each table.
NAME is FILE's name without its extension; DIR defaults to the current
directory. Series that stay at zero throughout are left out of a chart,
unless all do. Needs python3 and gnuplot (Debian's gnuplot-nox;
scripts/install-deps.sh installs both). Prints the path of every chart it
wrote; exits 1 when an input is not one of the above, 2 on a bad command
line.
"""
import argparse
import os
import re
import sys

# The modules beside this script, without leaving __pycache__ in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# pylint: disable=wrong-import-position # after the path is set
from xskx_charts import experiments, gnuplot, intervals  # noqa: E402
from xskx_charts.jsonl import InputError, first_program  # noqa: E402


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def chart_intervals(path, out, name):
    program, packets, drops = intervals.read(path)
    written = [os.path.join(out, name + "-pps.svg"),
               os.path.join(out, name + "-drops.svg")]
    gnuplot.lines(written[0], "%s: packets per second" % program,
                  "elapsed time at the end of each interval (s)",
                  "packets per second", packets.moving())
    gnuplot.lines(written[1], "%s: packets dropped per second, by cause" %
                  program, "elapsed time at the end of each interval (s)",
                  "packets dropped per second", drops.moving())
    return written


def chart_experiments(path, out, name):
    run, tables = experiments.read(path)
    when = "%s, %s CPUs, %s × %s s per variant, medians" % (
        run["date"], run["cpus"], run["reps"], run["duration_s"])
    written = []
    for table in tables:
        for column in table.charted:
            svg = os.path.join(out, "%s-%s-%s.svg" %
                               (name, slug(table.id), slug(column)))
            groups, series, values = table.bars(column)
            gnuplot.bars(svg, "%s\n%s (%s)" % (table.title, column, when),
                         table.xlabel(), column, groups, series, values)
            written.append(svg)
    return written


def main():
    parser = argparse.ArgumentParser(
        description="SVG charts of xskx's JSON Lines and of "
        "scripts/perf-experiments.sh's results.")
    parser.add_argument("-o", "--out", default=".",
                        help="directory for the charts (default: .)")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    status = 0
    for path in args.files:
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            program = first_program(path)
            if program == experiments.PROGRAM:
                written = chart_experiments(path, args.out, name)
            elif program in ("xskx-bench", "xskx-l2fwd", "xskx-fw"):
                written = chart_intervals(path, args.out, name)
            else:
                raise InputError("%s: its first object is from %r" %
                                 (path, program))
        except InputError as e:
            print("charts: %s: give the --json-lines output of xskx-bench, "
                  "xskx-l2fwd or xskx-fw, or the results file of "
                  "scripts/perf-experiments.sh" % e, file=sys.stderr)
            status = 1
            continue
        except (OSError, gnuplot.ChartError) as e:
            print("charts: %s" % e, file=sys.stderr)
            status = 1
            continue
        for svg in written:
            print(svg)
    return status


if __name__ == "__main__":
    sys.exit(main())
