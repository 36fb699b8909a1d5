#!/usr/bin/env python3
"""Independent counts for test_chrome_corpus.c: reads a Chrome Trace Event file with
Python's json module and prints "kind count" lines in the timeline model's terms, as
chrome_reader.h documents the mapping (not as our reader computes it):
phases -> kinds; M process_name/thread_name with a string args.name -> names, other M
-> metadata_other; phases the model lacks -> skipped; bind_id with flow_in/flow_out on
X/B -> one flow event (v2_flows); stackFrames entries -> stack_frame; string pids/tids
that are not decimal -> one process_name/thread_name each, first seen per (pid, tid).
usage: test_chrome_counts.py FILE  (exit 3: not a trace)"""
import collections
import gzip
import json
import sys

KIND = {'X': 'complete', 'B': 'begin', 'E': 'end', 'i': 'instant', 'I': 'instant', 'R': 'instant',
        'C': 'counter', 'b': 'async_begin', 'S': 'async_begin', 'n': 'async_instant',
        'T': 'async_instant', 'p': 'async_instant', 'e': 'async_end', 'F': 'async_end',
        's': 'flow_begin', 't': 'flow_step', 'f': 'flow_end', 'N': 'object', 'O': 'object',
        'D': 'object', 'P': 'sample'}


def main():
    raw = open(sys.argv[1], 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    if isinstance(doc, dict):
        if 'traceEvents' not in doc:
            return 3
        events, frames = doc['traceEvents'], doc.get('stackFrames', {})
    else:
        events, frames = doc, {}
    c = collections.Counter()
    c['events'] = len(events)
    c['stack_frame'] = len(frames)
    named = set()
    for e in events:
        ph = e['ph']
        pid, tid = e.get('pid', 0), e.get('tid', 0)
        synthetic = [isinstance(v, str) and not v.isdigit() for v in (pid, tid)]
        if synthetic[0] and (pid, None) not in named:
            named.add((pid, None))
            c['process_name'] += 1
        if synthetic[1] and (pid, tid) not in named:
            named.add((pid, tid))
            c['thread_name'] += 1
        if ph == 'M':
            name = e.get('name')
            if name in ('process_name', 'thread_name') and isinstance(e.get('args', {}).get('name'), str):
                c[name] += 1
            else:
                c['metadata_other'] += 1
        elif ph in KIND:
            c[KIND[ph]] += 1
            if ph in 'XB' and 'bind_id' in e and (e.get('flow_in') or e.get('flow_out')):
                c['v2_flows'] += 1
                c['flow_step' if e.get('flow_in') and e.get('flow_out') else
                  'flow_begin' if e.get('flow_out') else 'flow_end'] += 1
        else:
            c['skipped'] += 1
    for k in sorted(c):
        print(k, c[k])
    return 0


sys.exit(main())
