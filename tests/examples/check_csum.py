#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Partial checksums from a real stack, through a forwarder on veth.

  check_csum.py [--mtu 9000] PROGRAM [ARGS...]

Three network namespaces of the test's own: host A and host B, each with
an ordinary stack and its veth end at default offloads (TX checksum
offload on, so what they send carries partial checksums), and between
them the forwarder, PROGRAM -i fa -o fb ARGS, in the third:

  A: ha 192.0.2.1, 2001:db8::1  <->  fa [PROGRAM] fb  <->  hb 192.0.2.2, 2001:db8::2 :B

A sends UDP datagrams over IPv4 and IPv6 with ordinary sockets and opens
a TCP connection to B that carries a few bytes each way. Every datagram
must arrive, the connection must complete, B's UdpInCsumErrors and
TcpInCsumErrors must not rise, and the program's JSON summary must count
the checksums it completed. Then the same with --no-csum-complete: the
datagrams must now arrive with bad checksums (UdpInCsumErrors rises by
their number), which shows the traffic did carry partial checksums and
the flag turns the completion off.

With --mtu 9000 every link is at MTU 9000 and the datagrams are 8000
bytes: they reach the forwarder as multi-buffer chains (give it -F).

Root only; exit 77 (skipped) otherwise. Every loop is bounded in time.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

PID = os.getpid()
NS = {k: "xskx-csum-%s-%d" % (k, PID) for k in ("a", "b", "fwd")}
DATAGRAMS = 20
PORT = 9000
MTU = 1500
WARNING = "its veth peer offloads TX checksums"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sh(*argv, ns=None, check=True):
    if ns:
        argv = ("ip", "netns", "exec", NS[ns]) + argv
    return subprocess.run(argv, capture_output=True, text=True, check=check,
                          timeout=30)


def setup():
    for ns in NS.values():
        sh("ip", "netns", "add", ns)
    for host, fwd in (("a", "fa"), ("b", "fb")):
        h = "h" + host
        sh("ip", "-n", NS["fwd"], "link", "add", fwd, "type", "veth",
           "peer", "name", h, "netns", NS[host])
        sh("ip", "-n", NS["fwd"], "link", "set", fwd, "mtu", str(MTU), "up")
        sh("ip", "-n", NS[host], "link", "set", "lo", "up")
        n = "1" if host == "a" else "2"
        sh("ip", "-n", NS[host], "addr", "add", "192.0.2.%s/24" % n, "dev", h)
        sh("ip", "-n", NS[host], "addr", "add", "2001:db8::%s/64" % n,
           "dev", h, "nodad")
        sh("ip", "-n", NS[host], "link", "set", h, "mtu", str(MTU), "up")
    # The forwarder's ends carry no addresses and send nothing of their own.
    for fwd in ("fa", "fb"):
        sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % fwd, ns="fwd")
    # The end hosts' TX checksum offload is veth's default: say so.
    out = sh("ethtool", "-k", "ha", ns="a", check=False).stdout
    if "tx-checksumming: on" not in out and out:
        fail("host A's veth does not offload TX checksums: %s" % out)


def teardown():
    for ns in NS.values():
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def snmp(ns, proto, field):
    lines = [l.split() for l in sh("cat", "/proc/net/snmp", ns=ns)
             .stdout.splitlines() if l.startswith(proto + ":")]
    return int(lines[1][lines[0].index(field)])


def snmp6(ns, field):
    for l in sh("cat", "/proc/net/snmp6", ns=ns).stdout.splitlines():
        name, value = l.split()
        if name == field:
            return int(value)
    return 0


def errors():
    return (snmp("b", "Udp", "InCsumErrors") + snmp6("b", "Udp6InCsumErrors")
            + snmp("b", "Tcp", "InCsumErrors"))


