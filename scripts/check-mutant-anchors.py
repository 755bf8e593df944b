#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Every mutant of tests/mutants.txt still lands where it was written for.

scripts/mutate.sh applies a mutant by its anchor: a find: string that must
occur exactly once in the mutant's file, or a sed: expression that must
change it. Code that moves or is reformatted leaves anchors behind that
mutate.sh only reports when it runs the mutant, minutes into a run; this
checks them all at once, without building anything:

  - the file exists;
  - find: (with \\n and \\t as mutate.sh reads them) occurs exactly once;
  - sed: changes the file (run on a copy).

Usage: scripts/check-mutant-anchors.py [MUTANTS_TXT]  (from the tree's root,
or with the root as the list's parent's parent). Exit 0 when every anchor
holds, 1 naming each one that does not, 2 on a malformed list.
"""
import os
import re
import subprocess
import sys
import tempfile


def parse(path):
    """The list's mutants, each a dict of its fields, with its line."""
    mutants = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if re.match(r"^\s*(#|$)", line):
                continue
            m = re.match(r"^mutant\s+(\S+)\s*$", line)
            if m:
                mutants.append({"id": m.group(1), "line": lineno})
                continue
            m = re.match(r"^([a-z]+):\s?(.*)$", line)
            if not m or not mutants:
                sys.exit(f"{path}:{lineno}: expected 'mutant ID' or 'key: value'")
            mutants[-1][m.group(1)] = m.group(2)
    return mutants


def unescape(text):
    return text.replace("\\n", "\n").replace("\\t", "\t")


def sed_changes(path, expr):
    with open(path, "rb") as f:
        before = f.read()
    with tempfile.NamedTemporaryFile() as tmp:
        tmp.write(before)
        tmp.flush()
        subprocess.run(["sed", "-i", "-e", expr, tmp.name], check=True)
        with open(tmp.name, "rb") as f:
            return f.read() != before


def main():
    listing = sys.argv[1] if len(sys.argv) > 1 else "tests/mutants.txt"
    root = os.path.dirname(os.path.dirname(os.path.abspath(listing)))
    bad = []
    mutants = parse(listing)
    for m in mutants:
        where = f"{listing}:{m['line']}: mutant {m['id']}"
        path = os.path.join(root, m.get("file", ""))
        if not m.get("file") or not os.path.isfile(path):
            bad.append(f"{where}: file '{m.get('file', '')}' does not exist")
            continue
        if "sed" in m:
            if not sed_changes(path, m["sed"]):
                bad.append(f"{where}: sed: changes nothing in {m['file']}")
            continue
        if "find" not in m:
            bad.append(f"{where}: neither find: nor sed:")
            continue
        with open(path, encoding="utf-8") as f:
            count = f.read().count(unescape(m["find"]))
        if count != 1:
            bad.append(f"{where}: find: occurs {count} times in {m['file']}, not once")
    for line in bad:
        print(line, file=sys.stderr)
    print(f"{len(mutants) - len(bad)} of {len(mutants)} mutant anchors hold")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
