#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Real clients through a bump in the wire (bump.py): a Linux bridge, or
xskx-l2fwd or xskx-fw on two veths.

    realtraffic.py --forwarder bridge|l2fwd|fw --mtu 1500|9000
                   --offload default|tx-off [--program PATH] [--rules FILE]

Every client must complete: ping over IPv4 and IPv6 from a cold neighbour
table (ARP and neighbour discovery through the bump, each host learning the
other's MAC), pings of the full MTU, iperf3 TCP both ways and with four
streams, iperf3 UDP at a modest rate, and HTTP downloads (curl from python3
-m http.server) over IPv4 and IPv6 checked by sha256. Then:

- no end host counted a bad checksum (TCP, UDP, ICMP: the programs forward
  what the hosts sent, partial checksums included, so this is where a
  checksum left incomplete shows);
- every packet the clients lost (pings unanswered, UDP datagrams lost;
  TCP retransmits aside) is counted somewhere: by the program (its summary's
  total.lost, and total.filtered for xskx-fw), by the bridge's links, or by
  the end hosts' kernels (UDP and ICMP InErrors, their links' drops);
- the program saw the traffic (its ports received at least the pings).

Exit 0: passed; 1: failed (the reason on stdout); 77: skipped (not root, or
no network namespaces).
"""
import argparse
import hashlib
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bump as bumpmod  # noqa: E402
import clients  # noqa: E402
from bump import ADDR4, ADDR6, Bump, Failure  # noqa: E402

TOOLS = ("ip", "ethtool", "ping", "iperf3", "curl", "ss", "timeout")
IPERF_SECONDS = 2
UDP_RATE = "50M"
PINGS = 20
DOWNLOAD_BYTES = 16 << 20
# Counters of the end hosts that a lost or refused packet raises.
HOST_DROPS = ("Udp.InErrors", "Udp6InErrors", "Icmp.InErrors",
              "Icmp6InErrors", "Ip.InDiscards", "Ip6InDiscards")
CSUM_ERRORS = ("Tcp.InCsumErrors", "Udp.InCsumErrors", "Udp6InCsumErrors",
               "Icmp.InCsumErrors", "Icmp6InCsumErrors", "Ip.InHdrErrors")


def say(msg):
    print(msg, flush=True)


def skip(why):
    say("SKIP: " + why)
    sys.exit(77)


def neighbour(bump, host, addr):
    """The MAC host's table holds for addr, or None."""
    out = bump.run_in(host, ["ip", "neigh", "show", addr], 10)
    words = out.split()
    return words[words.index("lladdr") + 1] if "lladdr" in words else None


class Case:
    """One run of every client through one bump; what they lost."""

    def __init__(self, bump, http_dir, sha256):
        self.bump = bump
        self.http_dir = http_dir
        self.sha256 = sha256
        self.lost = {}  # client: packets it lost
        self.pings = 0  # echo requests answered, each crossing twice

    def ping(self, what, addr, count, interval, size=56):
        r = clients.ping(self.bump, addr, count, interval, size)
        if r["received"] == 0:
            raise Failure("%s: no answer to %d pings" % (what, r["sent"]))
        self.lost[what] = r["sent"] - r["received"]
        self.pings += r["received"]
        say("  %s: %d/%d answered" % (what, r["received"], r["sent"]))

    def cold_neighbours(self):
        b = self.bump
        for family, addrs in ((4, ADDR4), (6, ADDR6)):
            if neighbour(b, "a", addrs["b"]) or neighbour(b, "b", addrs["a"]):
                raise Failure("IPv%d: a neighbour entry before any traffic"
                              % family)
            self.ping("ping IPv%d from cold" % family, addrs["b"], PINGS,
                      0.01)
            for host, peer in (("a", "b"), ("b", "a")):
                got = neighbour(b, host, addrs[peer])
                if got != b.mac(peer):
                    raise Failure("IPv%d: %s resolved %s to %s, not %s" %
                                  (family, host.upper(), addrs[peer], got,
                                   b.mac(peer)))
        say("  neighbours resolved from cold, both ways, IPv4 and IPv6")

    def full_size_pings(self):
        mtu = self.bump.mtu
        self.ping("ping IPv4 of %d bytes" % mtu, ADDR4["b"], PINGS, 0.01,
                  mtu - 28)
        self.ping("ping IPv6 of %d bytes" % mtu, ADDR6["b"], PINGS, 0.01,
                  mtu - 48)

    def iperf(self):
        runs = (("TCP A->B", []), ("TCP B->A", ["-R"]),
                ("TCP A->B, 4 streams", ["-P", "4"]))
        for server, (what, args) in enumerate(runs):
            r = clients.iperf3(self.bump, IPERF_SECONDS, args, server)
            say("  iperf3 %s: %.2f Gbit/s, %d retransmits" %
                (what, clients.tcp_goodput(r) / 1e9,
                 r["end"]["sum_sent"].get("retransmits", 0)))
        r = clients.iperf3(self.bump, IPERF_SECONDS, ["-u", "-b", UDP_RATE],
                           len(runs))
        sent, lost = clients.udp_loss(r)
        if sent == 0:
            raise Failure("iperf3 UDP: no datagram sent")
        self.lost["iperf3 UDP"] = lost
        say("  iperf3 UDP at %sbit/s: %d datagrams, %d lost" %
            (UDP_RATE, sent, lost))

    def downloads(self):
        for family in (4, 6):
            clients.download(self.bump, clients.http_url(family, "random"),
                             self.sha256)
            say("  curl over IPv%d: %d MiB, sha256 matches" %
                (family, DOWNLOAD_BYTES >> 20))

    def run(self):
        self.cold_neighbours()
        self.full_size_pings()
        clients.start_servers(self.bump, 600, self.http_dir)
        self.iperf()
        self.downloads()


