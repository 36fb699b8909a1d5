#!/usr/bin/env python3
"""Write hand-made apitrace files for the bad_input_cli test.

usage: make_bad_traces.py OUTDIR

Every file is a Snappy container ("at" + [uint32 LE length][raw Snappy block]...)
whose blocks are written as plain literals, so no Snappy library is needed.  The
stream follows apitrace's docs/FORMAT.markdown (version 6).

Files written:
  good.trace            a valid two-call trace (control: must dump with exit 0)
  bad_*.trace           each breaks one rule; readers must refuse them with an error
The list of bad files is printed on stdout, one name per line.
"""
import os
import struct
import sys

# ---- stream grammar ---------------------------------------------------------------

EVENT_ENTER, EVENT_LEAVE = 0, 1
CALL_END, CALL_ARG, CALL_RET = 0, 1, 2
TYPE_UINT, TYPE_STRING, TYPE_BLOB, TYPE_ARRAY = 4, 7, 8, 11

ABSURD = 1 << 40  # far more than any file here holds


def uint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def string(s, declared=None):
    if isinstance(s, str):
        s = s.encode()
    return uint(len(s) if declared is None else declared) + s


def header(props=(("process.name", "/usr/bin/crafted"),), version=6, raw_props=None):
    out = uint(version)
    if version >= 6:
        out += uint(version)  # semantic version
        if raw_props is not None:
            out += raw_props
        else:
            for name, value in props:
                out += string(name) + string(value)
            out += string("")
    return out


class Sigs:
    def __init__(self):
        self.ids = {}

    def func(self, name, args, declared_name_len=None):
        if name in self.ids:
            return uint(self.ids[name])
        i = self.ids[name] = len(self.ids)
        out = uint(i) + string(name, declared_name_len) + uint(len(args))
        for a in args:
            out += string(a)
        return out


def call(sigs, no, name, argnames, argvalues, ret=None, thread=0):
    """An enter event and its leave event (call numbers are implicit)."""
    out = bytes([EVENT_ENTER]) + uint(thread) + sigs.func(name, argnames)
    for i, v in enumerate(argvalues):
        out += bytes([CALL_ARG]) + uint(i) + v
    out += bytes([CALL_END])
    out += bytes([EVENT_LEAVE]) + uint(no)
    if ret is not None:
        out += bytes([CALL_RET]) + ret
    out += bytes([CALL_END])
    return out


def v_uint(n):
    return bytes([TYPE_UINT]) + uint(n)


def v_string(s, declared=None):
    return bytes([TYPE_STRING]) + string(s, declared)


# ---- Snappy container --------------------------------------------------------------


def snappy_literals(data, declared_len=None, tail=b""):
    """A raw Snappy block made only of literal elements (plus optional raw tail)."""
    out = bytearray(uint(len(data) if declared_len is None else declared_len))
    for i in range(0, len(data), 60):
        piece = data[i:i + 60]
        out.append((len(piece) - 1) << 2)
        out += piece
    return bytes(out) + tail


def container(blocks):
    out = bytearray(b"at")
    for b in blocks:
        out += struct.pack("<I", len(b)) + b
    return bytes(out)


# ---- the files ---------------------------------------------------------------------


def good_stream():
    s = Sigs()
    return header() + call(s, 0, "glFoo", ["x", "label"], [v_uint(5), v_string("hi")]) + \
        call(s, 1, "glBar", ["n"], [v_uint(7)], ret=v_uint(1))


def main():
    outdir = sys.argv[1]
    files = {}

    files["good.trace"] = container([snappy_literals(good_stream())])

    s = Sigs()
    first = header() + call(s, 0, "glFoo", ["x", "label"], [v_uint(5), v_string("hi")])
    # a string argument whose length is absurd (the file ends long before)
    files["bad_string_len.trace"] = container([snappy_literals(
        first + bytes([EVENT_ENTER]) + uint(0) + s.func("glFoo", []) + bytes([CALL_ARG]) +
        uint(1) + v_string(b"abc", declared=ABSURD) + bytes(64))])
    # a header property name with an absurd length
    files["bad_property_len.trace"] = container([snappy_literals(
        header(raw_props=string(b"process.name", declared=ABSURD) + bytes(64)))])
    # a function name with an absurd length
    s2 = Sigs()
    files["bad_funcname_len.trace"] = container([snappy_literals(
        header() + bytes([EVENT_ENTER]) + uint(0) +
        s2.func("glFoo" + "x" * 40, ["x"], declared_name_len=ABSURD) + bytes(64))])
    # an array and a blob with absurd element counts / sizes
    s3 = Sigs()
    files["bad_array_len.trace"] = container([snappy_literals(
        first + bytes([EVENT_ENTER]) + uint(0) + s.func("glFoo", []) + bytes([CALL_ARG]) +
        uint(0) + bytes([TYPE_ARRAY]) + uint(ABSURD) + v_uint(1) * 16)])
    files["bad_blob_len.trace"] = container([snappy_literals(
        header() + bytes([EVENT_ENTER]) + uint(0) + s3.func("glData", ["data"]) +
        bytes([CALL_ARG]) + uint(0) + bytes([TYPE_BLOB]) + uint(ABSURD) + bytes(64))])
    # an unknown value type byte
    files["bad_value_type.trace"] = container([snappy_literals(
        first + bytes([EVENT_ENTER]) + uint(0) + s.func("glFoo", []) + bytes([CALL_ARG]) +
        uint(0) + bytes([0x42]) + bytes(16))])
    # an unknown event byte
    files["bad_event.trace"] = container([snappy_literals(first + bytes([0x07]) + bytes(16))])
    # a trace version newer than any reader knows
    files["bad_version.trace"] = container([snappy_literals(header(version=99) + bytes(8))])
    # Snappy: the block declares more bytes than its elements produce
    files["bad_snappy_length.trace"] = container([snappy_literals(
        good_stream(), declared_len=len(good_stream()) + 1000)])
    # Snappy: a copy element that reaches back before the start of the output
    files["bad_snappy_copy.trace"] = container([snappy_literals(
        good_stream(), declared_len=len(good_stream()) + 8,
        tail=bytes([(8 - 1) << 2 | 2]) + struct.pack("<H", 0xFFFF))])

    os.makedirs(outdir, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
    for name in files:
        if name.startswith("bad_"):
            print(name)


if __name__ == "__main__":
    main()
