#!/usr/bin/env python3
"""Compare two PNG images pixel by pixel (python3 stdlib only).

usage: compare_png.py A.png B.png [--tolerance T] [--max-fraction F]

Decodes 8-bit non-interlaced PNGs (grey, grey+alpha, RGB, RGBA, palette; all five row
filters), compares the RGB channels (alpha is ignored; grey is expanded to RGB) and counts the
pixels where any channel differs by more than T (default 2, i.e. 2/255). Prints one line:
    A B: N of TOTAL pixels differ (P%), max channel difference D
Exit status: 0 if N <= F * TOTAL (default F = 0.001, i.e. 0.1%), 1 if not or if the sizes
differ, 2 on a read/decode error.
"""
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(path):
    """Returns (width, height, rows) with rows a list of bytes objects, RGB8 top-down."""
    with open(path, "rb") as f:
        return decode_png_bytes(f.read())


def decode_png_bytes(data):
    """decode_png of a PNG in memory."""
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG")
    pos, idat, palette, ihdr = 8, [], None, None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in %r chunk" % ctype)
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"PLTE":
            palette = body
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if ihdr is None:
        raise ValueError("no IHDR")
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or interlace != 0 or colour not in CHANNELS:
        raise ValueError("unsupported PNG (depth %d, colour type %d, interlace %d)"
                         % (depth, colour, interlace))
    bpp = CHANNELS[colour]
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != (stride + 1) * height:
        raise ValueError("IDAT holds %d bytes, expected %d" % (len(raw), (stride + 1) * height))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            upleft = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + left) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + up) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif ftype == 4:
                line[i] = (line[i] + paeth(left, up, upleft)) & 0xFF
            elif ftype != 0:
                raise ValueError("bad filter type %d in row %d" % (ftype, y))
        prev = line
        if colour == 2:
            rgb = bytes(line)
        elif colour == 6:
            rgb = bytes(b for i, b in enumerate(line) if i % 4 != 3)
        elif colour == 3:
            if palette is None:
                raise ValueError("palette image without PLTE")
            rgb = b"".join(palette[3 * p:3 * p + 3] for p in line)
        else:  # grey (0) or grey+alpha (4)
            rgb = bytes(b for i, b in enumerate(line) if i % bpp == 0 for _ in range(3))
        rows.append(rgb)
    return width, height, rows


def count_differing(rows_a, rows_b, width, tolerance):
    """(pixels where an RGB channel differs by more than TOLERANCE, the largest channel
    difference) of two decoded images of WIDTH."""
    differ, max_diff = 0, 0
    for row_a, row_b in zip(rows_a, rows_b):
        for x in range(0, 3 * width, 3):
            d = max(abs(row_a[x + c] - row_b[x + c]) for c in range(3))
            max_diff = max(max_diff, d)
            if d > tolerance:
                differ += 1
    return differ, max_diff


def main(argv):
    args, tolerance, max_fraction = [], 2, 0.001
    it = iter(argv[1:])
    for a in it:
        if a == "--tolerance":
            tolerance = int(next(it))
        elif a == "--max-fraction":
            max_fraction = float(next(it))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        wa, ha, ra = decode_png(args[0])
        wb, hb, rb = decode_png(args[1])
    except (OSError, ValueError, zlib.error, struct.error) as e:
        sys.stderr.write("compare_png: %s\n" % e)
        return 2
    if (wa, ha) != (wb, hb):
        print("%s %s: sizes differ (%dx%d vs %dx%d)" % (args[0], args[1], wa, ha, wb, hb))
        return 1
    differ, max_diff = count_differing(ra, rb, wa, tolerance)
    total = wa * ha
    print("%s %s: %d of %d pixels differ (%.4f%%), max channel difference %d"
          % (args[0], args[1], differ, total, 100.0 * differ / total, max_diff))
    return 0 if differ <= max_fraction * total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
