#!/usr/bin/env python3
"""Is the dump of a cut trace compatible with the dump of the whole trace?

usage: check_prefix.py FULL_DUMP CUT_DUMP

A trace cut short holds the calls that finished before the cut, in the same order,
then the calls still in flight, marked "// incomplete".  So:
  1. every line of CUT_DUMP is a line of FULL_DUMP, except the lines of calls marked
     "// incomplete" (their arguments may be cut short);
  2. CUT_DUMP up to its first incomplete call is a prefix of FULL_DUMP.
Prints what is wrong and exits 1, or prints a summary and exits 0.
Needs dumps made with the default --call-nos=yes.
"""
import re
import sys

CALL_START = re.compile(rb'^\d+ (\d+ )?[A-Za-z_][A-Za-z0-9_:]*\(')


def records(lines):
    """(first, last) line index pairs: one per call, plus the header lines."""
    starts = [i for i, l in enumerate(lines) if CALL_START.match(l)]
    out = []
    if not starts or starts[0] > 0:
        out.append((0, (starts[0] if starts else len(lines)) - 1))
    for k, s in enumerate(starts):
        out.append((s, (starts[k + 1] if k + 1 < len(starts) else len(lines)) - 1))
    return out


def main():
    full = open(sys.argv[1], 'rb').read()
    cut = open(sys.argv[2], 'rb').read()
    full_lines = set(full.split(b'\n'))
    lines = cut.split(b'\n')

    first_incomplete = None
    complete = incomplete = 0
    for first, last in records(lines):
        body = lines[first:last + 1]
        if any(l.endswith(b'// incomplete') for l in body):
            incomplete += 1
            if first_incomplete is None:
                first_incomplete = first
            continue
        if CALL_START.match(body[0]):
            complete += 1
            if first_incomplete is not None:
                print('complete call after an incomplete one at line %d: %r'
                      % (first + 1, body[0][:300]))
                return 1
        for k, l in enumerate(body):
            if l not in full_lines:
                print('line %d is not in the full dump: %r' % (first + k + 1, l[:300]))
                return 1

    end = len(lines) if first_incomplete is None else first_incomplete
    head = b'\n'.join(lines[:end]) + (b'\n' if end < len(lines) else b'')
    if not full.startswith(head):
        for n, (a, b) in enumerate(zip(full.split(b'\n'), lines[:end])):
            if a != b:
                print('not a prefix of the full dump: line %d is %r, full dump has %r'
                      % (n + 1, b[:300], a[:300]))
                return 1
        print('not a prefix of the full dump')
        return 1
    print('%d complete calls, %d incomplete' % (complete, incomplete))
    return 0


if __name__ == '__main__':
    sys.exit(main())
