# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The results of scripts/perf-experiments.sh (its JSON Lines file), as
bar charts: one per charted column of each table.

The file holds, after a "run" object (date, CPUs, kernel, repetitions),
for each table a "table" object — its id, title, columns, how many
leading columns name a row ("keys") and which columns to chart
("charted") — followed by its "row" objects, the cells as the markdown
table shows them ("18.902", "1.45×", "—").

A chart has a cluster per value of the first key column and, in each, a
bar per combination of the other key columns ("policy drop", "policy
stop"); a table with one key column has one bar per row.
"""
from .jsonl import InputError, objects

PROGRAM = "perf-experiments"


def figure(cell):
    """A cell's figure: "1.45×" is 1.45, "—" (no figure) is None."""
    text = cell.replace("×", "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


class Table:
    def __init__(self, obj):
        self.id = obj["table"]
        self.title = obj["title"]
        self.columns = obj["columns"]
        self.keys = obj["keys"]
        self.charted = obj["charted"]
        self.rows = []
        unknown = [c for c in self.charted if c not in self.columns]
        if unknown or not 1 <= self.keys < len(self.columns):
            raise InputError("table %s: charted %r or keys %d do not fit "
                               "its columns %r" %
                               (self.id, unknown, self.keys, self.columns))

    def add(self, cells, where):
        if len(cells) != len(self.columns):
            raise InputError("%s: %d cells in a row of table %s, which "
                               "has %d columns" % (where, len(cells), self.id,
                                                   len(self.columns)))
        self.rows.append(cells)

    def _series_name(self, row):
        if self.keys == 1:
            return None
        return ", ".join("%s %s" % (self.columns[k], row[k])
                         for k in range(1, self.keys))

    def bars(self, column):
        """(groups, series, values) of the charted column: values[g][s]
        the figure of group g's row of series s, None where none."""
        index = self.columns.index(column)
        groups, series, cells = [], [], {}
        for row in self.rows:
            group, name = row[0], self._series_name(row) or column
            if group not in groups:
                groups.append(group)
            if name not in series:
                series.append(name)
            cells[(group, name)] = figure(row[index])
        values = [[cells.get((g, s)) for s in series] for g in groups]
        return groups, series, values

    def xlabel(self):
        return self.columns[0]


def read(path):
    """(run, [Table, ...]) of a results file."""
    run, tables = None, {}
    for where, obj in objects(path):
        if obj.get("program") != PROGRAM:
            raise InputError("%s: not written by %s.sh" % (where, PROGRAM))
        try:
            if obj["record"] == "run":
                run = obj
            elif obj["record"] == "table":
                tables[obj["table"]] = Table(obj)
            elif obj["record"] == "row":
                tables[obj["table"]].add(obj["cells"], where)
        except KeyError as e:
            raise InputError("%s: a %s record without %s (or before its "
                             "table)" % (where, obj["record"], e)) from e
    if run is None:
        raise InputError("%s: no \"run\" record: not a complete results "
                           "file of %s.sh" % (path, PROGRAM))
    return run, [t for t in tables.values() if t.rows]
