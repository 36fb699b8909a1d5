#!/usr/bin/env python3
"""Compare two GL state dumps (`glretrace -D` JSON): apitrace's and ours.

usage: state_compare.py APITRACE.json OURS.json

Both are read as apitrace's scripts read them (json with strict=False: apitrace writes
raw control characters inside shader strings). Everything but images must be equal
(numbers within jsondiff.py's relative 2^-24), but for the differences TOLERATED lists
with their reasons. Images (objects with "__class__": "image") must have the same keys,
sizes, "__format__" (the internal format's name), "__width__", "__height__" (a slice's),
"__depth__" (slices) and encoding: PNG with the same colour
type (grey, RGB, RGBA), or apitrace's float map with the same channels ("Pf" 1, "PF" 3,
"PX" 4); their pixels may differ in at most 0.1% (PNG: any RGB channel by more than 2
levels; float maps: any channel by more than 1e-6).
Prints each difference; exit 0 when there is none, 1 otherwise, 2 on unreadable input.
"""
import base64
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"))
from compare_png import count_differing, decode_png_bytes  # noqa: E402

# (path pattern, reason): values of the replayer itself, not of the traced program
TOLERATED = [
    (r"parameters/(GL_CONTEXT_FLAGS|GL_DEBUG_OUTPUT|GL_DEBUG_LOGGED_MESSAGES|"
     r"GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH)$",
     "apitrace's glretrace makes debug contexts (to print the driver's messages); ours "
     "makes the contexts the trace asked for"),
    (r"parameters/GL_VERTEX_ATTRIB_ARRAY\d+/GL_VERTEX_ATTRIB_ARRAY_POINTER$",
     "an attribute in client memory points into each replayer's own copy of the data"),
]
FRACTION = 0.001


def tolerated(path):
    return any(re.search(p, path) for p, _ in TOLERATED)


def numbers_equal(a, b):
    if a == b:
        return True
    if a == 0:
        return abs(b) < 2.0 ** -24
    return abs((b - a) / a) < 2.0 ** -24


FLOAT_CHANNELS = {b"Pf": 1, b"PF": 3, b"PX": 4}
PNG_TYPES = {0: "grey", 2: "RGB", 4: "grey+alpha", 6: "RGBA"}


def image_pixels(img):
    """('png TYPE', w, h, list of RGB bytes rows) or ('float map of N', w, h, floats)."""
    data = base64.b64decode(img.get("__data__", ""))
    if data.startswith(b"\x89PNG"):
        w, h, rows = decode_png_bytes(data)
        colour = data[25] if len(data) > 25 else -1  # IHDR's colour type
        return "png " + PNG_TYPES.get(colour, str(colour)), w, h, rows
    m = re.match(rb"(P[fFX])\n(\d+) (\d+)\n(-?[0-9.]+)\n", data)
    if not m:
        raise ValueError("neither a PNG nor a float map")
    n = FLOAT_CHANNELS[m.group(1)]
    w, h = int(m.group(2)), int(m.group(3))
    body = data[m.end():m.end() + 4 * n * w * h]
    if len(body) != 4 * n * w * h:
        raise ValueError("a float map shorter than %dx%dx%d" % (w, h, n))
    return "float map of %d" % n, w, h, struct.unpack("<%df" % (n * w * h), body)


def compare_images(path, a, b, out):
    try:
        ka, wa, ha, pa = image_pixels(a)
        kb, wb, hb, pb = image_pixels(b)
    except ValueError as e:
        out.append(f"{path}: unreadable image: {e}")
        return
    if (ka, wa, ha) != (kb, wb, hb):
        out.append(f"{path}: {ka} {wa}x{ha} against {kb} {wb}x{hb}")
        return
    for k in ("__format__", "__width__", "__height__", "__depth__"):
        if a.get(k) != b.get(k):
            out.append(f"{path}: {k} {a.get(k)} against {b.get(k)}")
    if ka.startswith("float"):
        n = len(pa) // (wa * ha) if wa * ha else 1
        bad = sum(1 for i in range(0, len(pa), n)
                  if any(abs(x - y) > 1e-6 for x, y in zip(pa[i:i + n], pb[i:i + n])))
    else:
        bad, _ = count_differing(pa, pb, wa, 2)
    if bad > FRACTION * wa * ha:
        out.append(f"{path}: {bad} of {wa * ha} pixels differ")


def walk(path, a, b, out):
    if isinstance(a, dict) and a.get("__class__") == "image":
        if not (isinstance(b, dict) and b.get("__class__") == "image"):
            out.append(f"{path}: an image against {str(b)[:60]}")
        else:
            compare_images(path, a, b, out)
        return
    if tolerated(path):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            sub = f"{path}/{k}" if path else k
            if k not in b:
                out.append(f"{sub}: only in apitrace's dump")
            elif k not in a:
                out.append(f"{sub}: only in ours")
            else:
                walk(sub, a[k], b[k], out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} values against {len(b)}")
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                walk(f"{path}[{i}]", x, y, out)
    elif (isinstance(a, (int, float)) and isinstance(b, (int, float))
          and not isinstance(a, bool) and not isinstance(b, bool)):
        if not numbers_equal(a, b):
            out.append(f"{path}: {a} against {b}")
    elif a != b:
        out.append(f"{path}: {str(a)[:60]!r} against {str(b)[:60]!r}")


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            ref = json.load(f, strict=False)
        with open(argv[2], encoding="utf-8") as f:
            ours = json.load(f)  # ours is strict JSON
    except (OSError, ValueError) as e:
        print(f"state_compare: {e}")
        return 2
    out = []
    walk("", ref, ours, out)
    for line in out[:40]:
        print(line)
    if len(out) > 40:
        print(f"... and {len(out) - 40} more")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
