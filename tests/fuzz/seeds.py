#!/usr/bin/env python3
# Writes the seed corpus of every fuzz target into corpus/<target>/seed-*:
# crafted inputs in the documentation address ranges (192.0.2.0/24,
# 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32). Inputs the fuzzers found
# (crash-*, regression-*) sit beside them and are kept by hand. Run it again
# after changing a harness's input layout: python3 tests/fuzz/seeds.py
import ipaddress
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
MAC_A = bytes.fromhex("020000000001")
MAC_B = bytes.fromhex("020000000002")


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def ip4(a):
    return ipaddress.IPv4Address(a).packed


def ip6(a):
    return ipaddress.IPv6Address(a).packed


def eth(ethertype, vlans=()):
    h = MAC_B + MAC_A
    for tpid, vid in vlans:
        h += struct.pack("!HH", tpid, vid)
    return h + struct.pack("!H", ethertype)


def ipv4(src, dst, proto, payload, options=b"", frag=0):
    ihl = 5 + len(options) // 4
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(options) +
                    len(payload), 1, frag, 64, proto, 0, ip4(src), ip4(dst))
    return h + options + payload


def ipv6(src, dst, nh, payload):
    return struct.pack("!IHBB16s16s", 0x60000000, len(payload), nh, 64,
                       ip6(src), ip6(dst)) + payload


def udp(sport, dport, payload=b"xskx-fuzz"):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def tcp(sport, dport):
    return struct.pack("!HHIIBBHHH", sport, dport, 1, 0, 0x50, 0x02, 8192,
                       0, 0)


def packet_seeds():
    write("packet", "ipv4-udp", eth(0x0800) + ipv4(
        "192.0.2.1", "198.51.100.2", 17, udp(1234, 53)))
    write("packet", "ipv4-tcp-options-padded", eth(0x0800) + ipv4(
        "203.0.113.5", "192.0.2.9", 6, tcp(40000, 443),
        options=b"\x01\x01\x01\x00") + bytes(6))
    write("packet", "qinq-ipv6-icmpv6", eth(0x86dd, [(0x88a8, 10),
                                                     (0x8100, 20)]) +
          ipv6("2001:db8::1", "2001:db8::2", 58,
               struct.pack("!BBHHH", 128, 0, 0, 1, 1)))
    # Hop-by-hop, then a first fragment (offset 0, more fragments), UDP.
    hbh = struct.pack("!BB6s", 44, 0, bytes(6))
    frag = struct.pack("!BBHI", 17, 0, 1, 7)
    write("packet", "ipv6-hbh-frag-udp", eth(0x86dd) + ipv6(
        "2001:db8:1::10", "2001:db8:2::20", 0, hbh + frag + udp(5000, 6000)))
    write("packet", "ipv4-later-fragment", eth(0x0800) + ipv4(
        "198.51.100.7", "203.0.113.8", 17, bytes(16), frag=0x0002))
    write("packet", "ipv4-truncated-udp", (eth(0x0800) + ipv4(
        "192.0.2.1", "192.0.2.2", 17, udp(1, 2)))[:14 + 20 + 4])
    write("packet", "arp", eth(0x0806) + struct.pack(
        "!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, MAC_A, ip4("192.0.2.1"),
        bytes(6), ip4("192.0.2.2")))


def prefix_seeds():
    for name, text in [("v4-24", "192.0.2.0/24"), ("v4-host", "198.51.100.7"),
                       ("v4-25", "203.0.113.128/25"), ("v6-32", "2001:db8::/32"),
                       ("v6-host", "2001:db8::1"), ("v6-zero", "::/0"),
                       ("v4-host-bits", "192.0.2.1/24"), ("v4-len-33", "192.0.2.0/33")]:
        write("prefix", "text-" + name, b"\x00" + text.encode())
    # struct xskx_prefix: family (AF_INET 2, AF_INET6 10), len, addr[16].
    write("prefix", "struct-v4-24",
          b"\x01" + bytes([2, 24]) + ip4("192.0.2.0") + bytes(12))
    write("prefix", "struct-v6-48",
          b"\x01" + bytes([10, 48]) + ip6("2001:db8:1::"))


def fw_rules_seeds():
    write("fw_rules", "good", b"""# xskx-fw rules
deny src 192.0.2.0/24
deny dst 2001:db8:bad::/48
allow src 198.51.100.0/24 dst 203.0.113.0/24 proto tcp port 80-443
deny proto udp port 53
allow proto icmp
default allow
""")
    write("fw_rules", "overlapping-stage1", b"""deny src 198.51.100.0/24
deny src 198.51.100.128/25
allow src 192.0.2.0/25
deny src 192.0.2.0/24
deny dst 192.0.2.128/25
default deny
""")
    write("fw_rules", "errors", b"""deny src 192.0.2.1/24
allow proto sctp
deny port 22
deny src 192.0.2.0/24 dst 2001:db8::/32
allow src 198.51.100.0/24 src 203.0.113.0/24
drop everything
default maybe
""")


