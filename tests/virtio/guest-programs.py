#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The programs on virtio_net, inside the guest of scripts/virtio-zc.sh
(guest-suite.sh runs it after the scenarios): one line per case in
RESULTS, "NAME PASS" or "NAME FAIL why", which CTest's
virtio_programs.NAME read (result.sh).

    guest-programs.py RESULTS XSKX_BENCH XSKX_L2FWD XSKX_FW

ZERO_COPY_DETECTED  without -z or -c the library binds in zero-copy
COPY_FORCED         -c binds in copy mode on a driver that has zero-copy
ZC_MULTI_BUFFER     virtio_net's zero-copy takes no multi-buffer: -F -z is
                    refused naming it, -F alone binds in copy mode
RXDROP_TXONLY_ZC    txonly -z sends exactly N packets, all completed;
                    rxdrop -z on the other NIC receives exactly those N
BENCH_L2FWD_ZC      xskx-bench l2fwd -z on virtio-c sends back each of N
                    numbered frames from virtio-e, once, in order, its
                    MACs swapped and the rest intact
L2FWD_SEQUENCE      xskx-l2fwd between virtio-c and virtio-d, both in
                    zero-copy: N numbered frames from virtio-e reach
                    virtio-f once each, in order, byte for byte, and M
                    back the other way; its counters say as much
FW_VERDICTS         xskx-fw between the same two, in zero-copy, on mixed
                    frames: exactly the allowed ones arrive, in order and
                    intact; stage 1 (XDP) and stage 2 counted what each
                    dropped

The end hosts virtio-e and virtio-f send and receive with AF_PACKET
sockets: the guest's stack has no address on them and IPv6 is off, so
nothing else crosses those wires. Frames go in windows of WINDOW, each
waited for before the next: under TCG the forwarders move a few thousand
packets a second, and a window is always within their rings.
"""
import json
import select
import signal
import socket
import struct
import subprocess
import sys
import time

PACKETS = 2000
A, B = "virtio-a", "virtio-b"
# The two-port programs forward between C and D; E and F are the hosts.
C, D, E, F = "virtio-c", "virtio-d", "virtio-e", "virtio-f"
FRAMES = 512
WINDOW = 32
MAGIC = b"xskx-virtio-seq"
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
FW_RULES = """deny src 198.51.100.0/24
deny proto udp port 9
allow src 192.0.2.0/24
default deny
"""


def summary(out):
    """The program's summary: its JSON object."""
    return json.loads(out)


def run(bench, *args, timeout=120):
    p = subprocess.run([bench, "--json", *args], capture_output=True,
                       text=True, timeout=timeout, check=False)
    if p.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (" ".join(args),
                                                   p.returncode,
                                                   p.stderr.strip()[-300:]))
    return summary(p.stdout)


def zero_copy_detected(bench):
    s = run(bench, "-i", B, "-r", "-d", "1")
    if s["zero_copy"] is not True:
        raise AssertionError("zero_copy %r without -z or -c" % s["zero_copy"])


def copy_forced(bench):
    s = run(bench, "-i", B, "-r", "-c", "-d", "1")
    if s["zero_copy"] is not False:
        raise AssertionError("zero_copy %r with -c" % s["zero_copy"])


def records(proc, limit_s):
    """The JSON records proc prints (--json-lines), each as it comes, for
    at most limit_s seconds."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [],
                                    max(0.0, end - time.monotonic()))
        if not ready:
            return
        line = proc.stdout.readline()
        if not line:
            return
        if line.startswith("{"):
            yield json.loads(line)


def zc_multi_buffer(bench):
    p = subprocess.run([bench, "-i", B, "-r", "-z", "-F", "-d", "1"],
                       capture_output=True, text=True, timeout=120,
                       check=False)
    if p.returncode != 1 or "not for multi-buffer" not in p.stderr:
        raise AssertionError("-F -z: exit %d, expected 1 and the reason: %s"
                             % (p.returncode, p.stderr.strip()[-300:]))
    s = run(bench, "-i", B, "-r", "-F", "-d", "1")
    if s["zero_copy"] is not False:
        raise AssertionError("zero_copy %r with -F" % s["zero_copy"])


def rxdrop_txonly_zc(bench):
    # The receiver's socket must be bound before the first packet: its XDP
    # program drops nothing, a packet before it goes to the stack and is
    # not counted. Running waits for its first interval record; startup
    # under TCG beside other work took from 2 to over 10 seconds.
    rx = Running([bench, "-i", B, "-r", "-z", "-d", "300"])
    try:
        tx = run(bench, "-i", A, "-t", "-z", "-C", str(PACKETS))
        # Until the receiver has counted them all, or 30 s.
        for r in records(rx.proc, 30):
            if r["record"] == "interval" and r["rx_packets"] >= PACKETS:
                break
    finally:
        r = rx.stop()
    got = {"tx zero_copy": tx["zero_copy"], "tx_packets": tx["tx_packets"],
           "tx_completed": tx["tx_completed"], "rx zero_copy": r["zero_copy"],
           "rx_packets": r["rx_packets"]}
    want = {"tx zero_copy": True, "tx_packets": PACKETS,
            "tx_completed": PACKETS, "rx zero_copy": True,
            "rx_packets": PACKETS}
    if got != want:
        raise AssertionError("expected %s, got %s" % (want, got))


def csum16(data):
    """The Internet checksum of data."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ip(text):
    return socket.inet_aton(text)


