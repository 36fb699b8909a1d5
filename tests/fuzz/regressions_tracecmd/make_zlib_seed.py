#!/usr/bin/env python3
"""Makes seed_zlib_v7.dat: a file of our writer (tracecmd_tool write OUT 20) with its
metadata sections and CPU data compressed with zlib, laid out as trace-cmd 3 lays out
compressed files (Debian's trace-cmd is built without zlib, so it cannot make one).
usage: make_zlib_seed.py IN.dat OUT.dat"""
import struct
import sys
import zlib

PAGE = 4096


def sections(d, at):
    out = []
    while at + 16 <= len(d):
        sid, flags, desc, size = struct.unpack_from('<HHIQ', d, at)
        out.append((sid, desc, d[at + 16:at + 16 + size]))
        at += 16 + size
    return out


def options(body):
    at, out = 0, []
    while at < len(body):
        oid, size = struct.unpack_from('<HI', body, at)
        out.append((oid, body[at + 6:at + 6 + size]))
        at += 6 + size
    return out


def main():
    d = open(sys.argv[1], 'rb').read()
    head_end = d.index(b'none\0\0') + 6
    secs = sections(d, head_end + 8)
    opts = options(next(s[2] for s in secs if s[0] == 0))
    buf = next(o[1] for o in opts if o[0] == 3)
    fly_off = struct.unpack_from('<Q', buf, 0)[0]
    ncpu = struct.unpack_from('<I', buf, 8 + 1 + 6 + 4)[0]
    cpus = [struct.unpack_from('<IQQ', buf, 23 + 20 * i) for i in range(ncpu)]

    out = bytearray(d[:head_end - 6] + b'zlib\0' + b'1.2.13\0' + b'\0' * 8)
    offs = {}
    for sid, desc, body in secs:
        if 16 <= sid <= 21:
            offs[sid] = len(out)
            z = zlib.compress(body)
            out += struct.pack('<HHIQII', sid, 1, desc, 8 + len(z), len(z), len(body)) + z
    opt_at = len(out)
    opt_desc = next(s[1] for s in secs if s[0] == 0)
    opt_size = len(next(s[2] for s in secs if s[0] == 0))
    fly_at = opt_at + 16 + opt_size
    data = bytearray()
    start = (fly_at + 16 + PAGE - 1) // PAGE * PAGE
    new_cpus = []
    for cpu, off, size in cpus:
        raw = d[off:off + size]
        chunks = [raw[i:i + 2 * PAGE] for i in range(0, len(raw), 2 * PAGE)]
        blob = b''.join(struct.pack('<II', len(z), len(c)) + z
                        for c in chunks for z in [zlib.compress(c)])
        new_cpus.append((cpu, start + len(data) if size else 0, len(blob) if size else 0))
        if size:
            data += struct.pack('<I', len(chunks)) + blob
    new_opts = bytearray()
    for oid, body in opts:
        if 16 <= oid <= 21:
            body = struct.pack('<Q', offs[oid])
        elif oid == 3:
            body = (struct.pack('<Q', fly_at) + buf[8:23] +
                    b''.join(struct.pack('<IQQ', *c) for c in new_cpus))
        new_opts += struct.pack('<HI', oid, len(body)) + body
    assert len(new_opts) == opt_size
    out += struct.pack('<HHIQ', 0, 0, opt_desc, len(new_opts)) + new_opts
    fly_desc = next(s[1] for s in secs if s[0] == 3)
    pad = start - (fly_at + 16)
    out += struct.pack('<HHIQ', 3, 1, fly_desc, pad + len(data)) + b'\0' * pad + data
    for sid, desc, body in secs:
        if sid == 15:
            z = zlib.compress(body)
            out += struct.pack('<HHIQII', sid, 1, desc, 8 + len(z), len(z), len(body)) + z
    struct.pack_into('<Q', out, head_end - 6 + 5 + 7, opt_at)
    open(sys.argv[2], 'wb').write(out)


main()
