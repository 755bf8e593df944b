#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""xskx-l2fwd and xskx-fw on veth pairs write what they forward
(--pcap-out) and xskx-fw what it denies (--pcap-drops, pcapng with the
rule as each frame's comment), off the data path.

    check_pcap_writer.py L2FWD FW

Crafted frames (documentation addresses only) go into one veth pair of a
namespace of this script's own; the program forwards between it and a
second pair. tcpdump -r reads the files back byte for byte as the frames
were sent, in order; tshark shows each denied frame's rule. Probe frames,
sent until one gets through, tell when the program is ready; they are
allowed and forwarded, and the comparison leaves them out. A run with a
one-frame queue must account for every forwarded frame, written or
counted as queue_full. Bad paths: an unwritable --pcap-out is refused at
once naming the file; a failing disk (/dev/full) is reported naming the
file and the run still ends when asked; the writer's flags are refused
where no writer runs (--sim's --pcap-out is the simulated NIC's). Root only (77 otherwise).
"""
import ctypes
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

NETNS = "xskx-pcapw-%d" % os.getpid()
CLONE_NEWNET = 0x40000000
PROBE_PORT, TEST_PORT, DENIED_PORT = 4000, 4242, 9999
RULES = """# check_pcap_writer.py
deny src 198.51.100.0/24
deny proto udp port 9999
allow src 192.0.2.0/24
default deny
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def in_netns(argv):
    return ["ip", "netns", "exec", NETNS] + argv


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp4(src, dst, dport, i, size):
    payload = struct.pack("!I", i) + bytes((i * 5 + k) & 0xff
                                           for k in range(size))
    udp = struct.pack("!HHHH", 1024 + i % 16, dport, 8 + len(payload), 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + len(payload),
                     i & 0xffff, 0x4000, 64, 17, 0, socket.inet_aton(src),
                     socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return bytes.fromhex("020000000002" "020000000001" "0800") + ip + udp + payload


def udp6(i):
    payload = struct.pack("!I", i) + bytes(40)
    udp = struct.pack("!HHHH", 1024, TEST_PORT, 8 + len(payload), 0)
    ip6 = struct.pack("!IHBB16s16s", 0x60000000, len(udp) + len(payload), 17,
                      64, socket.inet_pton(socket.AF_INET6, "2001:db8::1"),
                      socket.inet_pton(socket.AF_INET6, "2001:db8::2"))
    return bytes.fromhex("020000000002" "020000000001" "86dd") + ip6 + udp + payload


def not_ip(i):
    return (bytes.fromhex("020000000002" "020000000001" "88b5") +
            struct.pack("!I", i) + bytes(range(56)))


def probe(i):
    return udp4("192.0.2.200", "203.0.113.1", PROBE_PORT, i, 20)


def is_probe(frame):
    return len(frame) >= 38 and frame[12:14] == b"\x08\x00" and \
        struct.unpack("!H", frame[36:38])[0] == PROBE_PORT


def tcpdump_frames(path):
    """The frames of a capture as tcpdump -xx prints them, as bytes."""
    p = subprocess.run(["tcpdump", "-nn", "-xx", "-r", path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("tcpdump -r %s: %s" % (path, p.stderr))
    frames = []
    for line in p.stdout.splitlines():
        if not line.startswith("\t"):
            frames.append(b"")
            continue
        hexpart = line.split(":", 1)[1].strip().split("  ")[0]
        frames[-1] += bytes.fromhex(hexpart.replace(" ", ""))
    return frames


def tshark_comments(path):
    p = subprocess.run(["tshark", "-r", path, "-T", "fields",
                        "-e", "frame.comment"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("tshark -r %s: %s" % (path, p.stderr))
    return p.stdout.splitlines()


class Port:
    """An AF_PACKET socket on one veth end in the namespace."""

    def __init__(self, ifname):
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                               socket.htons(3))
        self.s.bind((ifname, 0))
        self.s.setblocking(False)

    def send(self, frame):
        self.s.send(frame)

    def received(self, want, seconds):
        """Frames received until want(frames) or seconds passed."""
        got, end = [], time.monotonic() + seconds
        while not want(got) and time.monotonic() < end:
            if select.select([self.s], [], [], 0.05)[0]:
                try:
                    got.append(self.s.recv(65536))
                except BlockingIOError:
                    pass
        return got


def start(argv):
    return subprocess.Popen(in_netns(argv), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stop(prog):
    prog.send_signal(signal.SIGINT)
    try:
        out, err = prog.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        prog.kill()
        prog.communicate()
        fail("the program did not stop within 60 s of SIGINT")
    return prog.returncode, out, err


def wait_ready(src, dst, prog):
    """Probes until one arrives through the program (at most 30 s)."""
    for i in range(300):
        if prog.poll() is not None:
            fail("the program ended: %s" % prog.communicate()[1])
        src.send(probe(i))
        if dst.received(lambda g: any(is_probe(f) for f in g), 0.1):
            return
    fail("no probe went through the program in 30 s")


def run(argv, frames, forwarded):
    """Start argv, send frames in at a0 once it forwards, wait for the
    allowed ones at b0 (forwarded), stop it; its exit, stdout, stderr."""
    a0, b0 = Port("pw-a0"), Port("pw-b0")
    prog = start(argv)
    try:
        wait_ready(a0, b0, prog)
        for f in frames:
            a0.send(f)
        mine = set(forwarded)
        got = b0.received(lambda g: sum(f in mine for f in g) >= len(mine),
                          30)
        if sum(f in mine for f in got) < len(mine):
            fail("%d of %d allowed frames arrived at pw-b0" %
                 (sum(f in mine for f in got), len(mine)))
    finally:
        if prog.poll() is None:
            code, out, err = stop(prog)
        else:
            code, out, err = prog.returncode, *prog.communicate()
    return code, out, err


def without_probes(frames):
    return [f for f in frames if not is_probe(f)]


def l2fwd_writes_forwarded(l2fwd, work):
    out = os.path.join(work, "l2fwd.pcap")
    frames = [udp4("192.0.2.%d" % (1 + i % 8), "198.51.100.9", TEST_PORT, i,
                   10 + i * 13) for i in range(40)] + [udp6(i) for i in range(4)]
    code, stdout, err = run([l2fwd, "-i", "pw-a1", "-o", "pw-b1", "--pcap-out",
                             out, "--json", "--quiet"], frames, frames)
    if code != 0:
        fail("xskx-l2fwd: exit %d: %s" % (code, err))
    got = tcpdump_frames(out)
    if without_probes(got) != frames:
        fail("xskx-l2fwd's --pcap-out holds %d frames besides the probes, "
             "not the %d sent, byte for byte" %
             (len(without_probes(got)), len(frames)))
    cap = json.loads(stdout)["captures"]["forwarded"]
    if cap["written"] != len(got) or cap["queue_full"] or cap["unwritten"]:
        fail("xskx-l2fwd's summary: %s, the file %d frames" % (cap, len(got)))
    print("xskx-l2fwd --pcap-out: %d frames written, the %d sent among them "
          "byte for byte, in order" % (len(got), len(frames)))


def fw_writes_forwarded_and_drops(fw, work):
    rules = os.path.join(work, "fw.rules")
    with open(rules, "w") as f:
        f.write(RULES)
    out = os.path.join(work, "fw.pcap")
    drops = os.path.join(work, "drops.pcapng")
    sent, allowed, denied = [], [], []
    kinds = [
        (lambda i: udp4("192.0.2.1", "203.0.113.5", TEST_PORT, i, 30), None),
        (lambda i: udp4("198.51.100.7", "203.0.113.5", TEST_PORT, i, 30),
         "line 2: deny src 198.51.100.0/24"),
        (lambda i: udp4("192.0.2.2", "203.0.113.5", DENIED_PORT, i, 30),
         "line 3: deny proto udp port 9999"),
        (not_ip, "default deny: not IP"),
        (udp6, "default deny: no rule matched"),
    ]
    for i in range(50):
        make, note = kinds[i % len(kinds)]
        frame = make(i)
        sent.append(frame)
        (denied if note else allowed).append((frame, note))
    code, stdout, err = run([fw, "-i", "pw-a1", "-o", "pw-b1", "-r", rules,
                             "--pcap-out", out, "--pcap-drops", drops,
                             "--json", "--quiet"], sent,
                            [f for f, _ in allowed])
    if code != 0:
        fail("xskx-fw: exit %d: %s" % (code, err))
    got = without_probes(tcpdump_frames(out))
    if got != [f for f, _ in allowed]:
        fail("xskx-fw's --pcap-out holds %d frames besides the probes, not "
             "the %d allowed" % (len(got), len(allowed)))
    got = tcpdump_frames(drops)
    if got != [f for f, _ in denied]:
        fail("xskx-fw's --pcap-drops holds %d frames, not the %d denied, "
             "byte for byte" % (len(got), len(denied)))
    notes = tshark_comments(drops)
    if notes != [n for _, n in denied]:
        fail("tshark reads the drops' comments as %s, not %s" %
             (notes[:5], [n for _, n in denied][:5]))
    caps = json.loads(stdout)["captures"]
    if caps["drops"]["written"] != len(denied):
        fail("xskx-fw's summary: %s" % caps)
    print("xskx-fw: --pcap-out holds the %d allowed frames, --pcap-drops the "
          "%d denied, each with its rule in tshark: %s" %
          (len(allowed), len(denied), sorted(set(notes))))


def tiny_queue_counts(l2fwd, work):
    """A one-frame queue: every forwarded frame written or counted."""
    out = os.path.join(work, "tiny.pcap")
    frames = [udp4("192.0.2.3", "198.51.100.9", TEST_PORT, i, 200)
              for i in range(2000)]
    code, stdout, err = run([l2fwd, "-i", "pw-a1", "-o", "pw-b1", "--pcap-out",
                             out, "--pcap-queue", "1", "--json", "--quiet"],
                            frames, [])
    if code != 0:
        fail("xskx-l2fwd --pcap-queue 1: exit %d: %s" % (code, err))
    summary = json.loads(stdout)
    cap = summary["captures"]["forwarded"]
    tx = sum(p["tx"] for p in summary["ports"])
    written = len(tcpdump_frames(out))
    if summary["captures"]["queue"] != 1 or \
            summary["captures"]["snaplen"] != 9216:
        fail("--pcap-queue 1: the summary says %s" % summary["captures"])
    if cap["written"] != written or cap["written"] + cap["queue_full"] != tx:
        fail("--pcap-queue 1: %s, %d sent on, %d in the file" %
             (cap, tx, written))
    if "--pcap-out %s: wrote %d frames; not written: %d (the queue was full)" \
            % (out, written, cap["queue_full"]) not in err:
        fail("--pcap-queue 1: the counts are not on stderr: %s" % err)
    print("--pcap-queue 1: %d forwarded, %d written, %d counted queue_full"
          % (tx, written, cap["queue_full"]))


def bad_paths(l2fwd, fw, work):
    p = subprocess.run(in_netns([l2fwd, "-i", "pw-a1", "-o", "pw-b1",
                                 "--pcap-out", "/nonexistent-xskx/out.pcap",
                                 "-d", "30"]),
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 1 or "--pcap-out /nonexistent-xskx/out.pcap: " \
            "cannot create it: No such file or directory" not in p.stderr:
        fail("unwritable --pcap-out: exit %d: %s" % (p.returncode, p.stderr))
    rules = os.path.join(work, "deny.rules")
    with open(rules, "w") as f:
        f.write("default deny\n")
    start_t = time.monotonic()
    p = subprocess.run([fw, "--sim", "-r", rules, "--pcap-drops", "/dev/full",
                        "-d", "2", "--quiet"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 1 or "--pcap-drops /dev/full: a write failed; frames " \
            "from now on are counted, not written: No space left on device" \
            not in p.stderr:
        fail("--pcap-drops /dev/full: exit %d: %s" % (p.returncode, p.stderr))
    p = subprocess.run([l2fwd, "--sim", "--pcap-out", os.path.join(work, "s.pcap"),
                        "--pcap-snaplen", "100", "-d", "1"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 2 or "--sim's --pcap-out writes whole frames" \
            not in p.stderr:
        fail("--sim --pcap-snaplen: exit %d: %s" % (p.returncode, p.stderr))
    print("unwritable path refused at once; a full disk reported, the run "
          "ended after %.1f s of -d 2" % (time.monotonic() - start_t))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    l2fwd, fw = sys.argv[1:]
    if os.geteuid() != 0:
        print("SKIP: needs root for the namespace and the veth pairs")
        sys.exit(77)
    subprocess.run(["ip", "netns", "add", NETNS], check=True)
    try:
        subprocess.run(in_netns(["sysctl", "-qw",
                                 "net.ipv6.conf.default.disable_ipv6=1"]),
                       check=True)
        for pair in ("a", "b"):
            subprocess.run(["ip", "-n", NETNS, "link", "add", "pw-%s0" % pair,
                            "type", "veth", "peer", "name", "pw-%s1" % pair],
                           check=True)
            for end in "01":
                subprocess.run(["ip", "-n", NETNS, "link", "set",
                                "pw-%s%s" % (pair, end), "up"], check=True)
        # The sockets: opened inside the namespace.
        fd = os.open("/run/netns/" + NETNS, os.O_RDONLY)
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.setns(fd, CLONE_NEWNET) != 0:
            fail("setns: %s" % os.strerror(ctypes.get_errno()))
        os.close(fd)
        with tempfile.TemporaryDirectory() as work:
            l2fwd_writes_forwarded(l2fwd, work)
            fw_writes_forwarded_and_drops(fw, work)
            tiny_queue_counts(l2fwd, work)
            bad_paths(l2fwd, fw, work)
    finally:
        subprocess.run(["ip", "netns", "del", NETNS])


if __name__ == "__main__":
    main()