def udp_frame(seq, src="192.0.2.1", dst="192.0.2.2", dport=7,
              macs=(b"\x02\0\0\0\0\x0f", b"\x02\0\0\0\0\x0e")):
    """An Ethernet/IPv4/UDP frame numbered seq, every checksum right."""
    payload = MAGIC + struct.pack("!I", seq) + bytes(range(64))
    udp_len = 8 + len(payload)
    pseudo = ip(src) + ip(dst) + struct.pack("!BBH", 0, 17, udp_len)
    udp = struct.pack("!HHHH", 40000, dport, udp_len, 0) + payload
    udp = udp[:6] + struct.pack("!H", csum16(pseudo + udp) or 0xFFFF) + \
        udp[8:]
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, seq & 0xFFFF,
                      0, 64, 17, 0, ip(src), ip(dst))
    hdr = hdr[:10] + struct.pack("!H", csum16(hdr)) + hdr[12:]
    return macs[0] + macs[1] + b"\x08\x00" + hdr + udp


def seq_of(frame):
    """The number a udp_frame() carries, or None for any other frame."""
    at = frame.find(MAGIC)
    if at < 0:
        return None
    return struct.unpack("!I", frame[at + len(MAGIC):at + len(MAGIC) + 4])[0]


def packet_socket(dev):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((dev, ETH_P_ALL))
    return s


def receive(sock, count, limit_s):
    """Up to count numbered frames that arrived on sock (not those it
    sent), waiting at most limit_s for each."""
    got = []
    while len(got) < count:
        ready, _, _ = select.select([sock], [], [], limit_s)
        if not ready:
            break
        frame, addr = sock.recvfrom(65536)
        if addr[2] != PACKET_OUTGOING and seq_of(frame) is not None:
            got.append(frame)
    return got


def exchange(tx, rx, frames, expect):
    """Send frames on tx in windows; after each, wait for the frames of it
    that expect(frame) says must arrive on rx. Returns what arrived, a
    last second's stragglers included."""
    got = []
    for start in range(0, len(frames), WINDOW):
        window = frames[start:start + WINDOW]
        for frame in window:
            tx.send(frame)
        got += receive(rx, sum(1 for f in window if expect(f)), 20)
    return got + receive(rx, len(frames), 1)


def compare(what, got, want):
    """got must be want: the same frames, once each, in order."""
    if got == want:
        return
    seqs = [seq_of(f) for f in got]
    want_seqs = [seq_of(f) for f in want]
    if seqs != want_seqs:
        raise AssertionError("%s: %d frames arrived, %d expected; first "
                             "numbers %s, expected %s" % (
                                 what, len(got), len(want), seqs[:8],
                                 want_seqs[:8]))
    bad = next(i for i in range(len(got)) if got[i] != want[i])
    raise AssertionError("%s: frame %d changed on the way: %s != %s" % (
        what, seqs[bad], got[bad].hex(), want[bad].hex()))


