#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""xskx-bench replays a capture on a veth pair (txonly --pcap-in): tcpdump
on the peer receives every frame, byte for byte as the capture holds it,
loop after loop, and the pace is kept (never faster than asked; how much
slower a loaded machine makes it is not judged).

    check_replay.py BENCH

The capture is crafted here (192.0.2.0/24 -> 198.51.100.0/24, UDP port
4242) and written in pcap's format; tcpdump reads both files, so what is
compared is what a real tool makes of them. Root only (77 otherwise): a
namespace of its own with the veth pair, removed at the end.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

NETNS = "xskx-replay-%d" % os.getpid()
PORT = 4242


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def in_netns(argv):
    return ["ip", "netns", "exec", NETNS] + argv


def frame(i):
    """A UDP/IPv4 frame whose payload carries i, of 60 to 1000 bytes."""
    payload = struct.pack("!I", i) + bytes((i * 7 + k) & 0xff
                                           for k in range(14 + i % 940))
    udp = struct.pack("!HHHH", 1024 + i % 16, PORT, 8 + len(payload), 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + len(payload),
                     0, 0x4000, 64, 17, 0, bytes([192, 0, 2, 1 + i % 8]),
                     bytes([198, 51, 100, 1 + i % 8]))
    s = sum(struct.unpack("!10H", ip))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    ip = ip[:10] + struct.pack("!H", ~s & 0xffff) + ip[12:]
    eth = bytes.fromhex("020000000002" "020000000001" "0800")
    return eth + ip + udp + payload


def write_capture(path, frames, gap_us, link=1, cut=None):
    """frames in pcap's format; frame number cut recorded with 40 bytes."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, link))
        for i, fr in enumerate(frames):
            t = 1700000000 * 1000000 + i * gap_us
            kept = fr[:40] if cut == i + 1 else fr
            f.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(kept),
                                len(fr)) + kept)


def refused(bench, work):
    """Bad captures: exit 1, the file and the frame named; nothing sent."""
    path = os.path.join(work, "bad.pcap")
    frames = [frame(i) for i in range(4)]
    cases = [
        (dict(cut=2), "frame 2: 40 of its"),
        (dict(link=101), "link type RAW"),
        (dict(), "frame 4: 5014 bytes is more than a UMEM frame"),
    ]
    for kwargs, words in cases:
        shown = frames if kwargs else frames[:3] + [frames[3] + bytes(5014 - len(frames[3]))]
        write_capture(path, shown, 1000, **kwargs)
        p = subprocess.run([bench, "--sim", "-t", "--pcap-in", path, "-Q"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 1 or path not in p.stderr or words not in p.stderr:
            fail("%s: exit %d, expected 1 and '%s': %s" %
                 (kwargs, p.returncode, words, p.stderr))
    print("bad captures refused, naming the file and the frame")


def dump(path):
    """tcpdump's reading of a capture, frame by frame, without timestamps."""
    p = subprocess.run(["tcpdump", "-t", "-nn", "-xx", "-r", path],
                       capture_output=True, text=True, check=True)
    frames, cur = [], []
    for line in p.stdout.splitlines():
        if not line.startswith("\t") and cur:
            frames.append("\n".join(cur))
            cur = []
        cur.append(line)
    if cur:
        frames.append("\n".join(cur))
    return frames


def replay(bench, capture, pace, loops, nframes, min_seconds, work):
    received = os.path.join(work, "received.pcap")
    want = nframes * loops
    tcpdump = subprocess.Popen(
        in_netns(["tcpdump", "-i", "xr1", "-U", "-nn", "-c", str(want),
                  "-w", received, "udp", "port", str(PORT)]),
        stderr=subprocess.PIPE, text=True)
    try:
        if "listening on" not in tcpdump.stderr.readline():
            fail("tcpdump did not start")
        start = time.monotonic()
        p = subprocess.run(in_netns(
            [bench, "-i", "xr0", "-t", "--pcap-in", capture, "--pcap-pace",
             pace, "--pcap-loops", str(loops), "-Q", "--json", "-d", "60"]),
            capture_output=True, text=True, timeout=120)
        seconds = time.monotonic() - start
        if p.returncode != 0:
            fail("xskx-bench: exit %d: %s" % (p.returncode, p.stderr))
        summary = json.loads(p.stdout)
        tcpdump.wait(timeout=30)
    finally:
        if tcpdump.poll() is None:
            tcpdump.kill()
            tcpdump.wait()
    if summary["tx_packets"] != want or summary["stopped_by"] != "packets":
        fail("xskx-bench sent %d of %d (stopped by %s)" %
             (summary["tx_packets"], want, summary["stopped_by"]))
    if seconds < min_seconds:
        fail("%d frames at pace %s took %.3f s, under %.3f" %
             (want, pace, seconds, min_seconds))
    sent, got = dump(capture), dump(received)
    if len(got) != want:
        fail("tcpdump received %d of %d frames" % (len(got), want))
    for k, g in enumerate(got):
        if g != sent[k % nframes]:
            fail("received frame %d is not the capture's frame %d:\n%s\n%s"
                 % (k + 1, k % nframes + 1, g, sent[k % nframes]))
    print("pace %s, %d loops: tcpdump received all %d frames as sent, "
          "in %.3f s" % (pace, loops, want, seconds))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory() as work:
        refused(bench, work)
    if os.geteuid() != 0:
        print("SKIP: needs root for the namespace and the veth pair")
        sys.exit(77)
    subprocess.run(["ip", "netns", "add", NETNS], check=True)
    try:
        subprocess.run(in_netns(["sysctl", "-qw",
                                 "net.ipv6.conf.default.disable_ipv6=1"]),
                       check=True)
        subprocess.run(["ip", "-n", NETNS, "link", "add", "xr0", "type",
                        "veth", "peer", "name", "xr1"], check=True)
        for dev in ("xr0", "xr1"):
            subprocess.run(["ip", "-n", NETNS, "link", "set", dev, "up"],
                           check=True)
        with tempfile.TemporaryDirectory() as work:
            capture = os.path.join(work, "in.pcap")
            # 200 frames at 2000 a second, twice: 400 frames, >= 0.1995 s.
            write_capture(capture, [frame(i) for i in range(200)], 1000)
            replay(bench, capture, "2000", 2, 200, 399 / 2000, work)
            # 20 frames 10 ms apart at their own pace: >= 0.19 s.
            write_capture(capture, [frame(i) for i in range(20)], 10000)
            replay(bench, capture, "recorded", 1, 20, 0.19, work)
    finally:
        subprocess.run(["ip", "netns", "del", NETNS])


if __name__ == "__main__":
    main()