def opts_seeds():
    def le32(*values):
        return b"".join(struct.pack("<I", v) for v in values)

    def fill(size, fields, how=0):
        body = bytearray(size - 8)
        for off, value in fields.items():
            body[off - 8:off - 4] = le32(value)
        return bytes([how]) + bytes(body)

    port_default = fill(56, {}) + b"\x01"
    umem_small = fill(48, {24: 64, 28: 2048, 36: 64, 40: 64}) + b"\x01"
    # port byte 0: the fuzzed port; rx/tx 64, refill 8, fill_max 32
    sock = b"\x00" + fill(96, {28: 64, 32: 64, 44: 8, 52: 32})
    sock_q1 = b"\x01" + fill(96, {24: 0, 28: 64, 32: 64, 36: 1})
    write("opts", "two-sockets", port_default + umem_small + sock + sock_q1)
    # A caller's area of 64 KiB, page-aligned (offset byte odd), unaligned
    # chunks of 3000 bytes: 21 frames, the area's tail unused.
    umem_area = fill(48, {16: 65536, 28: 3000, 44: 1}) + b"\x00\x01"
    write("opts", "caller-area-unaligned", port_default + umem_area + sock)
    # sz one struct too large with a non-zero tail: -E2BIG.
    umem_tail = fill(48, {24: 64}, how=4 | 2) + b"\x05" * 32 + b"\x07" + b"\x01"
    write("opts", "umem-nonzero-tail", port_default + umem_tail)
    port_4q = fill(56, {16: 4, 24: 256, 28: 64}) + b"\x00"
    sock_q3 = b"\x00" + fill(96, {24: 3, 28: 2048, 32: 2048})
    write("opts", "four-queues", port_4q + umem_small + sock_q3 + sock)


def tx_seeds():
    # setup byte: bit0 copy mode, bit1 small hw TX ring, bit2 headroom,
    # bit3 unaligned, (>>3)%n frame size, bit4 multi-buffer, >>5 TX size.
    alloc = b"\x00\x08"
    poll, reclaim, stall = b"\x02", b"\x03", b"\x04"

    def pkt(frame, offset, length, contd=False):
        kind = 0x01 | (0x10 if contd else 0)
        return bytes([kind, frame]) + struct.pack(">HH", offset, length)

    def burst(*pkts):
        return b"\x01" + bytes([len(pkts)]) + b"".join(pkts)

    write("tx", "zero-copy-burst", b"\x40" + alloc +
          burst(pkt(0, 256, 60), pkt(1, 256, 1500), pkt(2, 0, 2048)) +
          poll + reclaim)
    write("tx", "copy-bad-descs", b"\x41" + alloc +
          burst(pkt(0, 256, 60), pkt(1, 2000, 100), pkt(2, 0, 0)) +
          burst(pkt(1, 2000, 100)) + poll + reclaim)
    write("tx", "multi-buffer-chain", b"\x50" + alloc +
          burst(pkt(0, 256, 1000, True), pkt(1, 0, 1000, True),
                pkt(2, 0, 500)) + poll + reclaim)
    write("tx", "stalled-full-ring", b"\x02" + stall + alloc + alloc +
          burst(*[pkt(i, 256, 64) for i in range(8)]) + poll + stall + poll)
    write("tx", "unaligned-3072", b"\x2c" + alloc +
          burst(pkt(0, 3000, 72), pkt(1, 100, 2900)) + poll + reclaim)


def csum_seeds():
    # Byte 0: cuts (bits 0-1) and "make partial" (bit 7); two 16-bit cuts.
    def head(flags, a=0, b=0):
        return struct.pack("!BHH", flags, a, b)
    v4_udp = eth(0x0800) + ipv4("192.0.2.1", "198.51.100.2", 17,
                                udp(1234, 53, b"xskx-fuzz-odd"))
    v4_tcp = eth(
        0x0800, [(0x8100, 10)]) + ipv4("203.0.113.5", "192.0.2.9", 6,
                                       tcp(40000, 443) + b"payload")
    hbh = struct.pack("!BB6s", 6, 0, bytes(6))
    v6_tcp = eth(0x86dd, [(0x88a8, 10), (0x8100, 20)]) + ipv6(
        "2001:db8::1", "2001:db8::2", 0, hbh + tcp(5000, 80) + b"x" * 33)
    write("csum", "ipv4-udp-partial", head(0x80) + v4_udp)
    write("csum", "ipv4-udp-complete", head(0) + v4_udp)
    write("csum", "vlan-ipv4-tcp-partial-chain", head(0x82, 60, 61) + v4_tcp)
    write("csum", "qinq-ipv6-hbh-tcp-partial-chain",
          head(0x81, 14 + 8 + 40 + 8 + 20 + 3) + v6_tcp)


def capture_seeds():
    # Whole capture files, as the reader takes them from a path.
    frames = [eth(0x0800) + ipv4("192.0.2.1", "198.51.100.2", 17,
                                 udp(1234, 53, b"xskx-fuzz")),
              eth(0x86dd, [(0x8100, 7)]) + ipv6(
                  "2001:db8::1", "2001:db8::2", 6, tcp(5000, 80)),
              eth(0x0806) + bytes(28)]

    def pcap(link=1, snap=65535, cut=None):
        out = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, snap, link)
        for i, f in enumerate(frames):
            cap = f if cut != i else f[:20]
            out += struct.pack("<IIII", 1700000000, i * 1000, len(cap),
                               len(f)) + cap
        return out

    def block(kind, body):
        body += bytes(-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", kind, n) + body + struct.pack("<I", n)

    def pcapng():
        shb = block(0x0a0d0d0a, struct.pack("<IHHq", 0x1a2b3c4d, 1, 0, -1))
        idb = block(1, struct.pack("<HHI", 1, 0, 65535))
        epbs = b"".join(block(6, struct.pack(
            "<IIIII", 0, 0, i * 1000, len(f), len(f)) + f)
            for i, f in enumerate(frames))
        return shb + idb + epbs

    write("capture", "pcap", pcap())
    write("capture", "pcapng", pcapng())
    write("capture", "raw-link-type", pcap(link=101))
    write("capture", "snaplen-cut", pcap(cut=1))
    write("capture", "truncated", pcap()[:-10])


packet_seeds()
csum_seeds()
prefix_seeds()
fw_rules_seeds()
opts_seeds()
tx_seeds()
capture_seeds()
