# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Reading the JSON Lines files the charts are drawn from: the programs'
--json-lines and perf-experiments.sh's results. Each line is one object
with a "program" and a "record" (what the object is)."""
import json


class InputError(Exception):
    """A file that is not what the charts are drawn from; says where."""


def objects(path):
    """(where, object) of each line of the file that is not blank, where
    being "PATH:LINE"."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = "%s:%d" % (path, number)
            try:
                obj = json.loads(line)
            except ValueError as e:
                raise InputError("%s: not JSON (%s)" % (where, e)) from e
            if not isinstance(obj, dict) or "record" not in obj:
                raise InputError("%s: not an object with a \"record\"" %
                                 where)
            yield where, obj


def first_program(path):
    """The "program" of the file's first object: which kind of file it is."""
    for _, obj in objects(path):
        return obj.get("program")
    raise InputError("%s: empty" % path)