class Running:
    """A program started with --json-lines, running once its first interval
    record came; stop() ends it with SIGINT and returns its summary."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv + ["--json-lines"],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        for r in records(self.proc, 180):
            if r["record"] == "interval":
                return
        self.stop()
        raise AssertionError("%s printed no interval in 180 s: %s" % (
            argv[0], self.err.strip()[-300:]))

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        out, self.err = self.proc.communicate(timeout=60)
        if self.proc.returncode != 0:
            raise AssertionError("exited %d: %s" % (self.proc.returncode,
                                                    self.err.strip()[-300:]))
        return [json.loads(line) for line in out.splitlines()
                if line.startswith("{")][-1]


def bench_l2fwd_zc(progs):
    fwd = Running([progs["bench"], "-i", C, "-l", "-z", "-d", "600"])
    try:
        with packet_socket(E) as e:
            frames = [udp_frame(k) for k in range(FRAMES)]
            got = exchange(e, e, frames, lambda f: True)
    finally:
        s = fwd.stop()
    # l2fwd sends each frame back with its MAC addresses swapped.
    compare("back on virtio-e", got,
            [f[6:12] + f[0:6] + f[12:] for f in frames])
    counts = {"zero_copy": s["zero_copy"], "rx_packets": s["rx_packets"],
              "tx_packets": s["tx_packets"]}
    if counts != {"zero_copy": True, "rx_packets": FRAMES,
                  "tx_packets": FRAMES}:
        raise AssertionError("xskx-bench counted %s" % counts)


def zero_copy_everywhere(what, entries):
    modes = [q.get("zero_copy") for q in entries]
    if modes != [True, True]:
        raise AssertionError("%s: zero_copy %r, expected [True, True]" %
                             (what, modes))


def l2fwd_sequence(progs):
    fwd = Running([progs["l2fwd"], "-i", C, "-o", D, "-d", "600"])
    back = FRAMES // 4
    try:
        with packet_socket(E) as e, packet_socket(F) as f:
            there = [udp_frame(k) for k in range(FRAMES)]
            got_there = exchange(e, f, there, lambda fr: True)
            again = [udp_frame(FRAMES + k, "192.0.2.2", "192.0.2.1")
                     for k in range(back)]
            got_back = exchange(f, e, again, lambda fr: True)
    finally:
        s = fwd.stop()
    compare("virtio-e to virtio-f", got_there, there)
    compare("virtio-f to virtio-e", got_back, again)
    zero_copy_everywhere("xskx-l2fwd", s["ports"])
    total = {k: s["total"][k] for k in ("rx", "tx", "lost")}
    if total != {"rx": FRAMES + back, "tx": FRAMES + back, "lost": 0}:
        raise AssertionError("xskx-l2fwd counted %s" % total)


def fw_verdicts(progs):
    rules = "/tmp/xskx-virtio-fw.rules"
    with open(rules, "w", encoding="utf-8") as r:
        r.write(FW_RULES)
    # Cycling through: allowed, stage 1's prefix, stage 2's port, the
    # default.
    kinds = [dict(), dict(src="198.51.100.1"), dict(dport=9),
             dict(src="203.0.113.1")]
    frames = [udp_frame(k, **kinds[k % 4]) for k in range(FRAMES)]
    allowed = [fr for k, fr in enumerate(frames) if k % 4 == 0]
    fw = Running([progs["fw"], "-i", C, "-o", D, "-r", rules, "-d", "600"])
    try:
        with packet_socket(E) as e, packet_socket(F) as f:
            got = exchange(e, f, frames, lambda fr: fr in allowed)
    finally:
        s = fw.stop()
    compare("allowed, virtio-e to virtio-f", got, allowed)
    zero_copy_everywhere("xskx-fw", s["per_queue"])
    counts = {"stage1": s["stage1_dropped"]["packets"],
              "allowed": s["stage2"]["allowed"]["packets"],
              "denied": s["stage2"]["denied"]["packets"]}
    want = {"stage1": FRAMES // 4, "allowed": FRAMES // 4,
            "denied": FRAMES // 2}
    if counts != want:
        raise AssertionError("xskx-fw counted %s, expected %s" % (counts,
                                                                  want))


CASES = {
    "ZERO_COPY_DETECTED": lambda p: zero_copy_detected(p["bench"]),
    "COPY_FORCED": lambda p: copy_forced(p["bench"]),
    "ZC_MULTI_BUFFER": lambda p: zc_multi_buffer(p["bench"]),
    "RXDROP_TXONLY_ZC": lambda p: rxdrop_txonly_zc(p["bench"]),
    "BENCH_L2FWD_ZC": bench_l2fwd_zc,
    "L2FWD_SEQUENCE": l2fwd_sequence,
    "FW_VERDICTS": fw_verdicts,
}


def main():
    results = sys.argv[1]
    progs = dict(zip(("bench", "l2fwd", "fw"), sys.argv[2:5]))
    with open(results, "w", encoding="utf-8") as f:
        for name, case in CASES.items():
            try:
                case(progs)
                line = "%s PASS" % name
            except (AssertionError, subprocess.TimeoutExpired, ValueError,
                    KeyError, OSError) as e:
                line = "%s FAIL %s" % (name, str(e).replace("\n", " "))
            print(line, flush=True)
            f.write(line + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
