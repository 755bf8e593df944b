#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The example programs' output: JSON that parses whatever the names in it,
JSON Lines, and the line per second.

  check_output.py writer TEST_JSON      the writer itself (tests/examples/test_json.c)
  check_output.py fw-name XSKX_FW       xskx-fw --sim --json with a rules file
                                      named with quotes, backslashes and
                                      control characters
  check_output.py summary PROGRAM ARGS  PROGRAM ARGS --json: one object, with
                                      the header every object carries and
                                      every UMEM frame accounted for
  check_output.py queues N PROGRAM ARGS
                                      PROGRAM ARGS --queues N --json: each
                                      of the N queues received, and the
                                      "per_queue" counters sum to the
                                      totals (xskx-fw: to "ports"')
  check_output.py lines SECONDS PROGRAM ARGS
                                      PROGRAM ARGS --json-lines --duration
                                      SECONDS: every line parses; an
                                      "interval" line per interval, the
                                      short last one included, then the
                                      "summary"; the totals never go down
  check_output.py text SECONDS PROGRAM ARGS
                                      PROGRAM ARGS --duration SECONDS: a
                                      line (or a group of lines, one per
                                      port) per interval, the short last
                                      one included, each with its elapsed
                                      time, its length and running totals

Each object must parse with python's json module (strict: no control
characters in strings) and start with "program", "xskx_version" and
"record".
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def parse(line, what):
    try:
        return json.loads(line)
    except ValueError as e:
        fail("%s: not JSON (%s): %r" % (what, e, line[:300]))


def check_header(obj, program, record):
    keys = list(obj)[:3]
    if keys != ["program", "xskx_version", "record"]:
        fail("header is %r, not program, xskx_version, record" % keys)
    if obj["program"] != program:
        fail("program %r, expected %r" % (obj["program"], program))
    if not obj["xskx_version"] or not obj["xskx_version"][0].isdigit():
        fail("xskx_version %r" % obj["xskx_version"])
    if obj["record"] != record:
        fail("record %r, expected %r" % (obj["record"], record))


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    if p.returncode != 0:
        fail("%r exited %d: %s" % (argv, p.returncode,
                                   p.stderr.decode(errors="replace")))
    # The output is bytes: it must be valid UTF-8 to be JSON at all.
    try:
        return p.stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("%r: output is not UTF-8: %s" % (argv, e))


def one_object(text, what):
    lines = text.splitlines()
    if len(lines) != 1:
        fail("%s: %d lines on stdout, expected one object" % (what, len(lines)))
    return parse(lines[0], what)


def writer(program):
    obj = one_object(run([program]), "test_json")
    check_header(obj, "test_json", "writer")
    every = "".join(chr(i) for i in range(1, 128)) + "\ufffd" * 128
    want = {
        "every_byte": every,
        "quotes": 'say "hi" \\ \\" "\\',
        "controls": "tab\tnl\ncr\resc\x1b del\x7f",
        "utf8": "caf\u00e9 \u20ac \U0001F600",
        "broken_utf8": "a\ufffd b\ufffd\ufffd c\ufffd\ufffd\ufffd d\ufffd\ufffd",
        "null_string": "",
    }
    for key, value in want.items():
        if obj.get(key) != value:
            fail("%s: %r, expected %r" % (key, obj.get(key), value))
    nested = obj.get('key "with" \\ and \x01')
    if nested != {"list": [18446744073709551615, -42, 0.5, None, True, {}, []]}:
        fail("nested: %r" % (nested,))
    print("writer: every string escaped; parses")


def fw_name(program):
    with tempfile.TemporaryDirectory() as d:
        name = os.path.join(d, 'we"ird \\ name\x01\x1f\t.rules')
        with open(name, "w") as f:
            f.write("allow proto udp\ndefault allow\n")
        obj = one_object(run([program, "--sim", "-r", name, "--json",
                              "--duration", "1", "--quiet"]), "xskx-fw")
    check_header(obj, "xskx-fw", "summary")
    if obj.get("rules_file") != name:
        fail("rules_file %r, expected %r" % (obj.get("rules_file"), name))
    print("xskx-fw: rules file %r comes back whole" % name)


