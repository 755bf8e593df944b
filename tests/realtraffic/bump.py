# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""A bump in the wire between two end hosts, each in a network namespace.

    ns A (client)          ns M (the bump)            ns B (server)
    a0 192.0.2.1 ==veth== m-a [bridge | xskx-l2fwd m-b ==veth== b0 192.0.2.2
       2001:db8:1::1                 | xskx-fw]                     2001:db8:1::2

M joins m-a and m-b with a Linux bridge (the control) or with one of xskx's
programs on the two veths. The namespaces are named after the process
(xrt<PID>a/m/b), so that runs side by side never meet; Bump.close() deletes
them and stops every process started in them, and whatever a killed run
left behind is deleted by the next one (namespaces of a PID that is gone).

Used by tests/realtraffic/realtraffic.py (the test) and by
scripts/real-traffic-ab.py (the benchmark).
"""
import json
import os
import re
import signal
import subprocess
import tempfile
import time

PREFIX = "xrt"
ADDR4 = {"a": "192.0.2.1", "b": "192.0.2.2"}
ADDR6 = {"a": "2001:db8:1::1", "b": "2001:db8:1::2"}
# The bump's veth ends, and the end hosts' (one per namespace, so the names
# can repeat across runs).
HOST_DEV = {"a": "a0", "b": "b0"}
BUMP_DEV = {"a": "m-a", "b": "m-b"}
FORWARDERS = ("bridge", "l2fwd", "fw")
# The programs' names, and where a build tree has them.
PROGRAMS = {"l2fwd": "xskx-l2fwd", "fw": "xskx-fw"}


def program_in(build_dir, forwarder):
    name = PROGRAMS[forwarder]
    return os.path.join(build_dir, "examples", name, name)
# Offloads of the end hosts' veths: veth's own, or TX checksumming off
# (the kernel then sends complete checksums; see docs/REAL_TRAFFIC.md).
OFFLOADS = ("default", "tx-off")


class Failure(Exception):
    """A step that failed: the message says which and why."""


def run(argv, timeout, check=True):
    """argv, bounded by timeout seconds; its stdout. Raises Failure."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("%s: no answer in %s s" % (" ".join(argv), timeout))
    if check and p.returncode != 0:
        raise Failure("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                           (p.stderr or p.stdout).strip()))
    return p.stdout


def delete_stale_namespaces():
    """Namespaces of earlier runs whose process is gone (killed, say)."""
    names = run(["ip", "netns", "list"], 10)
    for m in re.finditer(r"^(%s(\d+)[amb])\b" % PREFIX, names, re.M):
        if not os.path.exists("/proc/%s" % m.group(2)):
            run(["ip", "netns", "del", m.group(1)], 10, check=False)


class Bump:
    """The three namespaces, the veths, and the bump in M."""

    def __init__(self, forwarder, mtu, offload, program=None, rules=None,
                 extra_args=(), wrapper=(), log=print):
        if forwarder not in FORWARDERS:
            raise Failure("unknown forwarder %r (%s)" %
                          (forwarder, ", ".join(FORWARDERS)))
        if offload not in OFFLOADS:
            raise Failure("unknown offload setting %r (%s)" %
                          (offload, ", ".join(OFFLOADS)))
        self.forwarder = forwarder
        self.mtu = mtu
        self.offload = offload
        self.program_path = program
        self.rules = rules
        self.extra_args = list(extra_args)
        self.wrapper = list(wrapper)  # what the program runs under (chrt...)
        self.log = log
        self.ns = {k: "%s%d%s" % (PREFIX, os.getpid(), k) for k in "amb"}
        self.procs = []  # (name, Popen) of every process started in a namespace
        self.program = None
        self.program_out = None

    # --- commands in the namespaces -------------------------------------
    def cmd(self, host, argv):
        return ["ip", "netns", "exec", self.ns[host]] + list(argv)

    def run_in(self, host, argv, timeout, check=True):
        return run(self.cmd(host, argv), timeout, check)

    def start_in(self, host, name, argv, limit, stdout=subprocess.DEVNULL):
        """argv in the background, killed by timeout after limit seconds
        (SIGINT, then SIGKILL 5 s later) if it is still running."""
        p = subprocess.Popen(["timeout", "-s", "INT", "-k", "5", str(limit)] +
                             self.cmd(host, argv), stdout=stdout,
                             stderr=subprocess.PIPE, text=True)
        self.procs.append((name, p))
        return p

    def stop(self, p, grace=10):
        """Stop p (timeout passes SIGINT on to the command); its stderr."""
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
        try:
            _, err = p.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        self.procs = [(n, q) for n, q in self.procs if q is not p]
        return err or ""

    # --- set up and tear down -------------------------------------------
    def open(self):
        delete_stale_namespaces()
        for host in "amb":
            run(["ip", "netns", "add", self.ns[host]], 10)
        for host in "ab":
            # Made in M, the far end moved straight into the host's
            # namespace: nothing is ever created in the caller's.
            run(["ip", "-n", self.ns["m"], "link", "add", BUMP_DEV[host],
                 "type", "veth", "peer", "name", HOST_DEV[host], "netns",
                 self.ns[host]], 10)
            run(["ip", "-n", self.ns["m"], "link", "set", BUMP_DEV[host],
                 "mtu", str(self.mtu)], 10)
            self.setup_host(host)
        for host in "ab":
            run(["ip", "-n", self.ns["m"], "link", "set", BUMP_DEV[host],
                 "up"], 10)
        if self.forwarder == "bridge":
            self.start_bridge()
        else:
            self.start_program()
        return self

    def setup_host(self, host):
        ns, dev = self.ns[host], HOST_DEV[host]
        if self.offload == "tx-off":
            self.run_in(host, ["ethtool", "-K", dev, "tx", "off"], 10)
        run(["ip", "-n", ns, "addr", "add", ADDR4[host] + "/24", "dev", dev],
            10)
        # nodad: the address is usable at once, no duplicate detection
        # delay (nothing else is on this link).
        run(["ip", "-n", ns, "addr", "add", ADDR6[host] + "/64", "dev", dev,
             "nodad"], 10)
        run(["ip", "-n", ns, "link", "set", "lo", "up"], 10)
        run(["ip", "-n", ns, "link", "set", dev, "mtu", str(self.mtu), "up"],
            10)

    def start_bridge(self):
        m = self.ns["m"]
        run(["ip", "-n", m, "link", "add", "br0", "mtu", str(self.mtu),
             "type", "bridge"], 10)
        for host in "ab":
            run(["ip", "-n", m, "link", "set", BUMP_DEV[host], "master",
                 "br0"], 10)
        run(["ip", "-n", m, "link", "set", "br0", "up"], 10)

    def program_argv(self):
        argv = [self.program_path, "-i", BUMP_DEV["a"], "-o", BUMP_DEV["b"], "--json",
                "--quiet"]
        if self.forwarder == "fw":
            argv += ["-r", self.rules]
        if self.mtu > 1500:
            argv.append("-F")  # jumbo frames arrive as multi-buffer chains
        return argv + self.extra_args

    def start_program(self, limit=3600):
        self.program_out = tempfile.TemporaryFile(mode="w+")
        argv = self.program_argv()
        self.log("M: " + " ".join(argv))
        self.program = self.start_in("m", PROGRAMS[self.forwarder],
                                     self.wrapper + argv, limit,
                                     stdout=self.program_out)
        # Ready when its XDP program is on both veths (the summary would
        # tell an error; a program that exits early is one).
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.program.poll() is not None:
                raise Failure("%s exited at start: %s" %
                              (argv[0], self.stop(self.program).strip()))
            links = json.loads(run(["ip", "-n", self.ns["m"], "-j", "link",
                                    "show"], 10))
            if all("xdp" in l for l in links
                   if l["ifname"] in BUMP_DEV.values()):
                time.sleep(0.2)  # the sockets bind after the attach
                return
            time.sleep(0.1)
        raise Failure("%s: no XDP program on %s after 20 s" %
                      (argv[0], " and ".join(BUMP_DEV.values())))

    def stop_program(self):
        """Stop the program; its JSON summary (None for the bridge)."""
        if not self.program:
            return None
        err = self.stop(self.program)
        code = self.program.returncode
        self.program = None
        self.program_out.seek(0)
        out = self.program_out.read()
        if code != 0:
            raise Failure("%s exited with %d: %s" %
                          (PROGRAMS[self.forwarder], code, err.strip()))
        try:
            return json.loads(out)
        except ValueError:
            raise Failure("%s printed no JSON summary: %r" %
                          (PROGRAMS[self.forwarder], out[-300:]))

    def close(self):
        for _, p in list(self.procs):
            self.stop(p, grace=5)
        for host in "amb":
            run(["ip", "netns", "del", self.ns[host]], 10, check=False)

    def __enter__(self):
        try:
            return self.open()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()

    # --- counters ---------------------------------------------------------
    def snmp(self, host):
        """/proc/net/snmp and snmp6 of a namespace: {"Udp.InErrors": n}."""
        counters = {}
        lines = self.run_in(host, ["cat", "/proc/net/snmp"], 10).splitlines()
        for names, values in zip(lines[0::2], lines[1::2]):
            group, names = names.split(":", 1)
            for n, v in zip(names.split(), values.split(":", 1)[1].split()):
                counters["%s.%s" % (group, n)] = int(v)
        for line in self.run_in(host, ["cat", "/proc/net/snmp6"],
                                10).splitlines():
            n, v = line.split()
            counters[n] = int(v)
        return counters

    def link_drops(self, host):
        """The drops of every link of a namespace: {dev: rx+tx dropped}."""
        links = json.loads(run(["ip", "-n", self.ns[host], "-s", "-j",
                                "link", "show"], 10))
        return {l["ifname"]: l["stats64"]["rx"]["dropped"] +
                l["stats64"]["tx"]["dropped"] for l in links}

    def mac(self, host):
        link = json.loads(run(["ip", "-n", self.ns[host], "-j", "link",
                               "show", HOST_DEV[host]], 10))
        return link[0]["address"]
