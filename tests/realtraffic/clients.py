# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The ordinary clients, run across a Bump (bump.py): ping, iperf3, curl
against python3 -m http.server. Each returns what it measured; a client
that does not complete raises bump.Failure."""
import json
import re
import time

from bump import ADDR4, ADDR6, Failure

# One iperf3 server per client run: a server still closing the last run
# ("the server is busy running a test") never meets the next one.
IPERF_PORT = 5201
IPERF_SERVERS = 4
HTTP_PORT = 8080


def ping(bump, addr, count, interval, size=56, deadline=30):
    """ping from A to addr: {"sent", "received", "rtt_ms": [...]}."""
    argv = ["ping", "-n", "-c", str(count), "-i", str(interval), "-s",
            str(size), "-w", str(deadline), "-M", "do", addr]
    out = bump.run_in("a", argv, deadline + 10, check=False)
    m = re.search(r"(\d+) packets transmitted, (\d+) received", out)
    if not m:
        raise Failure("%s: no summary: %r" % (" ".join(argv), out[-300:]))
    return {"sent": int(m.group(1)), "received": int(m.group(2)),
            "rtt_ms": [float(x) for x in re.findall(r"time=([0-9.]+) ms",
                                                     out)]}


def start_servers(bump, limit, http_dir=None):
    """IPERF_SERVERS iperf3 -s, from IPERF_PORT on, and, with http_dir, an
    HTTP server of it, in B."""
    ports = [IPERF_PORT + i for i in range(IPERF_SERVERS)]
    for port in ports:
        bump.start_in("b", "iperf3 -s", ["iperf3", "-s", "-p", str(port)],
                      limit)
    if http_dir:
        ports.append(HTTP_PORT)
        bump.start_in("b", "http.server",
                      ["python3", "-m", "http.server", "-d", http_dir,
                       "-b", "::", str(HTTP_PORT)], limit)
    # They listen within a second; wait for the sockets rather than guess.
    for _ in range(100):
        out = bump.run_in("b", ["ss", "-Hltn"], 10)
        listening = set(int(p) for p in re.findall(r":(\d+)\s", out))
        if listening.issuperset(ports):
            return
        time.sleep(0.1)
    raise Failure("the servers in B did not listen within 10 s")


def iperf3(bump, seconds, args=(), server=0, addr=ADDR4["b"]):
    """An iperf3 client in A, to server number `server` (of IPERF_SERVERS):
    its JSON result, checked for an error."""
    argv = ["iperf3", "-c", addr, "-p", str(IPERF_PORT + server),
            "-t", str(seconds),
            "-J", "--connect-timeout", "5000"] + list(args)
    out = bump.run_in("a", argv, seconds + 30, check=False)
    try:
        result = json.loads(out)
    except ValueError:
        raise Failure("%s: no JSON result: %r" % (" ".join(argv), out[-300:]))
    if "error" in result:
        raise Failure("%s: %s" % (" ".join(argv), result["error"]))
    return result


def tcp_goodput(result):
    """Bits per second the receiver got (iperf3 -J, TCP)."""
    return result["end"]["sum_received"]["bits_per_second"]


def udp_loss(result):
    """(datagrams sent, lost) of a UDP run, as the server counted them."""
    s = result["end"]["sum"]
    return s["packets"], s["lost_packets"]


def download(bump, url, expect_sha256, seconds=60):
    """curl url in A, its sha256 compared with expect_sha256."""
    argv = ["bash", "-c", 'set -o pipefail; curl -sS -f --max-time %d -g '
            '"$1" | sha256sum' % seconds, "curl", url]
    out = bump.run_in("a", argv, seconds + 10)
    got = out.split()[0] if out.split() else ""
    if got != expect_sha256:
        raise Failure("curl %s: sha256 %s, the file's is %s" %
                      (url, got or "(nothing)", expect_sha256))


def http_url(family, name):
    host = ADDR4["b"] if family == 4 else "[%s]" % ADDR6["b"]
    return "http://%s:%d/%s" % (host, HTTP_PORT, name)