def summary(argv):
    program = os.path.basename(argv[0])
    obj = one_object(run(argv + ["--json", "--quiet"]), program)
    check_header(obj, program, "summary")
    # The census, where each program puts it (census.h: the same test).
    path = ("frames", "accounted") if program == "xskx-bench" else \
        ("frames_accounted",)
    accounted = obj
    for key in path:
        accounted = accounted.get(key) if isinstance(accounted, dict) else None
    if accounted is not True:
        fail("%s: %s is %r, not true" % (program, ".".join(path), accounted))
    # Every packet of the simulated sources goes to a queue with a socket:
    # no queue may report packets without one (a port with fewer queues
    # than the programs read once listed stack garbage past its last).
    listed = no_socket_lists(obj)
    if not listed or any(lst != [] for lst in listed):
        fail("%s: no_socket %r: expected every list empty" % (program,
                                                               listed))
    # The simulated NIC has zero-copy: each forwarder's queue says so.
    if program != "xskx-bench":
        modes = [q.get("zero_copy") for q in
                 obj.get("per_queue") or obj.get("ports", [])]
        if not modes or any(m is not True for m in modes):
            fail("%s: zero_copy %r: expected true for every socket on the "
                 "simulated NIC" % (program, modes))
    print("%s: one summary object, version %s, every frame accounted for"
          % (program, obj["xskx_version"]))


def bench_queues(obj, n):
    """xskx-bench: per_queue's packets sum to the run's."""
    per_queue = obj.get("per_queue")
    if not isinstance(per_queue, list) or len(per_queue) != n:
        fail("xskx-bench: per_queue should have %d entries: %r" % (n, per_queue))
    for key in ("rx_packets", "tx_packets"):
        total = sum(dig(q, (key,), "xskx-bench") for q in per_queue)
        if total != dig(obj, (key,), "xskx-bench"):
            fail("xskx-bench: the queues' %s sum to %d, the run's is %d"
                 % (key, total, obj[key]))
    return {q["queue"]: q["rx_packets"] for q in per_queue}


