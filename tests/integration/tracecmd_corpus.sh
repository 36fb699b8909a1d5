#!/usr/bin/env bash
# tracecmd_corpus: formats/tracecmd reads every trace-cmd .dat of the corpus like
# trace-cmd report.
#   usage: tracecmd_corpus.sh BIN_DIR CORPUS_DIR
# For every X.dat in CORPUS_DIR/tracecmd-dat (printed by tracecmd_tool print, the
# reader's timeline events as text lines), against X.dat.report.txt (trace-cmd report):
#   1. it reads (exit 0), and again with --strict;
#   2. the records in order — CPU, time (rounded to microseconds as report prints it),
#      event name, pid — equal the report's event lines; so do the counts per CPU and
#      per event name (a report cut short, as the 4-CPU stacktraces one is, is compared
#      as a prefix, and the counts against a live `trace-cmd report`);
#   3. sched_switch: prev/next pid and prio equal the report's, and each raw prev_state
#      always shows as the same state letter in the report (0 as R);
#   4. fields the report prints as name=decimal agree with ours (at most 1% differ:
#      some print formats print a field differently from its value).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init tracecmd_corpus

[ $# -eq 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
tool="$1/tracecmd_tool"
require_file "$tool" "build tracecmd_tool first"
require_tool python3 trace-cmd
corpus="$2/tracecmd-dat"
[ -d "$corpus" ] || die "no trace-cmd corpus in $corpus"

cat >"$WORK/compare.py" <<'PY'
import re, sys
from collections import Counter

EV = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([^:\s]+):\s?(.*)$')
SW = re.compile(r'^(.*):(\d+) \[(-?\d+)\] (\S+) ==> (.*):(\d+) \[(-?\d+)\]')
KV = re.compile(r'(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(-?[1-9][0-9]*|0)(?=\s|$)')

def report(path):
    evs = []
    for line in open(path, encoding='utf-8', errors='replace'):
        m = EV.match(line.rstrip('\n'))
        if not m:
            continue
        comm, pid, cpu, s, frac, name, rest = m.groups()
        usec = int(s) * 1000000 + int(frac.ljust(6, '0')[:6])
        evs.append(dict(cpu=int(cpu), ts=usec, name=name, pid=int(pid), rest=rest))
    return evs

def args_of(text):
    out = {}
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', text):
        out.setdefault(m.group(1), m.group(2))
    return out

def ours(path):
    evs = []
    for line in open(path, encoding='utf-8', errors='replace'):
        f = line.rstrip('\n').split('\t')
        kind = f[0]
        if kind in ('thread_name', 'process_name', 'stack_frame'):
            continue
        a = args_of(f[9])
        if kind == 'context_switch':
            name, pid = 'sched_switch', int(a['out_pid'])
        elif kind in ('begin', 'end') and f[5] == 'ftrace':
            name, pid = ('funcgraph_entry' if kind == 'begin' else 'funcgraph_exit'), int(f[4])
        else:
            name, pid = f[6], int(f[4])
        evs.append(dict(cpu=int(a['cpu']), ts=(int(f[1]) + 500) // 1000, name=name, pid=pid, args=a))
    return evs

def key(e):
    return (e['cpu'], e['ts'], e['name'], e['pid'])

def main():
    mode, ref_path, our_path = sys.argv[1:4]
    ref, got = report(ref_path), ours(our_path)
    errors = []
    if mode == 'prefix':
        live = report(sys.argv[4])
        if len(live) != len(got):
            errors.append('%d records, live trace-cmd report lists %d' % (len(got), len(live)))
        for what, f in (('CPU', lambda e: e['cpu']), ('name', lambda e: e['name'])):
            if Counter(map(f, live)) != Counter(map(f, got)):
                errors.append('counts per %s differ from live report: %s vs %s' %
                              (what, dict(Counter(map(f, live))), dict(Counter(map(f, got)))))
        got_cmp = got[:len(ref)]
    else:
        if len(ref) != len(got):
            errors.append('%d records, report lists %d' % (len(got), len(ref)))
        for what, f in (('CPU', lambda e: e['cpu']), ('name', lambda e: e['name'])):
            if Counter(map(f, ref)) != Counter(map(f, got)):
                errors.append('counts per %s differ: report %s, ours %s' %
                              (what, dict(Counter(map(f, ref))), dict(Counter(map(f, got)))))
        got_cmp = got
    for i, (r, g) in enumerate(zip(ref, got_cmp)):
        if key(r) != key(g):
            errors.append('record %d: report %s, ours %s' % (i, key(r), key(g)))
            break
    states, switches, compared, differ, example = {}, 0, 0, 0, ''
    for r, g in zip(ref, got_cmp):
        if key(r) != key(g):
            break
        if r['name'] == 'sched_switch':
            m = SW.match(r['rest'])
            if not m:
                errors.append('unparsed sched_switch: %s' % r['rest'])
                break
            a = g['args']
            want = (int(m.group(2)), int(m.group(3)), int(m.group(6)), int(m.group(7)))
            have = (int(a['out_pid']), int(a['out_prio']), int(a['in_pid']), int(a['in_prio']))
            if want != have:
                errors.append('sched_switch at %d: report pid/prio %s, ours %s' % (r['ts'], want, have))
                break
            raw, letter = int(a['out_state']), m.group(4)
            if states.setdefault(raw, letter) != letter:
                errors.append('prev_state %d shown as %s and %s' % (raw, states[raw], letter))
                break
            switches += 1
            continue
        for k, v in KV.findall(r['rest']):
            if k in g['args'] and re.fullmatch(r'-?\d+', g['args'][k]):
                compared += 1
                if int(g['args'][k]) != int(v):
                    differ += 1
                    example = example or '%s %s=%s, ours %s' % (r['name'], k, v, g['args'][k])
    if 0 in states and states[0] != 'R' and not states[0].startswith('R'):
        errors.append('prev_state 0 shown as %s, not R' % states[0])
    if compared and differ * 100 > compared:
        errors.append('%d of %d name=value fields differ (%s)' % (differ, compared, example))
    if errors:
        print('; '.join(errors))
        sys.exit(1)
    print('%d records, %d sched_switch, %d fields compared (%d differ)' % (len(ref), switches, compared, differ))

main()
PY

for dat in "$corpus"/*.dat; do
  name=$(basename "$dat")
  ref="$dat.report.txt"
  [ -f "$ref" ] || { fail "$name: no reference report"; continue; }
  if ! "$tool" print "$dat" >"$WORK/out.txt" 2>"$WORK/err.txt"; then
    fail "$name: tracecmd_tool print exits non-zero: $(head -1 "$WORK/err.txt")"
    continue
  fi
  pass "$name: reads"
  if "$tool" print --strict "$dat" >/dev/null 2>"$WORK/err.txt"; then
    pass "$name: reads with --strict"
  else
    fail "$name: --strict refuses it: $(head -1 "$WORK/err.txt")"
  fi
  mode=full
  extra=()
  if grep -q "TRUNCATED\|ONLY ITS FIRST" "$corpus/MANIFEST.md" && grep -q "$name.*ONLY ITS FIRST" "$corpus/MANIFEST.md"; then
    mode=prefix
    trace-cmd report -i "$dat" >"$WORK/live.txt" 2>/dev/null || die "trace-cmd report -i $name fails"
    extra=("$WORK/live.txt")
  fi
  if msg=$(python3 "$WORK/compare.py" "$mode" "$ref" "$WORK/out.txt" "${extra[@]}"); then
    pass "$name: equal to trace-cmd report ($msg)"
  else
    fail "$name: differs from trace-cmd report: $msg"
  fi
done

it_finish
