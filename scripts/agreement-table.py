#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The agreement table of docs/VIRTIO_ZEROCOPY.md: every shared scenario on
each peer (the simulated NIC, veth generic and native, virtio_net zero-copy
and copy), as CTest ran it here.

    scripts/agreement-table.py [BUILD_DIR]     (default: build)
    scripts/agreement-table.py --ctest-output FILE   (a saved ctest run's)

Runs the scenarios' tests with ctest -j2 (root: veth and the guest need it)
and prints a Markdown table: pass, skip or FAIL per peer, "-" where the peer
does not run the scenario. Skips of the virtio peers carry their reason in
ctest's output (--output-on-failure does not print it: see the test's log in
BUILD_DIR/Testing/Temporary/LastTest.log).
"""
import os
import re
import subprocess
import sys

PEERS = ["sim", "veth_generic", "veth_native", "virtio_zc", "virtio_copy"]


def main():
    args = sys.argv[1:]
    # The scenarios in the order of their table (tests/scenario/scenario.c).
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                         "tests", "scenario", "scenario.c")
    with open(table, encoding="utf-8") as f:
        scenarios = re.findall(r'\{ "([A-Z0-9_]+)",', f.read())
    if args[:1] == ["--ctest-output"]:
        with open(args[1], encoding="utf-8") as f:
            output = f.read()
    else:
        build = args[0] if args else "build"
        regex = "^(%s)\\.(%s)$" % ("|".join(PEERS), "|".join(scenarios))
        output = subprocess.run(["ctest", "--test-dir", build, "-j2", "-R",
                                 regex], capture_output=True, text=True,
                                check=False).stdout
    result = {}
    line_re = re.compile(r"Test +#\d+: (\w+)\.([A-Z0-9_]+) \.+[* ]*(\w+)")
    for line in output.splitlines():
        m = line_re.search(line)
        if m:
            peer, scenario, status = m.groups()
            result[(peer, scenario)] = {"Passed": "pass",
                                        "Skipped": "skip"}.get(status,
                                                               "FAIL")
    print("| scenario | " + " | ".join(PEERS) + " |")
    print("|---" * (len(PEERS) + 1) + "|")
    for s in scenarios:
        cells = [result.get((p, s), "-") for p in PEERS]
        print("| %s | %s |" % (s, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
