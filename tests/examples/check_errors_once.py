#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Each program prints a library error once: the default log callback
leaves errors to the caller, which shows xskx_last_error() in its own words.

  check_errors_once.py RULES PROGRAM...

Each PROGRAM (xskx-bench, xskx-l2fwd, xskx-fw, xskx-minimal-rxdrop,
xskx-minimal-l2fwd, told apart by name) is started on an interface that
does not exist (xskx-nosuch0; nothing is sent, no interface is touched):
it must fail, and exactly one line of its stderr may carry the library's
message, which names the interface. RULES is a rule file for xskx-fw.

Exit 0: passed; 1: failed.
"""
import os
import subprocess
import sys

MISSING = "xskx-nosuch0"


def args_for(program, rules):
    name = os.path.basename(program)
    if name == "xskx-bench":
        return ["-i", MISSING, "-r", "--duration", "1"]
    if name == "xskx-l2fwd":
        return ["-i", MISSING, "--duration", "1"]
    if name == "xskx-fw":
        return ["-i", MISSING, "-o", "xskx-nosuch1", "-r", rules,
                "--duration", "1"]
    if name == "xskx-minimal-rxdrop":
        return [MISSING]
    if name == "xskx-minimal-l2fwd":
        return [MISSING, "xskx-nosuch1"]
    raise SystemExit(f"{name}: not a program this check knows")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rules, programs = sys.argv[1], sys.argv[2:]
    failed = False
    for program in programs:
        run = subprocess.run([program] + args_for(program, rules),
                             stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60, check=False)
        lines = [line for line in run.stderr.splitlines() if MISSING in line]
        name = os.path.basename(program)
        if run.returncode == 0:
            print(f"{name}: exit 0 on a missing interface")
            failed = True
        elif len(lines) != 1:
            print(f"{name}: the error in {len(lines)} lines of stderr, "
                  f"not one:\n{run.stderr}")
            failed = True
        else:
            print(f"{name}: once: {lines[0]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
