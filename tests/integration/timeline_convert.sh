#!/usr/bin/env bash
# timeline_convert: `gltrace convert` between FXT and Chrome JSON on every corpus file.
#   usage: timeline_convert.sh BIN_DIR CORPUS_DIR
# For every Chrome JSON file (gzip too): our reader's event counts per kind equal an
# independent count by Python's json module (chrome_counts.py); converted to FXT and
# back to JSON, every kind keeps its count, and the outputs pass our strict readers
# and python3 -m json.tool. For every FXT file: the same through JSON and FXT, and
# FXT -> FXT twice gives identical bytes. A .trace converts through a timed replay
# (one event per call). Our FXT output is also read by fxt_check.py, a strict walker
# written from the spec alone, with the same counts. A JSON file that is not a trace, a missing
# file and an unknown format are refused with a message and exit 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init timeline_convert

[ $# -eq 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
gltrace="$1/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool python3 cmp timeout
corpus=$2
[ -d "$corpus/chrome-json" ] && [ -d "$corpus/fxt" ] || die "no chrome-json/fxt corpus in $corpus"

# counts FILE OUT [--strict]: "kind count" lines of our reader (zero counts dropped)
counts() {
  local file=$1 out=$2
  shift 2
  run_timed "$out.raw" "$out.err" "$gltrace" convert -q "$@" --counts "$file"
  grep -v ' 0$' "$out.raw" | sort >"$out" || true
  return 0
}

# converts IN OUT WHAT: gltrace convert IN -o OUT exits 0
converts() {
  run_timed /dev/null "$WORK/conv.err" "$gltrace" convert -q "$1" -o "$2"
  if [ "$RC" -ne 0 ]; then
    fail "$3: convert to $(basename "$2") exits $RC: $(head -1 "$WORK/conv.err")"
    return 1
  fi
  return 0
}

# same_counts WHAT A B: two count files agree
same_counts() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1: event counts differ"
    diff "$2" "$3" | head -8 | sed 's/^/    /' || true
  fi
}

check_chain() { # FILE NAME: FILE -> fxt -> json -> fxt, counts kept, strict readers pass
  local file=$1 name=$2
  counts "$file" "$WORK/in.counts"
  [ "$RC" -eq 0 ] || { fail "$name: not read (exit $RC): $(head -1 "$WORK/in.counts.err")"; return; }
  pass "$name: read"
  converts "$file" "$WORK/a.fxt" "$name" || return
  converts "$WORK/a.fxt" "$WORK/b.json" "$name" || return
  converts "$WORK/b.json" "$WORK/c.fxt" "$name" || return
  converts "$WORK/c.fxt" "$WORK/d.fxt" "$name" || return
  local f
  for f in a.fxt b.json c.fxt; do
    counts "$WORK/$f" "$WORK/$f.counts" --strict
    if [ "$RC" -ne 0 ]; then
      fail "$name: $f fails the strict reader: $(head -1 "$WORK/$f.counts.err")"
      continue
    fi
    same_counts "$name -> $f: strict reader, same counts" "$WORK/in.counts" "$WORK/$f.counts"
  done
  # an independent reading of our FXT, from the spec (fxt_check.py): the same counts
  for f in a.fxt c.fxt; do
    if python3 "$here/fxt_check.py" "$WORK/$f" >"$WORK/$f.py" 2>"$WORK/$f.py.err"; then
      same_counts "$name -> $f: fxt_check.py reads the same events" "$WORK/in.counts" "$WORK/$f.py"
    else
      fail "$name -> $f: fxt_check.py: $(head -1 "$WORK/$f.py.err")"
    fi
  done
  if python3 -m json.tool "$WORK/b.json" >/dev/null 2>&1; then
    pass "$name: JSON output is valid JSON"
  else
    fail "$name: JSON output is not valid JSON"
  fi
  compare_files "$name: FXT -> FXT is identical" "$WORK/c.fxt" "$WORK/d.fxt"
}