def counters(bump):
    """What the end hosts and M count: snmp per host, link drops per ns."""
    return {host: (bump.snmp(host) if host != "m" else {},
                   bump.link_drops(host)) for host in "amb"}


def delta(before, after, host, names):
    return sum(after[host][0].get(n, 0) - before[host][0].get(n, 0)
               for n in names)


def link_delta(before, after, host):
    return sum(after[host][1][d] - before[host][1].get(d, 0)
               for d in after[host][1])


def program_rx(summary):
    return sum(p["rx"] for p in summary["ports"])


def check(bump, case, before, after, summary):
    errors = {h: delta(before, after, h, CSUM_ERRORS) for h in "ab"}
    if any(errors.values()):
        raise Failure("bad checksums or headers counted: A %d, B %d (%s)" %
                      (errors["a"], errors["b"], ", ".join(CSUM_ERRORS)))
    seen = sum(case.lost.values())
    counted = {"end hosts": sum(delta(before, after, h, HOST_DROPS) +
                                link_delta(before, after, h) for h in "ab")}
    if summary is None:
        counted["the bridge's links"] = link_delta(before, after, "m")
    else:
        total = summary["total"]
        counted["the program"] = total["lost"] + total.get("filtered", 0)
        if program_rx(summary) < 2 * case.pings:
            raise Failure("the program received %d packets, fewer than the "
                          "%d pings and answers that crossed it" %
                          (program_rx(summary), 2 * case.pings))
    say("lost by the clients: %d (%s); counted: %s" %
        (seen, ", ".join("%s %d" % kv for kv in case.lost.items()),
         ", ".join("%s %d" % kv for kv in counted.items())))
    if seen > sum(counted.values()):
        raise Failure("the clients lost %d packets, only %d are counted" %
                      (seen, sum(counted.values())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--forwarder", required=True, choices=bumpmod.FORWARDERS)
    ap.add_argument("--mtu", type=int, default=1500)
    ap.add_argument("--offload", default="default", choices=bumpmod.OFFLOADS)
    ap.add_argument("--program", help="xskx-l2fwd or xskx-fw (its path)")
    ap.add_argument("--rules", help="xskx-fw's rule file")
    o = ap.parse_args()

    if os.geteuid() != 0:
        skip("needs root (network namespaces, XDP, AF_XDP)")
    if not os.path.exists("/proc/self/ns/net"):
        skip("no network namespaces in this kernel")
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        # Dependencies, not a reason to skip: the install script has them.
        say("FAIL: %s missing: run scripts/install-deps.sh" %
            ", ".join(missing))
        return 1
    # SIGTERM (ctest's timeout, a user) unwinds like an error: clean up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    with tempfile.TemporaryDirectory(prefix="xrt-") as http_dir:
        data = os.urandom(DOWNLOAD_BYTES)
        with open(os.path.join(http_dir, "random"), "wb") as f:
            f.write(data)
        sha256 = hashlib.sha256(data).hexdigest()
        say("%s, MTU %d, end hosts' offloads: %s" %
            (o.forwarder, o.mtu, o.offload))
        try:
            with Bump(o.forwarder, o.mtu, o.offload, o.program, o.rules,
                      log=say) as bump:
                before = counters(bump)
                case = Case(bump, http_dir, sha256)
                try:
                    case.run()
                except Failure as e:
                    after = counters(bump)
                    errors = {h: delta(before, after, h, CSUM_ERRORS)
                              for h in "ab"}
                    raise Failure("%s (checksum/header errors meanwhile: "
                                  "A %d, B %d)" % (e, errors["a"],
                                                   errors["b"]))
                summary = bump.stop_program()
                after = counters(bump)
                check(bump, case, before, after, summary)
        except Failure as e:
            say("FAIL: %s" % e)
            return 1
    say("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
