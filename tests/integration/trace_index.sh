#!/usr/bin/env bash
# trace_index: `gltrace index` writes TRACE.idx beside a trace (which stays unchanged);
# `gltrace info` answers from it exactly as from the trace; `gltrace dump --frames`
# through the index prints exactly what a full read prints for those frames; a stale,
# damaged or foreign index is ignored with a warning, never trusted.
#   usage: trace_index.sh BIN_DIR CORPUS_DIR
# Corpus traces are copied to the work dir: the corpus itself gets no index files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init trace_index

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool python3 cmp timeout

frames_count() {
  python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])' <"$1"
}

# info with the index is info without it, stdout and stderr (warnings) alike
check_info() {
  local t=$1 name=$2
  run_timed "$WORK/a.json" "$WORK/a.err" "$gltrace" info --dump-frames --no-index "$t"
  local rca=$RC
  run_timed "$WORK/b.json" "$WORK/b.err" "$gltrace" info --dump-frames "$t"
  if [ "$rca" -ne "$RC" ]; then
    fail "$name: info exits $rca without the index, $RC with it"
  else
    compare_files "$name: info --dump-frames with the index" "$WORK/a.json" "$WORK/b.json"
    compare_files "$name: info warnings with the index" "$WORK/a.err" "$WORK/b.err"
  fi
}

# dump --frames=SEL through the index against the full read
check_frames() {
  local t=$1 name=$2 sel=$3
  run_timed "$WORK/a.txt" "$WORK/a.err" "$gltrace" dump --color=never -v --no-index --frames="$sel" "$t"
  local rca=$RC
  run_timed "$WORK/b.txt" "$WORK/b.err" "$gltrace" dump --color=never -v --frames="$sel" "$t"
  if [ "$rca" -ne 0 ] || [ "$RC" -ne 0 ]; then
    fail "$name: dump --frames=$sel exits $rca without the index, $RC with it"
  else
    compare_files "$name: dump --frames=$sel with the index" "$WORK/a.txt" "$WORK/b.txt"
  fi
}