def start_forwarder(argv):
    p = subprocess.Popen(["ip", "netns", "exec", NS["fwd"]] + argv +
                         ["-i", "fa", "-o", "fb", "--json", "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if p.poll() is not None:
            fail("%s exited early: %s" % (argv[0], p.stderr.read()))
        links = sh("ip", "-d", "link", "show", ns="fwd").stdout
        if links.count("prog/xdp") >= 2:
            return p
        time.sleep(0.1)
    p.kill()
    fail("%s attached no XDP program in 20 s" % argv[0])


def stop_forwarder(p):
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("the forwarder did not stop on SIGINT")
    if p.returncode != 0:
        fail("the forwarder exited %d: %s" % (p.returncode, err))
    return json.loads(out), err


def csum_completed(summary):
    ports = summary.get("ports", [])
    return sum(port.get("csum_completed", 0) for port in ports)


def zero_copy(summary):
    """Each queue's socket mode: xskx-fw's per_queue, xskx-l2fwd's ports."""
    return [q.get("zero_copy") for q in
            summary.get("per_queue") or summary.get("ports", [])]


def in_ns(ns, mode, *args):
    return ["ip", "netns", "exec", NS[ns], sys.executable, __file__,
            "--" + mode] + [str(a) for a in args]


def warm_up():
    """Neighbours resolved and the forwarder passing pings, within 20 s."""
    for dst in ("192.0.2.2", "2001:db8::2"):
        deadline = time.monotonic() + 20
        while sh("ping", "-c", "1", "-W", "1", dst, ns="a",
                 check=False).returncode != 0:
            if time.monotonic() > deadline:
                fail("no ping reply from %s through the forwarder" % dst)


def traffic(expect_delivered):
    """UDP over both families from A to B, then TCP if it should pass."""
    got = 0
    warm_up()
    for family, dst in (("4", "192.0.2.2"), ("6", "2001:db8::2")):
        recv = subprocess.Popen(in_ns("b", "udp-recv", family, DATAGRAMS),
                                stdout=subprocess.PIPE, text=True)
        if recv.stdout.readline().strip() != "bound":
            fail("the UDP receiver did not start")
        sh(*in_ns("a", "udp-send", family, dst, DATAGRAMS,
                  8000 if MTU > 1500 else 20))
        out, _ = recv.communicate(timeout=30)
        got += int(out.strip() or 0)
    if not expect_delivered:
        return got
    if got != 2 * DATAGRAMS:
        fail("%d of %d datagrams arrived" % (got, 2 * DATAGRAMS))
    server = subprocess.Popen(in_ns("b", "tcp-echo"), stdout=subprocess.PIPE,
                              text=True)
    time.sleep(0.3)
    client = sh(*in_ns("a", "tcp-call", "192.0.2.2"), check=False)
    server.communicate(timeout=30)
    if client.returncode != 0 or client.stdout.strip() != "echo ok":
        fail("TCP through the forwarder failed: %s %s" % (client.stdout,
                                                          client.stderr))
    return got


def check(argv):
    before = errors()
    p = start_forwarder(argv)
    try:
        traffic(True)
    except SystemExit:
        print("the forwarder's totals: %s" %
              json.dumps(stop_forwarder(p)[0].get("total")))
        raise
    summary, err = stop_forwarder(p)
    if WARNING in err:
        fail("a partial-checksum warning without --no-csum-complete: " + err)
    # veth has no zero-copy: every socket in copy mode, and said so.
    if zero_copy(summary) != [False, False]:
        fail("zero_copy %r on veth: expected [False, False]" %
             zero_copy(summary))
    if errors() != before:
        fail("B counted %d checksum errors" % (errors() - before))
    # The datagrams and at least the SYN, the data and its echo.
    if csum_completed(summary) < 2 * DATAGRAMS + 3:
        fail("csum_completed %d: expected at least %d" %
             (csum_completed(summary), 2 * DATAGRAMS + 3))
    print("%s: %d datagrams and a TCP exchange arrived, %d checksums "
          "completed" % (argv[0], 2 * DATAGRAMS, csum_completed(summary)))

    before = errors()
    p = start_forwarder(argv + ["--no-csum-complete"])
    got = traffic(False)
    summary, err = stop_forwarder(p)
    # Both ends' peers offload TX checksums (default offloads).
    if err.count(WARNING) != 2:
        fail("--no-csum-complete: expected a warning for each port, got: "
             + err)
    bad = errors() - before
    if got != 0 or bad != 2 * DATAGRAMS or csum_completed(summary) != 0:
        fail("--no-csum-complete: %d arrived, %d checksum errors, %d "
             "completed; expected 0, %d, 0" %
             (got, bad, csum_completed(summary), 2 * DATAGRAMS))
    print("--no-csum-complete: every datagram dropped by B for its checksum")


# Helpers run inside a namespace.

def udp_recv(family, count):
    af = socket.AF_INET if family == "4" else socket.AF_INET6
    s = socket.socket(af, socket.SOCK_DGRAM)
    s.bind(("", PORT))
    print("bound", flush=True)
    s.settimeout(3)
    got = 0
    try:
        while got < int(count):
            s.recv(65536)
            got += 1
    except socket.timeout:
        pass
    print(got)


def udp_send(family, dst, count, size):
    af = socket.AF_INET if family == "4" else socket.AF_INET6
    s = socket.socket(af, socket.SOCK_DGRAM)
    for i in range(int(count)):
        # Odd and even lengths, so that the sum's last word varies.
        s.sendto(b"xskx-csum-%d-" % i + b"x" * (int(size) + i % 7),
                 (dst, PORT))
        time.sleep(0.01)


def tcp_echo():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", PORT))
    s.listen(1)
    s.settimeout(20)
    c, _ = s.accept()
    c.settimeout(20)
    c.sendall(c.recv(64))
    c.close()


def tcp_call(dst):
    deadline = time.monotonic() + 15
    while True:  # until the server listens
        try:
            s = socket.create_connection((dst, PORT), timeout=15)
            break
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    s.sendall(b"ok")
    print("echo " + s.recv(64).decode())


def main():
    helpers = {"--udp-recv": udp_recv, "--udp-send": udp_send,
               "--tcp-echo": tcp_echo, "--tcp-call": tcp_call}
    if len(sys.argv) > 1 and sys.argv[1] in helpers:
        helpers[sys.argv[1]](*sys.argv[2:])
        return
    global MTU
    args = sys.argv[1:]
    if args[:1] == ["--mtu"] and len(args) > 1:
        MTU = int(args[1])
        args = args[2:]
    if not args:
        print("usage: check_csum.py [--mtu 9000] PROGRAM [ARGS...]",
              file=sys.stderr)
        sys.exit(2)
    if os.geteuid() != 0:
        print("skipped: root only (network namespaces)")
        sys.exit(77)
    try:
        setup()
        check([os.path.abspath(args[0])] + args[1:])
    finally:
        teardown()


if __name__ == "__main__":
    main()
