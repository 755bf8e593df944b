# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The --json-lines stream of xskx-bench, xskx-l2fwd and xskx-fw, as time
series: packets per second per port or queue, and drops per second by
cause.

Every "interval" object carries running totals and the interval's length
(interval_s); a rate is the difference of a total between two intervals
divided by the later one's length. The three programs lay their totals
out differently:

  xskx-bench   one socket: rx_packets, tx_packets and "loss" at the top,
               for the queue "queue" of "interface" (or of "backend":
               sim); a --compare run starts the totals again for its
               second "variant", charted as series of their own
  xskx-l2fwd   "ports": rx and tx of each queue of each port; the drops
               in "total"."loss"
  xskx-fw      "ports": rx and tx of each port; the drops in
               "total"."loss", and what the rules filtered in
               "total"."filtered"
"""
from .jsonl import InputError, objects


def _variant(obj):
    """xskx-bench --compare: " (baseline)" after the second run's names."""
    variant = obj.get("variant")
    return "" if not variant or variant == "burst" else " (%s)" % variant


def _port_name(port):
    if "queue" in port:
        return "%s queue %s" % (port["port"], port["queue"])
    return port["port"]


def _causes(loss):
    """The loss object's stages, less their sum ("total") and the queues
    of xdp_passed ("no_socket"), which are not a stage of their own."""
    return {cause: n for cause, n in loss.items()
            if cause not in ("total", "no_socket")}


def _totals(obj):
    """{series: running total} of packets, and {cause: running total} of
    drops, of one interval object."""
    packets, drops = {}, {}
    if "ports" in obj:
        for port in obj["ports"]:
            name = _port_name(port)
            packets[name + " rx"] = port["rx"]
            packets[name + " tx"] = port["tx"]
        total = obj["total"]
        drops.update(_causes(total["loss"]))
        if "filtered" in total:
            drops["filtered by the rules"] = total["filtered"]
    else:
        variant = _variant(obj)
        name = "%s queue %s" % (obj.get("interface") or obj["backend"],
                                obj["queue"])
        packets[name + " rx" + variant] = obj["rx_packets"]
        packets[name + " tx" + variant] = obj["tx_packets"]
        drops.update({cause + variant: n
                      for cause, n in _causes(obj["loss"]).items()})
    return packets, drops


class Series:
    """Rates per second of running totals, sampled at each interval's
    end: {name: [(elapsed_s, rate), ...]}, names in order of appearance."""

    def __init__(self):
        self.points = {}
        self._last = {}

    def add(self, elapsed, seconds, totals):
        for name, total in totals.items():
            rate = (total - self._last.get(name, 0)) / seconds
            self._last[name] = total
            self.points.setdefault(name, []).append((elapsed, rate))

    def moving(self):
        """The series that are not zero throughout; all of them if none
        moved (a chart of zeros says that nothing happened)."""
        moved = [(n, p) for n, p in self.points.items()
                 if any(rate for _, rate in p)]
        return moved or list(self.points.items())


def read(path):
    """The intervals of a JSON Lines file: (program, packets, drops), two
    Series, after checking that every line is one of the programs'."""
    packets, drops = Series(), Series()
    program = None
    for where, obj in objects(path):
        if obj["record"] != "interval":
            continue
        program = program or obj.get("program")
        try:
            totals, causes = _totals(obj)
            seconds = obj["interval_s"]
            elapsed = obj["elapsed_s"]
        except (KeyError, TypeError) as e:
            raise InputError("%s: an interval of %s without %s: is the "
                             "program older than this script?" %
                             (where, obj.get("program"), e)) from e
        if seconds <= 0:
            raise InputError("%s: interval_s %r is not a length" %
                             (where, seconds))
        packets.add(elapsed, seconds, totals)
        drops.add(elapsed, seconds, causes)
    if program is None:
        raise InputError("%s: no \"interval\" object: run the program with "
                          "--json-lines (not --json)" % path)
    return program, packets, drops