def no_socket_lists(obj):
    """Every "no_socket" list anywhere in obj."""
    if isinstance(obj, dict):
        return [v for k, v in obj.items() if k == "no_socket"] + \
            [x for v in obj.values() for x in no_socket_lists(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in no_socket_lists(v)]
    return []


def queues(n, argv):
    """The summary of a run on n queues: each queue received its share, and
    the per-queue counters add up to the totals (each port's for xskx-fw)."""
    program = os.path.basename(argv[0])
    n = int(n)
    obj = one_object(run(argv + ["--queues", str(n), "--json", "--quiet"]),
                     program)
    check_header(obj, program, "summary")
    if obj.get("queues") != n:
        fail("%s: queues %r, expected %d" % (program, obj.get("queues"), n))
    if program == "xskx-bench":
        received = bench_queues(obj, n)
    else:
        received = fw_queues(obj, n, program)
    idle = [k for k, rx in received.items() if rx == 0]
    if len(received) != n or idle:
        fail("%s: every queue must receive: %r" % (program, received))
    print("%s: %d queues, each received (%s), the sums match the totals"
          % (program, n, ", ".join("%d" % received[k] for k in sorted(received))))


def fw_queues(obj, n, program):
    """xskx-fw: per_queue's counters sum to each port's."""
    per_queue = obj.get("per_queue")
    ports = {p["port"]: p for p in obj.get("ports", [])}
    if not isinstance(per_queue, list) or len(per_queue) != n * len(ports):
        fail("%s: per_queue should have %d entries: %r" %
             (program, n * len(ports), per_queue))
    received = {}
    for key in ("rx", "tx"):
        for name, port in ports.items():
            total = sum(dig(q, (key,), program) for q in per_queue
                        if q.get("port") == name)
            if total != dig(port, (key,), program):
                fail("%s: port %s: the queues' %s sum to %d, the port says %d"
                     % (program, name, key, total, port[key]))
    for q in per_queue:
        received[q["queue"]] = received.get(q["queue"], 0) + q["rx"]
    return received


# The running totals of each program, as paths into its objects: each must
# be there in every interval and in the summary, and never go down.
TOTALS = {
    "xskx-bench": [("rx_packets",), ("tx_packets",), ("delivered",),
                   ("lost",), ("loss", "total"), ("rx_kicks",)],
    "xskx-l2fwd": [("total", "rx"), ("total", "tx"), ("total", "delivered"),
                   ("total", "lost"), ("total", "offered")],
    "xskx-fw": [("total", "delivered"), ("total", "filtered"),
                ("total", "lost"), ("total", "offered"),
                ("stage2", "allowed", "packets")],
}


def dig(obj, path, what):
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            fail("%s: no %s" % (what, ".".join(path)))
        obj = obj[key]
    if not isinstance(obj, int):
        fail("%s: %s is %r, not a count" % (what, ".".join(path), obj))
    return obj


def lines(seconds, argv):
    program = os.path.basename(argv[0])
    text = run(argv + ["--json-lines", "--duration", seconds, "--quiet"])
    objs = [parse(line, "%s line %d" % (program, n + 1))
            for n, line in enumerate(text.splitlines())]
    if not objs:
        fail("%s: no output" % program)
    *intervals, summary = objs
    for o in intervals:
        check_header(o, program, "interval")
    check_header(summary, program, "summary")
    # One a second, and the short last one: ceil(seconds).
    want = -(-float(seconds) // 1)
    if len(intervals) != want:
        fail("%s: %d intervals in %s s, expected %d" %
             (program, len(intervals), seconds, want))
    elapsed = 0.0
    for n, o in enumerate(intervals):
        if o["interval_s"] <= 0 or o["elapsed_s"] < elapsed:
            fail("%s: interval %d: elapsed %r, length %r" %
                 (program, n + 1, o["elapsed_s"], o["interval_s"]))
        # Rounded to the millisecond each: allow one per interval.
        if abs(o["elapsed_s"] - elapsed - o["interval_s"]) > 0.0015:
            fail("%s: interval %d: %r s after %r s is not %r s long" %
                 (program, n + 1, o["elapsed_s"], elapsed, o["interval_s"]))
        elapsed = o["elapsed_s"]
    last = intervals[-1]["interval_s"]
    if float(seconds) % 1 and not 0 < last < 0.9:
        fail("%s: the last interval is %r s long, not the short rest" %
             (program, last))
    for path in TOTALS[program]:
        before = 0
        for n, o in enumerate(objs):
            v = dig(o, path, "%s line %d" % (program, n + 1))
            if v < before:
                fail("%s: %s went down, %d to %d, at line %d" %
                     (program, ".".join(path), before, v, n + 1))
            before = v
    if dig(intervals[-1], TOTALS[program][0], program) == 0:
        fail("%s: nothing moved" % program)
    print("%s: %d intervals (the last %.3f s) and the summary; every line "
          "parses, the totals never go down" % (program, len(intervals), last))


LINE = re.compile(r"^ *([0-9]+\.[0-9])s +([0-9]+\.[0-9]{2})s  ")
PKTS = re.compile(r" ([0-9]+) pkts")


def text(seconds, argv):
    program = os.path.basename(argv[0])
    out = run(argv + ["--duration", seconds])
    groups = []  # (elapsed, length, the first line's totals)
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        totals = [int(n) for n in PKTS.findall(line)]
        if not totals:
            fail("%s: no running total in %r" % (program, line))
        if groups and groups[-1][0] == m.group(1):
            continue  # the same interval's next port
        groups.append((m.group(1), float(m.group(2)), totals))
    want = -(-float(seconds) // 1)
    if len(groups) != want:
        fail("%s: %d intervals printed in %s s, expected %d:\n%s" %
             (program, len(groups), seconds, want, out))
    for (_, _, a), (e, _, b) in zip(groups, groups[1:]):
        if any(y < x for x, y in zip(a, b)):
            fail("%s: a running total went down at %ss: %r then %r" %
                 (program, e, a, b))
    if not 0 < groups[-1][1] <= 1.2:
        fail("%s: the last interval is %r s" % (program, groups[-1][1]))
    print("%s: %d lines, at %s" % (program, len(groups),
                                   ", ".join(g[0] + "s" for g in groups)))


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    mode = sys.argv[1]
    if mode == "writer":
        writer(sys.argv[2])
    elif mode == "fw-name":
        fw_name(sys.argv[2])
    elif mode == "text":
        text(sys.argv[2], sys.argv[3:])
    elif mode == "lines":
        lines(sys.argv[2], sys.argv[3:])
    elif mode == "summary":
        summary(sys.argv[2:])
    elif mode == "queues":
        queues(sys.argv[2], sys.argv[3:])
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
