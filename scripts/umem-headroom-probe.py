#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The largest UMEM headroom this kernel's XDP_UMEM_REG accepts, per chunk
size (docs/KERNEL_RULES.md, "UMEM registration"): registers a 16-chunk
UMEM on an AF_XDP socket with each headroom, bisecting, and prints
"chunk N: largest headroom H (chunk - D)". Needs CAP_NET_RAW (root).

    scripts/umem-headroom-probe.py
"""
import ctypes
import mmap
import os
import platform
import socket
import struct

AF_XDP = 44
SOL_XDP = 283
XDP_UMEM_REG = 4
CHUNKS = 16


def accepts(area_addr, chunk, headroom):
    s = socket.socket(AF_XDP, socket.SOCK_RAW, 0)
    try:
        # struct xdp_umem_reg: addr, len, chunk_size, headroom, flags,
        # tx_metadata_len
        reg = struct.pack("QQIIII", area_addr, chunk * CHUNKS, chunk,
                          headroom, 0, 0)
        s.setsockopt(SOL_XDP, XDP_UMEM_REG, reg)
        return True
    except OSError:
        return False
    finally:
        s.close()


def main():
    print("kernel", platform.release())
    for chunk in (2048, 4096):
        area = mmap.mmap(-1, chunk * CHUNKS)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(area))
        if not accepts(addr, chunk, 0):
            raise SystemExit("XDP_UMEM_REG refuses headroom 0: no AF_XDP?")
        lo, hi = 0, chunk  # lo accepted, hi refused
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if accepts(addr, chunk, mid):
                lo = mid
            else:
                hi = mid
        print("chunk %d: largest headroom %d (chunk - %d)" %
              (chunk, lo, chunk - lo))
        del addr
        area.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
