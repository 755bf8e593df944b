#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The example programs' JSON output parses, whatever the names in it.

  check_json.py writer TEST_JSON      the writer itself (tests/examples/test_json.c)
  check_json.py fw-name XSKX_FW       xskx-fw --sim --json with a rules file
                                      named with quotes, backslashes and
                                      control characters
  check_json.py summary PROGRAM ARGS  PROGRAM ARGS --json: one object, with
                                      the header every object carries

Each object must parse with python's json module (strict: no control
characters in strings) and start with "program", "xskx_version" and
"record".
"""
import json
import os
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
    print("%s: one summary object, version %s" % (program, obj["xskx_version"]))


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    mode = sys.argv[1]
    if mode == "writer":
        writer(sys.argv[2])
    elif mode == "fw-name":
        fw_name(sys.argv[2])
    elif mode == "summary":
        summary(sys.argv[2:])
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
