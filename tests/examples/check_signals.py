#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""A program stopped by a signal ends as a run that reached its end does:
exit 0, and its summary.

  check_signals.py SIGNAL sim PROGRAM ARGS
      PROGRAM ARGS --json-lines on the simulated NIC
  check_signals.py SIGNAL veth PROGRAM ARGS
      the same inside a network namespace of the test's own with two veth
      pairs, xs0-xs1 and xs2-xs3 (ARGS name xs0 and xs2); root, skipped
      (77) otherwise
  check_signals.py SIGNAL minimal PROGRAM ARGS
      a minimal program (examples/minimal) in such a namespace: its
      "received"/"forwarded" line, which says a signal stopped it, and
      exit 0 (root, 77 otherwise)

SIGNAL is INT or TERM. The signal is sent once the program has printed its
first line (one interval: the handlers are in place and the run loop
turns), so that it lands in the loop's wait, whatever the wakeup mode; the
program must then exit 0 within 30 s, its last JSON line the summary, which
names the signal as the reason it stopped.

Exit 0: passed; 1: failed; 77: skipped.
"""
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

NETNS = "xskx-sig-%d" % os.getpid()
PAIRS = (("xs0", "xs1"), ("xs2", "xs3"))
FIRST_LINE_S = 30
EXIT_S = 30
# Where each program's summary says why it stopped.
STOP_KEY = {"xskx-bench": "stopped_by", "xskx-l2fwd": "stop",
            "xskx-fw": "stop"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def netns_up():
    subprocess.run(["ip", "netns", "add", NETNS], check=True)
    for a, b in PAIRS:
        subprocess.run(["ip", "-n", NETNS, "link", "add", a, "type", "veth",
                        "peer", "name", b], check=True)
        for dev in (a, b):
            subprocess.run(["ip", "-n", NETNS, "link", "set", dev, "up"],
                           check=True)


def netns_down():
    subprocess.run(["ip", "netns", "del", NETNS])


def first_line(p, what):
    """The program's first line of output, within FIRST_LINE_S."""
    deadline = time.monotonic() + FIRST_LINE_S
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([p.stdout], [], [], left)[0]:
            fail("%s: no line within %d s" % (what, FIRST_LINE_S))
        c = os.read(p.stdout.fileno(), 1)
        if not c:
            fail("%s: ended before its first line (exit %r): %s" %
                 (what, p.wait(), p.stderr.read().decode(errors="replace")))
        line += c
    return line.decode()


def signalled(argv, sig, what):
    """Start argv, signal it after its first line; (stdout, stderr)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        head = first_line(p, what)
        p.send_signal(sig)
        out, err = p.communicate(timeout=EXIT_S)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        fail("%s: still running %d s after SIG%s" % (what, EXIT_S,
                                                    sig.name[3:]))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    err = err.decode(errors="replace")
    if p.returncode != 0:
        fail("%s: exit %d after %s:\n%s" % (what, p.returncode, sig.name,
                                            err))
    return head + out.decode(), err


def check_summary(program, text, sig, what):
    lines = text.splitlines()
    try:
        last = json.loads(lines[-1])
    except (IndexError, ValueError) as e:
        fail("%s: the last line is no JSON (%s): %r" % (what, e, lines[-1:]))
    if last.get("record") != "summary":
        fail("%s: the last line is a %r, not the summary" %
             (what, last.get("record")))
    if last.get(STOP_KEY[program]) != "signal":
        fail("%s: the summary says it stopped by %r, not the signal" %
             (what, last.get(STOP_KEY[program])))
    print("%s: SIG%s: exit 0, summary after %d interval line(s)" %
          (what, sig.name[3:], len(lines) - 1))


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("INT", "TERM"):
        fail(__doc__)
    sig = signal.Signals["SIG" + sys.argv[1]]
    where, argv = sys.argv[2], sys.argv[3:]
    program = os.path.basename(argv[0])
    what = " ".join([program] + argv[1:])
    if where not in ("sim", "veth", "minimal"):
        fail("unknown place " + where)
    if where != "sim":
        if os.geteuid() != 0:
            print("SKIP: veth needs root")
            sys.exit(77)
        netns_up()
        argv = ["ip", "netns", "exec", NETNS] + argv
    try:
        if where == "minimal":
            # Its one line comes at the end: signal it once it runs.
            run_minimal(argv, sig, what)
            return
        out, _ = signalled(argv + ["--json-lines"], sig, what)
        check_summary(program, out, sig, what)
    finally:
        if where != "sim":
            netns_down()


def run_minimal(argv, sig, what):
    """A minimal program prints nothing until it ends: it runs once its
    port is open, which its XDP program on xs0 shows (the handlers come
    first)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + FIRST_LINE_S
        while not xdp_attached():
            if time.monotonic() > deadline or p.poll() is not None:
                fail("%s: no XDP program on xs0 within %d s (exit %r)" %
                     (what, FIRST_LINE_S, p.poll()))
            time.sleep(0.05)
        p.send_signal(sig)
        out, err = p.communicate(timeout=EXIT_S)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        fail("%s: still running %d s after %s" % (what, EXIT_S, sig.name))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    out = out.decode()
    if p.returncode != 0:
        fail("%s: exit %d after %s: %s" % (what, p.returncode, sig.name,
                                          err.decode(errors="replace")))
    # The run's own end (5 s) prints no reason: the signal must be why.
    if not re.search(r"^(received|forwarded) [0-9]+ packets "
                     r"\(stopped by a signal\)$", out, re.M):
        fail("%s: no count of packets stopped by the signal: %r" % (what, out))
    print("%s: %s: exit 0: %s" % (what, sig.name, out.strip()))


def xdp_attached():
    p = subprocess.run(["ip", "-n", NETNS, "-d", "link", "show", "xs0"],
                       capture_output=True, text=True)
    return "prog/xdp" in p.stdout


if __name__ == "__main__":
    main()
