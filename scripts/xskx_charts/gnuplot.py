# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""SVG charts drawn by gnuplot (Debian's gnuplot-nox): the data travel
inside the script as datablocks, so nothing but the SVG is written.

Every text is set without gnuplot's "enhanced" markup, so that a port
named sim_0 keeps its underscore. In the SVG each series is a group
<g id="gnuplot_plot_N"> whose first <text> is its name in the key and
whose <path> draws its points (what tests/examples/check_charts.py
reads).
"""
import math
import shutil
import subprocess


class ChartError(Exception):
    """gnuplot is missing or refused the script."""


def _quote(text):
    """A gnuplot string in double quotes, where backslash escapes work:
    a line break in a title stays one."""
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


def _number(value):
    return "NaN" if value is None or not math.isfinite(value) else repr(float(value))


def _header(path, title, width, height):
    return [
        "set terminal svg size %d,%d dynamic noenhanced font 'sans,12' "
        "background rgb 'white'" % (width, height),
        "set output " + _quote(path),
        "set title " + _quote(title),
        "set grid ytics",
        "set key outside right top vertical",
        "set datafile missing 'NaN'",
    ]


def _plot(script, plots):
    """Run script, then draw plots, one plot command's clauses."""
    script = script + ["plot " + ", \\\n\t".join(plots)]
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise ChartError("gnuplot not found: install Debian's gnuplot-nox "
                         "(scripts/install-deps.sh does)")
    proc = subprocess.run([gnuplot], input="\n".join(script) + "\n",
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise ChartError("gnuplot failed (%d): %s" %
                         (proc.returncode, proc.stderr.strip()))


def lines(path, title, xlabel, ylabel, series):
    """A line chart: series is a list of (name, [(x, y), ...])."""
    script = _header(path, title, 960, 480)
    script += [
        "set xlabel " + _quote(xlabel),
        "set ylabel " + _quote(ylabel),
        # 1.5M, 250.0k: SI prefixes, as the figures span decades.
        "set format y '%.1s%c'",
        "set xrange [0:*]",
        # Room right of the last point, which would sit on the border.
        "set offsets 0, graph 0.03, 0, 0",
    ]
    if any(y for _, points in series for _, y in points):
        script.append("set yrange [0:*]")
    else:
        # Nothing but zeros: an axis of 0 and 1 rather than one of 0 m.
        script += ["set yrange [0:1]", "set ytics 1"]
    plots = []
    for i, (name, points) in enumerate(series):
        block = "$series%d" % i
        script.append(block + " << EOD")
        script += ["%s %s" % (_number(x), _number(y)) for x, y in points]
        script.append("EOD")
        plots.append("%s using 1:2 with linespoints title %s" %
                     (block, _quote(name)))
    _plot(script, plots)


def bars(path, title, xlabel, ylabel, groups, series, values):
    """A clustered bar chart: a cluster per group, a bar per series in
    each; values[g][s] is the bar's height (None: no bar)."""
    script = _header(path, title, 960, 480)
    script += [
        "set xlabel " + _quote(xlabel),
        "set ylabel " + _quote(ylabel),
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border -1",
        "set boxwidth 0.9",
        "set yrange [0:*]",
        "set xtics nomirror",
        "$bars << EOD",
    ]
    # A row per group: its label (quoted, gnuplot's own quoting rules for
    # data: no double quote inside) and one column per series.
    for g, group in enumerate(groups):
        label = '"%s"' % str(group).replace('"', "'")
        script.append(" ".join([label] + [_number(v) for v in values[g]]))
    script.append("EOD")
    _plot(script, ["$bars using %d%s title %s" %
                   (s + 2, ":xtic(1)" if s == 0 else "", _quote(name))
                   for s, name in enumerate(series)])