n_traces=0
for src in "$corpus"/*.trace; do
  name=$(basename "$src")
  t="$WORK/$name"
  cp "$src" "$t"
  run_timed "$WORK/i.out" "$WORK/i.err" "$gltrace" index "$t"
  if [ "$RC" -ne 0 ] || [ ! -s "$t.idx" ]; then
    fail "$name: gltrace index exits $RC or writes no $name.idx"
    continue
  fi
  cmp -s "$src" "$t" && pass "$name: trace unchanged by indexing" || fail "$name: indexing changed the trace"
  n_traces=$((n_traces + 1))
  check_info "$t" "$name"
  run_timed "$WORK/a.json" "$WORK/a.err" "$gltrace" info "$t"
  n=$(frames_count "$WORK/a.json")
  for sel in 0 1 $((n / 2)) $((n / 2))-$((n / 2 + 3)) $((n > 0 ? n - 1 : 0)) $((n > 0 ? n - 1 : 0))- $n 2-; do
    check_frames "$t" "$name" "$sel"
  done
done
echo "trace_index: $n_traces traces indexed"

# the dump of a frame range is the full dump's lines for those calls
t="$WORK/glxgears.trace"
"$gltrace" dump --color=never -v --frames=10-12 "$t" 2>/dev/null | grep -E '^[0-9]+ ' >"$WORK/f.txt"
first=$(head -1 "$WORK/f.txt" | cut -d' ' -f1)
last=$(tail -1 "$WORK/f.txt" | cut -d' ' -f1)
"$gltrace" dump --color=never -v --calls="$first-$last" "$t" 2>/dev/null | grep -E '^[0-9]+ ' >"$WORK/c.txt"
compare_files "glxgears: --frames=10-12 is --calls=$first-$last" "$WORK/c.txt" "$WORK/f.txt"

# a stale index (trace touched) is ignored with a warning naming the index
cp "$t.idx" "$WORK/good.idx"
touch -d '2001-01-01' "$t"
run_timed "$WORK/b.json" "$WORK/b.err" "$gltrace" info --dump-frames "$t"
if [ "$RC" -eq 0 ] && grep -q "glxgears.trace.idx: offset .*stale" "$WORK/b.err"; then
  pass "stale index: warned"
else
  fail "stale index: exit $RC, stderr: $(head -c 300 "$WORK/b.err")"
fi
"$gltrace" info --dump-frames --no-index "$t" >"$WORK/a.json" 2>/dev/null
compare_files "stale index: info as without it" "$WORK/a.json" "$WORK/b.json"

# damaged indexes of every kind: warned, ignored, same output
"$gltrace" index "$t" 2>/dev/null
cp "$t.idx" "$WORK/good.idx"
size=$(stat -c %s "$t.idx")
for at in 0 9 20 60 80 200 $((size / 2)) $((size - 2)); do
  cp "$WORK/good.idx" "$t.idx"
  printf '\xff' | dd of="$t.idx" bs=1 seek="$at" conv=notrunc status=none
  for cmd in "info --dump-frames" "dump --color=never --frames=900-"; do
    # shellcheck disable=SC2086 # the command is split on purpose
    run_timed "$WORK/b.txt" "$WORK/b.err" "$gltrace" $cmd "$t"
    # shellcheck disable=SC2086
    "$gltrace" $cmd --no-index "$t" >"$WORK/a.txt" 2>/dev/null || true
    if [ "$RC" -ge 124 ] || ! grep -q "\.idx: offset [0-9]*: .*index ignored" "$WORK/b.err"; then
      fail "damaged index (byte $at), $cmd: exit $RC, stderr: $(head -c 300 "$WORK/b.err")"
    else
      compare_files "damaged index (byte $at), $cmd: output as without it" "$WORK/a.txt" "$WORK/b.txt"
    fi
  done
done
for len in 0 10 71 100; do
  head -c "$len" "$WORK/good.idx" >"$t.idx"
  run_timed "$WORK/b.txt" "$WORK/b.err" "$gltrace" info "$t"
  if [ "$RC" -eq 0 ] && grep -q "index ignored" "$WORK/b.err"; then
    pass "index cut to $len bytes: ignored"
  else
    fail "index cut to $len bytes: exit $RC, stderr: $(head -c 300 "$WORK/b.err")"
  fi
done

# an index that cannot be written is a failure of `gltrace index` only
mkdir "$WORK/ro"
cp "$corpus/tri.trace" "$WORK/ro/tri.trace"
chmod a-w "$WORK/ro"
if [ "$(id -u)" -ne 0 ]; then
  run_timed "$WORK/o" "$WORK/e" "$gltrace" index "$WORK/ro/tri.trace"
  [ "$RC" -eq 1 ] && pass "index in a read-only folder: exit 1" || fail "index in a read-only folder: exit $RC"
fi
run_timed "$WORK/o" "$WORK/e" "$gltrace" info "$WORK/ro/tri.trace"
[ "$RC" -eq 0 ] && pass "info without an index in a read-only folder" || fail "info in a read-only folder: exit $RC"
chmod u+w "$WORK/ro"

# the index never replaces the trace: a trace named like another's index is refused
cp "$corpus/tri.trace" "$WORK/x.trace"
ln -s "$WORK/x.trace" "$WORK/y.trace.idx"
cp "$corpus/tri.trace" "$WORK/y.trace"
run_timed "$WORK/o" "$WORK/e" "$gltrace" index "$WORK/y.trace"
[ "$RC" -eq 1 ] && grep -q "not a gltrace index" "$WORK/e" && pass "index refuses to replace a non-index" ||
  fail "index over a link to a trace: exit $RC"
cmp -s "$corpus/tri.trace" "$WORK/x.trace" && pass "index never writes through a link onto a trace" ||
  fail "index overwrote a trace through y.trace.idx"

it_finish
