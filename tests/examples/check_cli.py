#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The programs' command line, as an xdpsock user types it.

  check_cli.py xdpsock-flags XSKX_BENCH
      every flag of xdpsock's --help (bpf-examples, AF_XDP-example), in its
      short and its long form: xskx-bench runs with it, or refuses it
      (exit 2) with a message that says why and what to use instead. Flags
      of the kernel backend run on a veth pair in a network namespace of
      the test's own (root; without root they are checked to be refused on
      --sim with their reason)
  check_cli.py queue XSKX_BENCH XSKX_L2FWD
      -q is a queue index in both programs (root: on a 4-queue veth);
      xskx-l2fwd's count is --queues
  check_cli.py queues XSKX_BENCH
      --queues 4 on a 4-queue veth pair (root): a txonly sender on each of
      one end's queues (--rate per queue), a receiver on each of the
      other's; every receiving queue gets its sender's packets and no more
      (veth hands TX queue N to the peer's RX queue N), the queues summing
      to the totals; the combinations --queues refuses, with their reason
  check_cli.py mtu XSKX_BENCH
      txonly with packets larger than the veth's MTU carries: a warning, and
      tx_over_mtu counts every packet sent; none at the MTU (root)
  check_cli.py packet XSKX_BENCH
      txonly's packet as it arrives on the veth peer (an AF_PACKET socket):
      -G, -H, -V, -J, -K, -P and -y's pktgen header (root)
  check_cli.py rx-meta XSKX_BENCH
      --rx-meta on a veth pair (root): rxdrop receiving a txonly sender's
      packets counts a struct in front of every one, with veth's timestamp
      and hash in native mode (-N) and no field in generic mode (-S), no
      VLAN tag (txonly's packet has none)
  check_cli.py translated XSKX_BENCH XSKX_L2FWD
      the library's messages name the programs' flags, not the API's
      options (on lo in a namespace: root)
  check_cli.py tx-kick-defaults XSKX_BENCH
      the TX wakeup defaults xskx-bench's --json reports, and what each
      flag changes of them (simulated NIC)

Exit 0: passed; 1: failed; 77: skipped (a root-only case without root).
"""
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys

NETNS = "xskx-cli-%d" % os.getpid()
RUN = ["-d", "0.3", "-Q"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(argv, timeout=60):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def in_netns(argv):
    return ["ip", "netns", "exec", NETNS] + argv


def is_root():
    return os.geteuid() == 0


class Netns:
    """A namespace with veth pairs, removed on exit whatever happens."""

    def __init__(self, *pairs, queues=1, quiet=False):
        self.pairs = pairs
        self.queues = queues
        self.quiet = quiet

    def __enter__(self):
        subprocess.run(["ip", "netns", "add", NETNS], check=True)
        if self.quiet:
            # No IPv6 on the links: no neighbour discovery or MLD of the
            # kernel's own among the packets a test counts.
            subprocess.run(in_netns(["sysctl", "-qw",
                                     "net.ipv6.conf.default.disable_ipv6=1"]),
                           check=True)
        q = ["numtxqueues", str(self.queues), "numrxqueues", str(self.queues)]
        for a, b in self.pairs:
            subprocess.run(["ip", "-n", NETNS, "link", "add", a] + q +
                           ["type", "veth", "peer", "name", b] + q, check=True)
            for dev in (a, b):
                subprocess.run(["ip", "-n", NETNS, "link", "set", dev, "up"],
                               check=True)
        return self

    def __exit__(self, *exc):
        subprocess.run(["ip", "netns", "del", NETNS])


# xdpsock's flags: (letter, long name, value, what else the case needs,
# where it runs). "sim": with --sim; "kernel": with -i on a veth (refused on
# --sim, saying to use -i); "both": on --sim, and on a veth where the
# library refuses it in the flags' words; "refused": nowhere, with the
# reason's words.
XDPSOCK_FLAGS = [
    ("r", "rxdrop", None, [], "sim"),
    ("t", "txonly", None, [], "sim"),
    ("l", "l2fwd", None, [], "sim"),
    ("i", "interface", "xc0", [], "kernel"),
    ("q", "queue", "0", [], "kernel"),
    ("p", "poll", None, [], "sim"),
    ("S", "xdp-skb", None, [], "kernel"),
    ("N", "xdp-native", None, [], "kernel"),
    ("n", "interval", "0.1", [], "sim"),
    ("O", "retries", "1", ["-t", "-C", "1000"], "sim"),
    ("z", "zero-copy", None, [], "both"),
    ("c", "copy", None, [], "sim"),
    ("f", "frame-size", "2048", [], "sim"),
    ("m", "no-need-wakeup", None, [], "sim"),
    ("u", "unaligned", None, ["-f", "3000"], "sim"),
    ("M", "shared-umem", None, ["-l"], "sim"),
    ("F", "frags", None, ["--pkt-size", "5000"], "sim"),
    ("d", "duration", "0.3", [], "sim"),
    ("w", "clock", "TAI", [], "sim"),
    ("b", "batch-size", "16", [], "sim"),
    ("C", "tx-pkt-count", "1000", ["-t"], "sim"),
    ("s", "tx-pkt-size", "128", ["-t"], "sim"),
    ("P", "tx-pkt-pattern", "0xabcdef01", ["-t"], "sim"),
    ("V", "tx-vlan", None, ["-t"], "sim"),
    ("J", "tx-vlan-id", "5", ["-t", "-V"], "sim"),
    ("K", "tx-vlan-pri", "3", ["-t", "-V"], "sim"),
    ("G", "tx-dmac", "02:aa:bb:cc:dd:ee", ["-t"], "sim"),
    ("H", "tx-smac", "02:11:22:33:44:55", ["-t"], "sim"),
    ("T", "tx-cycle", "1000", ["-t"], "sim"),
    ("y", "tstamp", None, ["-t"], "sim"),
    ("W", "policy", "OTHER", [], "sim"),
    ("U", "schpri", "1", ["-W", "FIFO"], "sim"),
    ("x", "extra-stats", None, [], "sim"),
    ("Q", "quiet", None, [], "sim"),
    ("a", "app-stats", None, [], "sim"),
    ("I", "irq-string", None, [], "kernel"),
    ("B", "busy-poll", None, [], "sim"),
    ("R", "reduce-cap", None, [], "refused"),
]

# What each refusal must say: the reason, and the way out.
REFUSALS = {
    "R": ["control process", "CAP_NET_ADMIN"],
    "i": ["--sim and -i exclude each other"],
    "q": ["-q selects a queue of -i"],
    "S": ["use them with -i"],
    "N": ["use them with -i"],
    "z": ["leave out -z", "-c"],
    "I": ["simulated NIC raises none", "-i"],
}


def irq_string():
    """A string of /proc/interrupts for -I: the local timer's line on x86,
    else the first interrupt's number."""
    with open("/proc/interrupts") as f:
        lines = f.read().splitlines()[1:]
    for line in lines:
        if line.strip().startswith("LOC:"):
            return "LOC:"
    return lines[0].split()[0]


def forms(letter, name, value):
    """The short form and the long one, with the value if it takes one."""
    if letter == "I":
        value = irq_string()
    short = ["-" + letter] + ([value] if value else [])
    long_ = ["--" + name + ("=" + value if value else "")]
    return short, long_


def expect_refusal(what, code, err, letter):
    if code != 2:
        fail("%s: exit %d, expected 2 (refused); stderr: %s" % (what, code, err))
    for words in REFUSALS[letter]:
        if words not in err:
            fail("%s: the refusal does not say %r: %s" % (what, words, err))


def xdpsock_flags(bench):
    root = is_root()
    if not root:
        print("not root: the kernel backend's flags are checked on --sim only")
    cases = 0
    with (Netns(("xc0", "xc1")) if root else open(os.devnull)):
        for letter, name, value, extra, where in XDPSOCK_FLAGS:
            for form in forms(letter, name, value):
                what = "xskx-bench " + " ".join(form + extra)
                if where == "refused":
                    code, _, err = run([bench, "--sim"] + RUN + form + extra)
                    expect_refusal(what, code, err, letter)
                elif where in ("kernel", "both"):
                    code, _, err = run([bench, "--sim"] + RUN + form + extra +
                                       (["-i", "xc0"] if letter == "i" else []))
                    if where == "kernel":
                        expect_refusal(what + " --sim", code, err, letter)
                    elif code != 0:
                        fail("%s --sim: exit %d: %s" % (what, code, err))
                    if not root:
                        continue
                    argv = in_netns([bench] + RUN + form + extra +
                                    ([] if letter == "i" else ["-i", "xc0"]))
                    code, _, err = run(argv)
                    if where == "both":
                        # veth has no zero-copy: the library refuses, in the flags' words.
                        if code != 1 or "XSKX_" in err:
                            fail("%s on veth: exit %d: %s" % (what, code, err))
                        for words in REFUSALS[letter]:
                            if words not in err:
                                fail("%s on veth does not say %r: %s" % (what, words, err))
                    elif code != 0:
                        fail("%s on veth: exit %d: %s" % (what, code, err))
                else:
                    code, _, err = run([bench, "--sim"] + RUN + form + extra)
                    if letter == "U" and not root:
                        # SCHED_FIFO needs CAP_SYS_NICE: the failing call is named.
                        if code != 1 or "sched_setscheduler" not in err:
                            fail("%s without root: exit %d: %s" % (what, code, err))
                    elif code != 0:
                        fail("%s: exit %d: %s" % (what, code, err))
                cases += 1
    # xskx-bench's older names for two of them take their values too.
    code, out, err = run([bench, "--sim", "--batch", "16", "--packets", "1000",
                          "--json"] + RUN)
    if code != 0 or json.loads(out)["batch"] != 16 or \
            json.loads(out)["stopped_by"] != "packets":
        fail("--batch 16 --packets 1000: exit %d: %s %s" % (code, out, err))
    print("%d flags, %d forms: each runs or is refused with its reason" %
          (len(XDPSOCK_FLAGS), cases))


def queue(bench, l2fwd):
    code, _, err = run([l2fwd, "--sim", "-q", "1", "-d", "0.3"])
    if code != 2 or "--queues" not in err:
        fail("xskx-l2fwd --sim -q 1: exit %d, expected a refusal naming --queues: %s"
             % (code, err))
    code, out, err = run([l2fwd, "--sim", "--queues", "2", "-d", "0.5", "--json",
                          "--quiet"])
    if code != 0:
        fail("xskx-l2fwd --sim --queues 2: exit %d: %s" % (code, err))
    queues = sorted({p["queue"] for p in json.loads(out)["ports"]})
    if queues != [0, 1]:
        fail("xskx-l2fwd --sim --queues 2 ran queues %r" % queues)
    if not is_root():
        print("not root: -q on a veth skipped")
        sys.exit(77)
    with Netns(("xq0", "xq1"), queues=4):
        code, out, err = run(in_netns([l2fwd, "-i", "xq0", "-q", "2", "--queues",
                                       "2", "-d", "0.5", "--json", "--quiet"]))
        if code != 0:
            fail("xskx-l2fwd -i xq0 -q 2 --queues 2: exit %d: %s" % (code, err))
        queues = sorted({p["queue"] for p in json.loads(out)["ports"]})
        if queues != [2, 3]:
            fail("xskx-l2fwd -q 2 --queues 2 ran queues %r, expected [2, 3]" % queues)
        code, out, err = run(in_netns([bench, "-i", "xq0", "-q", "3"] + RUN +
                                      ["--json"]))
        if code != 0 or json.loads(out)["queue"] != 3:
            fail("xskx-bench -i xq0 -q 3: exit %d, %s %s" % (code, out, err))
    print("-q is the queue index in both programs; --queues the count")


def mtu(bench):
    if not is_root():
        sys.exit(77)
    with Netns(("xc0", "xc1")):
        # 1518 bytes on the wire: 1514 in the frame, what MTU 1500 carries.
        for size, over in (("1518", False), ("2000", True)):
            code, out, err = run(in_netns([bench, "-i", "xc0", "-t", "-s", size]
                                          + RUN + ["--json"]))
            if code != 0:
                fail("-s %s: exit %d: %s" % (size, code, err))
            summary = json.loads(out)
            warned = "exceed what MTU 1500 of xc0 carries" in err
            if warned != over:
                fail("-s %s: warning %s: %s" % (size, warned, err))
            expected = summary["tx_packets"] if over else 0
            if summary["tx_over_mtu"] != expected or (over and not expected):
                fail("-s %s: tx_over_mtu %d, tx_packets %d" %
                     (size, summary["tx_over_mtu"], summary["tx_packets"]))
    print("a packet larger than the MTU carries is warned about and counted")


ETH_P_ALL = 3
SOL_PACKET = 263
PACKET_AUXDATA = 8


def capture(ifname, count):
    """In the namespace: the first UDP frame to port 4096 on ifname, as JSON."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
    s.bind((ifname, 0))
    s.settimeout(20)
    print("ready", flush=True)
    for _ in range(int(count)):
        data, anc, _, _ = s.recvmsg(65536, socket.CMSG_SPACE(20))
        tci = None
        for level, kind, blob in anc:
            if level == SOL_PACKET and kind == PACKET_AUXDATA:
                status, _, _, _, _, tci, _ = struct.unpack("IIIHHHH", blob[:20])
                tci = tci if status & 0x10 else None  # TP_STATUS_VLAN_VALID
        # The kernel takes the tag off into auxdata; it may also stay inline.
        if data[12:14] == b"\x81\x00":
            tci = struct.unpack("!H", data[14:16])[0]
            data = data[:12] + data[16:]
        if data[12:14] != b"\x08\x00" or data[23] != 17 or data[36:38] != b"\x10\x00":
            continue
        print(json.dumps({"dst": data[0:6].hex(), "src": data[6:12].hex(),
                          "tci": tci, "payload": data[42:62].hex()}))
        return
    print(json.dumps({}))


def packet(bench):
    if not is_root():
        sys.exit(77)
    with Netns(("xc0", "xc1")):
        cap = subprocess.Popen(in_netns([sys.executable, __file__, "capture",
                                         "xc1", "200"]),
                               stdout=subprocess.PIPE, text=True)
        try:
            if cap.stdout.readline().strip() != "ready":
                fail("the capture did not start")
            code, _, err = run(in_netns(
                [bench, "-i", "xc0", "-t", "-G", "02:aa:bb:cc:dd:ee", "-H",
                 "02:11:22:33:44:55", "-V", "-J", "42", "-K", "5", "-P",
                 "0xa1b2c3d4", "-y", "-s", "128", "-C", "20"] + RUN))
            if code != 0:
                fail("xskx-bench: exit %d: %s" % (code, err))
            got = json.loads(cap.stdout.readline() or "{}")
        finally:
            cap.kill()
            cap.wait()
    if not got:
        fail("no UDP frame of xskx-bench arrived on xc1")
    expected = {"dst": "02aabbccddee", "src": "021122334455", "tci": 5 << 13 | 42}
    for key, value in expected.items():
        if got[key] != value:
            fail("%s is %r, expected %r" % (key, got[key], value))
    magic, _, _, _ = struct.unpack("!IIII", bytes.fromhex(got["payload"])[:16])
    if magic != 0xbe9be955:
        fail("no pktgen header after the UDP header: %s" % got["payload"])
    if not got["payload"].endswith("a1b2c3d4"):
        fail("the payload after the pktgen header is not -P's pattern: %s"
             % got["payload"])
    print("txonly's packet carries -G, -H, -V/-J/-K, -y and -P")


def translated(bench, l2fwd):
    code, _, err = run([bench, "--sim", "-f", "3000"] + RUN)
    if code != 1 or "-u" not in err or "-f (--frame-size) 3000" not in err or \
            "XSKX_" in err:
        fail("xskx-bench --sim -f 3000: exit %d: %s" % (code, err))
    code, _, err = run([bench, "--sim", "-t", "--tx-kick-batch", "4096"] + RUN)
    if code != 1 or "--tx-kick-batch 4096" not in err or \
            "(--tx-size)" not in err or "tx_kick" in err:
        fail("xskx-bench --tx-kick-batch 4096: exit %d: %s" % (code, err))
    no_batch = ["--tx-kick-batch", "0", "--tx-kick-usec", "50"]
    code, _, err = run([bench, "--sim", "-t"] + no_batch + RUN)
    if code != 1 or "only with --tx-kick-batch" not in err or "tx_kick" in err:
        fail("xskx-bench %s: exit %d: %s" % (" ".join(no_batch), code, err))
    for program in (l2fwd,):
        code, _, err = run([program, "--sim"] + no_batch + RUN[:2])
        if code != 1 or "only with --tx-kick-batch" not in err or \
                "tx_kick" in err:
            fail("%s %s: exit %d: %s" % (program, " ".join(no_batch), code,
                                         err))
        code, _, err = run([program, "--sim", "--tx-kick-usec", "50"] +
                           RUN[:2])
        if code != 0:
            fail("%s --tx-kick-usec 50 (with the default batch): exit %d: %s"
                 % (program, code, err))
        code, _, err = run([program, "--sim", "--tx-kick-batch", "4096"] +
                           RUN[:2])
        if code != 1 or "--tx-kick-batch 4096" not in err or "tx_kick" in err:
            fail("%s --tx-kick-batch 4096: exit %d: %s" % (program, code, err))
    if not is_root():
        print("not root: lo in a namespace skipped")
        sys.exit(77)
    with Netns():
        subprocess.run(["ip", "-n", NETNS, "link", "set", "lo", "up"], check=True)
        for program in (bench, l2fwd):
            words = "use -F (multi-buffer)"
            code, _, err = run(in_netns([program, "-i", "lo", "-d", "0.3"]))
            if code != 1 or words not in err or "XSKX_SOCKET_MULTI_BUFFER" in err:
                fail("%s -i lo: exit %d: %s" % (program, code, err))
    print("the library's messages name the programs' flags")


def summary_of(code, out, err, what):
    if code != 0:
        fail("%s: exit %d: %s" % (what, code, err))
    return json.loads(out)


def per_queue(obj, key, what, n):
    counts = {q["queue"]: q[key] for q in obj["per_queue"]}
    if sorted(counts) != list(range(n)):
        fail("%s ran queues %r, expected 0..%d" % (what, sorted(counts), n - 1))
    if sum(counts.values()) != obj[key]:
        fail("%s: the queues' %s sum to %d, the total says %d"
             % (what, key, sum(counts.values()), obj[key]))
    return counts


def queues(bench):
    refusals = [(["--compare"], "leave out --queues"),
                (["--sim-deterministic"], "--sim (the NIC on a thread"),
                (["--flows", "1"], "give --flows 2 or more")]
    for extra, words in refusals:
        argv = [bench, "--sim", "--queues", "2", "--flows", "2"] + extra
        code, _, err = run(argv + RUN)
        if code != 2 or words not in err:
            fail("%s: exit %d, expected a refusal saying %r: %s"
                 % (" ".join(argv), code, words, err))
    if not is_root():
        print("not root: --queues on a veth skipped")
        sys.exit(77)
    n = 4
    with Netns(("xm0", "xm1"), queues=n, quiet=True):
        recv = subprocess.Popen(
            in_netns([bench, "-i", "xm0", "-N", "-r", "--queues", str(n),
                      "-d", "4", "--json", "--quiet"]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The receivers' sockets and XDP program are in place after this.
        subprocess.run(["sleep", "1.5"])
        code, out, err = run(in_netns(
            [bench, "-i", "xm1", "-t", "--queues", str(n), "--rate", "20000",
             "-d", "1", "--json", "--quiet"]))
        sent = per_queue(summary_of(code, out, err, "txonly --queues"),
                         "tx_packets", "txonly --queues", n)
        out, err = recv.communicate(timeout=60)
        got = summary_of(recv.returncode, out, err, "rxdrop --queues")
        received = per_queue(got, "rx_packets", "rxdrop --queues", n)
    for q in range(n):
        if not 0 < received[q] <= sent[q]:
            fail("queue %d received %d of the %d its sender sent: %r %r"
                 % (q, received[q], sent[q], received, sent))
    print("--queues %d on veth: sent %r, received %r, lost %d"
          % (n, sent, received, got["lost"]))


def rx_meta(bench):
    if not is_root():
        sys.exit(77)
    fields = {"-N": 1, "-S": 0}  # timestamp and hash on every packet, or none
    for mode, field in fields.items():
        with Netns(("xr0", "xr1"), quiet=True):
            recv = subprocess.Popen(
                in_netns([bench, "-i", "xr0", mode, "-r", "--rx-meta", "-d",
                          "3", "--json", "--quiet"]),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # The receiver's socket and XDP program are in place after this.
            subprocess.run(["sleep", "1.5"])
            code, out, err = run(in_netns(
                [bench, "-i", "xr1", "-t", "--rate", "20000", "-d", "0.5",
                 "--json", "--quiet"]))
            summary_of(code, out, err, "txonly")
            out, err = recv.communicate(timeout=60)
            got = summary_of(recv.returncode, out, err, "rxdrop --rx-meta " + mode)
        counts = got["rx_meta_counts"]
        n = got["rx_packets"]
        want = {"packets": n, "timestamp": field * n, "hash": field * n,
                "vlan_tag": 0}
        if not n or counts != want:
            fail("rxdrop --rx-meta %s: %r for %d packets, expected %r"
                 % (mode, counts, n, want))
        print("--rx-meta %s on veth: %r" % (mode, counts))


def batch_api(bench):
    """--api batch on real AF_XDP sockets: txonly sends, rxdrop and l2fwd
    receive what arrives, l2fwd sends back every packet it received, and
    neither loses track of a frame."""
    if not is_root():
        sys.exit(77)
    with Netns(("xb0", "xb1"), quiet=True):
        for mode in ("-r", "-l"):
            recv = subprocess.Popen(
                in_netns([bench, "-i", "xb0", "-N", mode, "--api", "batch",
                          "-d", "3", "--json", "--quiet"]),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            subprocess.run(["sleep", "1"])
            code, out, err = run(in_netns(
                [bench, "-i", "xb1", "-t", "--api", "batch", "-C", "20000",
                 "--rate", "40000", "--json", "--quiet"]))
            sent = summary_of(code, out, err, "txonly --api batch")
            out, err = recv.communicate(timeout=60)
            got = summary_of(recv.returncode, out, err, mode + " --api batch")
            if "unaccounted" in err or "census counts" in err:
                fail("%s --api batch lost track of frames: %s" % (mode, err))
            if not 0 < got["rx_packets"] <= sent["tx_packets"]:
                fail("%s --api batch received %d of %d" %
                     (mode, got["rx_packets"], sent["tx_packets"]))
            if mode == "-l" and got["tx_packets"] != got["rx_packets"]:
                fail("l2fwd --api batch sent %d of the %d it received" %
                     (got["tx_packets"], got["rx_packets"]))
            print("%s --api batch on veth: sent %d, received %d, sent back %d"
                  % (mode, sent["tx_packets"], got["rx_packets"],
                     got["tx_packets"]))


def tx_kick_defaults(bench):
    """The TX wakeup defaults xskx-bench reports: 64 packets or 50 us; the
    TX ring as the batch where it is smaller; no time limit without a
    batch; what is given kept."""
    expected = [([], 64, 50), (["--tx-size", "32"], 32, 50),
                (["--tx-kick-batch", "0"], 0, 0),
                (["--tx-kick-batch", "8"], 8, 50),
                (["--tx-kick-usec", "0"], 64, 0),
                (["--tx-kick-batch", "16", "--tx-kick-usec", "7"], 16, 7)]
    for flags, batch, usec in expected:
        code, out, err = run([bench, "--sim", "-t"] + flags + RUN + ["--json"])
        if code != 0:
            fail("xskx-bench -t %s: exit %d: %s" % (" ".join(flags), code, err))
        got = json.loads(out)
        if (got["tx_kick_batch"], got["tx_kick_usec"]) != (batch, usec):
            fail("xskx-bench -t %s: tx_kick_batch %d, tx_kick_usec %d; "
                 "expected %d and %d" % (" ".join(flags), got["tx_kick_batch"],
                                         got["tx_kick_usec"], batch, usec))
    print("the TX wakeup defaults and what the flags give")


def fwd_command_line(l2fwd, fw, rules):
    """xskx-l2fwd's and xskx-fw's command lines, parsed by the code they
    share (examples/common/fwd_options.c): --help, an argument left over,
    a combination each refuses in its own words, and --quiet, which leaves
    out the line a second that a run without it prints."""
    for program, args in ((l2fwd, ["--sim"]), (fw, ["--sim", "-r", rules])):
        name = os.path.basename(program)
        code, out, _ = run([program, "--help"])
        if code != 0 or not out.startswith("Usage: %s " % name):
            fail("%s --help: exit %d: %s" % (name, code, out[:80]))
        code, _, err = run([program] + args + ["extra"])
        if code != 2 or err != "%s: unexpected argument extra\n" % name:
            fail("%s ... extra: exit %d: %s" % (name, code, err))
        code, _, err = run([program] + args + ["-i", "lo"])
        if code != 2 or not err.startswith(name + ": --sim and -i"):
            fail("%s --sim -i lo: exit %d: %s" % (name, code, err))
        for quiet, lines in ((["--quiet"], 0), ([], 1)):
            code, out, err = run([program] + args + ["-d", "1.5"] + quiet)
            err = out + err
            # A live line starts with the run's seconds: "   1.0s  1.00s ".
            got = sum(bool(re.match(r" *[0-9.]+s +[0-9.]+s ", line))
                      for line in err.splitlines())
            if code != 0 or (got > 0) != (lines > 0):
                fail("%s -d 1.5 %s: exit %d, %d live lines: %s"
                     % (name, " ".join(quiet), code, got, err))
            # One queue of two simulated ports: no packet without a socket
            # (an interval's losses once read past what loss_since() set).
            if "no socket" in err:
                fail("%s -d 1.5: packets without a socket: %s" % (name, err))
    code, _, err = run([l2fwd, "--reflect"])
    if code != 2 or err != "xskx-l2fwd: name an interface with -i IF1, " \
            "or use --sim\n":
        fail("xskx-l2fwd --reflect: exit %d: %s" % (code, err))
    code, _, err = run([fw, "--sim"])
    if code != 2 or err != "xskx-fw: name the rule file with -r RULES\n":
        fail("xskx-fw --sim: exit %d: %s" % (code, err))
    # SIGHUP while the main thread watches the run (its first line a
    # second says it does, with the signal caught): the rules reloaded.
    p = subprocess.Popen([fw, "--sim", "-r", rules, "-d", "4"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        p.stdout.readline()
        p.send_signal(signal.SIGHUP)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    if p.returncode != 0 or "xskx-fw: reloaded %s" % rules not in err:
        fail("xskx-fw SIGHUP: exit %d: %s" % (p.returncode, err))
    print("xskx-l2fwd's and xskx-fw's shared command line")


def main():
    cases = {"xdpsock-flags": xdpsock_flags, "queue": queue, "queues": queues,
             "batch-api": batch_api,
             "mtu": mtu, "rx-meta": rx_meta,
             "packet": packet, "translated": translated, "capture": capture,
             "tx-kick-defaults": tx_kick_defaults,
             "fwd-command-line": fwd_command_line}
    if len(sys.argv) < 3 or sys.argv[1] not in cases:
        print(__doc__)
        sys.exit(2)
    cases[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
