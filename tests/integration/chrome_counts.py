#!/usr/bin/env python3
"""Counts the events of a Chrome Trace Event Format file by timeline kind, read with
Python's own json module: an independent check of our Chrome JSON reader.
Prints "kind count" lines for the kinds whose mapping the format fixes:
  X complete, B begin, E end, i/I instant, C counter, b/S async_begin,
  n/T/p async_instant, e/F async_end, s flow_begin, t flow_step, f flow_end,
  N/O/D object, P sample; stackFrames entries as stack_frame.
Flows given as v2 fields (bind_id, flow_in, flow_out) are counted as "flow_v2" (an
event with such fields), which a reader turns into flow events of its own choosing.
usage: chrome_counts.py FILE"""
import collections
import gzip
import json
import sys

PHASES = {
    'X': 'complete', 'B': 'begin', 'E': 'end', 'i': 'instant', 'I': 'instant',
    'C': 'counter', 'b': 'async_begin', 'S': 'async_begin', 'n': 'async_instant',
    'T': 'async_instant', 'p': 'async_instant', 'e': 'async_end', 'F': 'async_end',
    's': 'flow_begin', 't': 'flow_step', 'f': 'flow_end', 'N': 'object', 'O': 'object',
    'D': 'object', 'P': 'sample',
}


def load(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    return json.loads(raw)


def main():
    doc = load(sys.argv[1])
    events = doc if isinstance(doc, list) else doc.get('traceEvents', [])
    counts = collections.Counter()
    for ev in events:
        kind = PHASES.get(ev.get('ph'))
        if kind:
            counts[kind] += 1
        if any(k in ev for k in ('bind_id', 'flow_in', 'flow_out')):
            counts['flow_v2'] += 1
    if isinstance(doc, dict) and isinstance(doc.get('stackFrames'), dict):
        counts['stack_frame'] += len(doc['stackFrames'])
    for k in sorted(counts):
        print(k, counts[k])


main()
