#!/usr/bin/env python3
"""blob_address.py APITRACE_DUMP GLTRACE_DUMP: is any argument that apitrace's recording
holds as data an address in gltrace's, or a string a blob?

Reads `apitrace dump` of both recordings of one program (any options). For each
function, the parameters that apitrace's recording writes as a blob (`name = blob(N)`)
in at least one call are collected; every call of that function in gltrace's recording
whose same parameter is an address (a hex number of 8 digits or more: the process's
pointers, never an offset into a bound buffer, which is small) is counted. The two
recordings need not hold the same calls: the rule is per function and parameter, so it
holds for programs that do not run alike twice.

Likewise a parameter apitrace writes as a string ("...") that gltrace writes as a blob:
apitrace's replayer reads such a value as a string and aborts on a blob (an assertion in
trace::Value::toString), so the trace does not replay there.

Prints one line per (function, parameter) found, with the count and the first call
number, and exits 1; prints a summary and exits 0 when there is none. Arrays and
pointed-to values (`{...}`, `&x`) apitrace writes where gltrace writes an address are
listed too, as notes (exit status unchanged): an output parameter of a query may be
written either way without changing a replay.
"""
import re
import sys

CALL = re.compile(r"^(\d+) (?:@\d+ )?(\w+)\((.*)$")
BLOB = re.compile(r"\b(\w+) = blob\(\d+\)")
DATA = re.compile(r"\b(\w+) = [{&]")
ADDRESS = re.compile(r"\b(\w+) = (0x[0-9a-f]{8,})\b")
STRING = re.compile(r"\b(\w+) = \"")
BLOB_VALUE = re.compile(r"\b(\w+) = (blob)\(\d+\)")


def scan(path, pattern):
    """{function: {parameter}} where pattern's group 1 names a parameter."""
    found = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = CALL.match(line)
            if m:
                for p in pattern.findall(m.group(3)):
                    found.setdefault(m.group(2), set()).add(p)
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: blob_address.py APITRACE_DUMP GLTRACE_DUMP")
    blobs, data = scan(sys.argv[1], BLOB), scan(sys.argv[1], DATA)
    strings = scan(sys.argv[1], STRING)
    bad, notes, kinds = {}, {}, {}
    with open(sys.argv[2], errors="replace") as f:
        for line in f:
            m = CALL.match(line)
            if not m or (m.group(2) not in blobs and m.group(2) not in data and
                         m.group(2) not in strings):
                continue
            fn = m.group(2)
            for param, _ in BLOB_VALUE.findall(m.group(3)):
                if param in strings.get(fn, ()):
                    n, first = kinds.get((fn, param), (0, m.group(1)))
                    kinds[(fn, param)] = (n + 1, first)
            for param, _ in ADDRESS.findall(m.group(3)):
                which = bad if param in blobs.get(fn, ()) else \
                    notes if param in data.get(fn, ()) else None
                if which is not None:
                    n, first = which.get((fn, param), (0, m.group(1)))
                    which[(fn, param)] = (n + 1, first)
    for (fn, param), (n, first) in sorted(notes.items()):
        print(f"blob_address: note: {fn}({param}): an address in {n} call(s) of gltrace's "
              f"recording (first: call {first}), data in apitrace's")
    for (fn, param), (n, first) in sorted(bad.items()):
        print(f"blob_address: {fn}({param}): an address in {n} call(s) of gltrace's recording "
              f"(first: call {first}), a blob in apitrace's")
    for (fn, param), (n, first) in sorted(kinds.items()):
        print(f"blob_address: {fn}({param}): a blob in {n} call(s) of gltrace's recording "
              f"(first: call {first}), a string in apitrace's (its replayer aborts on it)")
    if bad or kinds:
        return 1
    print(f"blob_address: no address where apitrace writes a blob "
          f"({sum(len(v) for v in blobs.values())} blob parameters of {len(blobs)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
