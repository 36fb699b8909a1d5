#!/usr/bin/env python3
"""apitrace_sigs.py LIB...: the function signatures compiled into apitrace's tracers.

Prints `NAME ARG...` for every function a tracer library (glxtrace.so, egltrace.so)
records, read off its trace::FunctionSig tables: on x86_64 each is {unsigned id;
const char *name; unsigned num_args; const char **arg_names}, its pointers filled by
R_X86_64_RELATIVE relocations (`readelf -rW`) whose addends are the strings' and the
name array's addresses. Used by record_diff.sh (which functions apitrace records at all)
and to keep specs/arg_names.txt true (apitrace's argument names). Standard library and
readelf only.
"""
import re
import struct
import subprocess
import sys

IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
FAKE = {b"memcpy", b"malloc", b"free", b"realloc"}
MAX_ARGS = 64


def readelf(flag, path):
    return subprocess.run(["readelf", flag, path], capture_output=True, text=True,
                          check=True).stdout.splitlines()


class Image:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        self.segs = []  # (vaddr, filesz, offset) of each LOAD segment
        for line in readelf("-lW", path):
            f = line.split()
            if f and f[0] == "LOAD":
                off, vaddr, _, filesz = (int(x, 16) for x in f[1:5])
                self.segs.append((vaddr, filesz, off))
        self.rel = {}  # relocated address -> target address
        for line in readelf("-rW", path):
            f = line.split()
            if len(f) >= 4 and f[2] == "R_X86_64_RELATIVE":
                self.rel[int(f[0], 16)] = int(f[3], 16)

    def off(self, vaddr):
        for va, size, off in self.segs:
            if va <= vaddr < va + size:
                return off + vaddr - va
        return None

    def cstr(self, vaddr):
        o = self.off(vaddr) if vaddr is not None else None
        end = self.data.find(b"\0", o, o + 256) if o is not None else -1
        return self.data[o:end] if end >= 0 else None

    def u32(self, vaddr):
        o = self.off(vaddr)
        return struct.unpack_from("<I", self.data, o)[0] if o is not None else None


def signature_at(img, sig):
    """(name, args) of the FunctionSig at address SIG, or None when it is not one."""
    name = img.cstr(img.rel.get(sig + 8))
    if not name or not IDENT.fullmatch(name) or not (name.startswith(b"gl") or
                                                     name.startswith(b"egl") or name in FAKE):
        return None
    n, pad = img.u32(sig + 16), img.u32(sig + 20)
    if n is None or n > MAX_ARGS or pad != 0:
        return None
    if n == 0:
        return name, ()
    names = img.rel.get(sig + 24)
    if names is None:
        return None
    args = [img.cstr(img.rel.get(names + 8 * i)) for i in range(n)]
    if not all(a and IDENT.fullmatch(a) for a in args):
        return None
    return name, tuple(args)


def signatures(path):
    img = Image(path)
    sigs = {}
    for at in img.rel:
        found = signature_at(img, at - 8)
        if found:
            sigs.setdefault(found[0].decode(), [a.decode() for a in found[1]])
    return sigs


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: apitrace_sigs.py TRACER_LIB...")
    sigs = {}
    for path in sys.argv[1:]:
        sigs.update(signatures(path))
    if not sigs:
        sys.exit(f"apitrace_sigs: no function signatures found in {' '.join(sys.argv[1:])}")
    for name in sorted(sigs):
        print(" ".join([name] + sigs[name]))


if __name__ == "__main__":
    main()