for f in "$corpus"/chrome-json/*.json "$corpus"/chrome-json/*.json.gz; do
  name=$(basename "$f")
  case $name in *NOT_TEF*) continue ;; esac
  python3 "$here/chrome_counts.py" "$f" >"$WORK/py.counts"
  counts "$f" "$WORK/our.counts"
  # kinds Python counts exactly; v2 flows and metadata are the reader's choice
  grep -v '^flow_v2 ' "$WORK/py.counts" >"$WORK/py.exact" || true
  if grep -q '^flow_v2 ' "$WORK/py.counts"; then
    grep -Ev '^(flow_begin|flow_step|flow_end|process_name|thread_name) ' "$WORK/py.exact" >"$WORK/py.cmp" || true
    grep -Ev '^(flow_begin|flow_step|flow_end|process_name|thread_name) ' "$WORK/our.counts" >"$WORK/our.cmp" || true
  else
    cp "$WORK/py.exact" "$WORK/py.cmp"
    grep -Ev '^(process_name|thread_name) ' "$WORK/our.counts" >"$WORK/our.cmp" || true
  fi
  same_counts "$name: reader's counts equal Python's" "$WORK/py.cmp" "$WORK/our.cmp"
  check_chain "$f" "$name"
done

for f in "$corpus"/fxt/*.fxt; do
  check_chain "$f" "$(basename "$f")"
  # our own FXT output is canonical: writing it again changes nothing
  converts "$WORK/a.fxt" "$WORK/a2.fxt" "$(basename "$f")" &&
    compare_files "$(basename "$f"): our FXT rewritten is identical" "$WORK/a.fxt" "$WORK/a2.fxt"
done

# a .trace input is replayed with timings: one complete event per call of the trace
t="$corpus/apitrace/glxgears.trace"
run_timed "$WORK/gears.txt" "$WORK/gears.err" "$gltrace" convert --print "$t"
calls=$("$gltrace" info "$t" | python3 -c 'import json,sys; print(json.load(sys.stdin)["CallsCount"])')
got=$(awk -F'\t' '$1 == "complete" && $6 == "gl"' "$WORK/gears.txt" | wc -l)
run_timed /dev/null /dev/null "$gltrace" convert "$t" -o "$WORK/gears.json"
if [ "$RC" -eq 0 ] && [ "$got" = "$calls" ] && python3 -m json.tool "$WORK/gears.json" >/dev/null; then
  pass "glxgears.trace replayed into a timeline: $got calls"
else
  fail "glxgears.trace: convert exits $RC, $got complete events for $calls calls: $(tail -1 "$WORK/gears.err")"
fi

# a kernel trace (trace-cmd .dat) merged with that GL timeline: both outputs pass the
# strict readers and hold every event of both inputs
dat="$corpus/tracecmd-dat/v7_zstd_x86_64_4cpu_stacktraces.dat"
if [ -f "$dat" ] && [ -s "$WORK/gears.json" ]; then
  counts "$dat" "$WORK/dat.counts"
  counts "$WORK/gears.json" "$WORK/gl.counts"
  python3 - "$WORK/dat.counts" "$WORK/gl.counts" >"$WORK/sum.counts" <<'PYEOF'
import collections, sys
total = collections.Counter()
for path in sys.argv[1:]:
    for line in open(path):
        k, n = line.split()
        total[k] += int(n)
for k in sorted(total):
    print(k, total[k])
PYEOF
  for ext in fxt json; do
    run_timed /dev/null "$WORK/merge.err" "$gltrace" convert -q --offset=0 "$dat" "$WORK/gears.json" \
      -o "$WORK/kernel_gl.$ext"
    counts "$WORK/kernel_gl.$ext" "$WORK/kernel_gl.counts" --strict
    if [ "$RC" -eq 0 ]; then
      same_counts ".dat + GL timeline merged to .$ext: strict reader, every event" \
        "$WORK/sum.counts" "$WORK/kernel_gl.counts"
    else
      fail ".dat + GL timeline merged to .$ext: $(head -1 "$WORK/kernel_gl.counts.err")"
    fi
  done
else
  fail "no $dat or no GL timeline to merge"
fi

# refusals: message naming the file, exit 1, no output left behind
refuses() { # WHAT PATTERN FILE [OPTIONS]
  rm -f "$WORK/x.json"
  run_timed /dev/null "$WORK/ref.err" "$gltrace" convert "${@:4}" "$3" -o "$WORK/x.json"
  if [ "$RC" -eq 1 ] && grep -q -- "$2" "$WORK/ref.err" && [ ! -e "$WORK/x.json" ]; then
    pass "$1"
  else
    fail "$1: exit $RC, stderr: $(head -1 "$WORK/ref.err")"
  fi
}
refuses "not a trace-event file" "not a Chrome trace" "$corpus/chrome-json/catapult_google_cloud_trace_NOT_TEF.json"
refuses "missing file" "No such file" "$WORK/missing.fxt"
printf 'hello world\n' >"$WORK/hello.bin"
refuses "unknown format" "not a timeline file" "$WORK/hello.bin"
"$gltrace" convert -q "$corpus/chrome-json/catapult_simple_trace.json" -o "$WORK/whole.fxt"
size=$(stat -c %s "$WORK/whole.fxt")
head -c $((size - 5)) "$WORK/whole.fxt" >"$WORK/cut.fxt"
refuses "truncated FXT, strict" "truncated record" "$WORK/cut.fxt" --strict
# liberal: the events before the cut (a crashed writer's file), with a warning
run_timed "$WORK/cut.txt" "$WORK/cut.err" "$gltrace" convert --print "$WORK/cut.fxt"
if [ "$RC" -eq 0 ] && grep -q "offset [0-9]*: truncated record" "$WORK/cut.err" && [ -s "$WORK/cut.txt" ]; then
  pass "truncated FXT: events before the cut, warning with the offset"
else
  fail "truncated FXT: exit $RC, stderr: $(head -1 "$WORK/cut.err")"
fi

it_finish
