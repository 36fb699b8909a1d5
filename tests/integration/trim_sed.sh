#!/usr/bin/env bash
# trim_sed: `gltrace trim` and `gltrace sed` side by side with apitrace 11's.
#  1. trim --exact: for every corpus trace and several selections (frames, calls, call
#     sets with steps and frequencies, threads), `apitrace dump` of our output prints
#     what it prints of `apitrace trim`'s; a selection that matches nothing (apitrace
#     writes an empty trace) exits 1, says so and writes nothing.
#  2. sed: enum and string replacements (any separator, @file(PATH) on both sides,
#     --calls, --property) give the dump text of `apitrace sed`'s output; an expression
#     that replaces nothing exits 1 and writes nothing.
#  3. trim (keeping dependencies): three frames from the middle of every glmark2 and
#     gears trace of the corpus, and of gl33_demo recorded by gltrace, and two frames of
#     glthreads (two threads, two windows), replayed headless by our glretrace, give the
#     very snapshots (MD5) the full trace's replay gives of those frames; the trimmed
#     trace holds exactly those frames. What apitrace's
#     glretrace makes of `apitrace trim --frames` of the same selection is reported
#     beside it (a note: its trimmed traces lack the context setup).
#  4. Outputs are never destroyed: the input as output is refused; a failed trim or sed
#     leaves an existing output as it was.
#   usage: trim_sed.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init trim_sed

it_bin_corpus "$@"
gltrace="$bin/gltrace"
glretrace_ours="$bin/glretrace"
require_file "$gltrace" "build gltrace first"
require_file "$glretrace_ours" "build glretrace first"
require_tool apitrace glretrace python3 timeout Xvfb

dump() { timeout 120 apitrace dump -v --color=never "$1" 2>/dev/null; }
calls_in() { dump "$1" | grep -c '^[0-9]' || true; }

# side_by_side WHAT CMD ARGS TRACE NOTHING_RE: `apitrace CMD ARGS` and `gltrace CMD ARGS`
# (trim: with --exact) of TRACE; apitrace dump of both outputs must be alike. Where
# apitrace's output holds nothing of what was asked (no call selected, nothing replaced:
# $nothing_test on its output), ours must refuse with NOTHING_RE and write nothing.
side_by_side() {
  local what=$1 cmd=$2 args=$3 t=$4 nothing_re=$5 rc
  local a="$WORK/a.trace" g="$WORK/g.trace" exact=()
  [ "$cmd" = trim ] && exact=(--exact)
  rm -f "$a" "$g"
  # shellcheck disable=SC2086
  timeout 120 apitrace "$cmd" $args -o "$a" "$t" >/dev/null 2>&1 || true
  set +e
  # shellcheck disable=SC2086
  timeout 120 "$gltrace" "$cmd" "${exact[@]}" $args -o "$g" "$t" >/dev/null 2>"$WORK/g.err"
  rc=$?
  set -e
  if [ ! -s "$a" ]; then
    fail "$what: apitrace $cmd wrote nothing"
  elif $nothing_test "$a"; then
    if [ "$rc" -eq 1 ] && [ ! -e "$g" ] && grep -q "$nothing_re" "$WORK/g.err"; then
      pass "$what: nothing to do: refused, nothing written"
    else
      fail "$what: nothing to do, yet exit $rc: $(head -1 "$WORK/g.err")"
    fi
  elif [ "$rc" -ne 0 ]; then
    fail "$what: exit $rc: $(head -2 "$WORK/g.err" | tr '\n' ' ')"
  else
    dump "$a" >"$WORK/a.txt"
    dump "$g" >"$WORK/g.txt"
    compare_files "$what: apitrace dump of both outputs" "$WORK/a.txt" "$WORK/g.txt"
  fi
}

# ---- 1. trim --exact against apitrace trim ----------------------------------------------
selects_nothing() { [ "$(calls_in "$1")" -eq 0 ]; }
nothing_test=selects_nothing
selections=("--frames=1" "--calls=10-60" "--frames=0-1 --calls=200-/3" "--thread=1 --frames=0-2"
  "--calls=draw" "--frames=2-4 --calls=0-20")
for t in "$corpus"/*.trace; do
  for sel in "${selections[@]}"; do
    side_by_side "$(basename "$t" .trace): trim --exact $sel" trim "$sel" "$t" 'selection matches none'
  done
done

# ---- 2. sed against apitrace sed ----------------------------------------------------------
printf 'normal' >"$WORK/normal.txt"
printf 'NORMAL_RENAMED' >"$WORK/renamed.txt"
expressions=(
  "-e s/GL_TRIANGLES/GL_POINTS/"
  "-e s|position|POSITION| -e s#GL_FALSE#GL_TRUE#"
  "-e s|@file($WORK/normal.txt)|@file($WORK/renamed.txt)|"
  "-e s/GL_TRIANGLES/GL_LINES/ --calls=0-3000"
  "--property=process.name=/bin/renamed -e s/GL_ARRAY_BUFFER/GL_ELEMENT_ARRAY_BUFFER/"
)
# apitrace's sed changed nothing: its output is what its writer makes of the whole trace
replaces_nothing() { dump "$1" | cmp -s - "$WORK/all.txt"; }
nothing_test=replaces_nothing
for name in glmark2_shading glmark2_texture es2gears_x11; do
  t="$corpus/$name.trace"
  timeout 120 apitrace trim -o "$WORK/all.trace" "$t" >/dev/null 2>&1 || true
  dump "$WORK/all.trace" >"$WORK/all.txt"
  for e in "${expressions[@]}"; do
    side_by_side "$name: sed ${e//$WORK\//}" sed "$e" "$t" 'matches no'
  done
done

# ---- 3. trimmed frames replay to the full trace's pixels -----------------------------------
start_xvfb
traces=("$corpus"/glmark2_*.trace "$corpus/glxgears.trace" "$corpus/es2gears_x11.trace"
  "$corpus/keithel_glxgears.trace")
if [ -e "$bin/../lib/libgltrace.so" ] && [ -x "$bin/gl33_demo" ]; then
  timeout 120 "$gltrace" -o "$WORK/gl33_demo.trace" -- "$bin/gl33_demo" --frames 9 \
    >"$WORK/rec.log" 2>&1 || fail "gl33_demo: recording failed: $(tail -2 "$WORK/rec.log")"
  traces+=("$WORK/gl33_demo.trace")
fi
frames_of() { "$gltrace" info "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])'; }
md5s() { timeout 300 "$glretrace_ours" --headless -s - --snapshot-format=MD5 "$1" 2>/dev/null; }

# check_trim TRACE K N: frames K..K+N-1 trimmed (dependencies kept) replay to the very
# pixels (MD5 of each snapshot) of those frames of the full trace
check_trim() {
  local t=$1 k=$2 n=$3 name sel arc
  name=$(basename "$t" .trace)
  sel="--frames=$k-$((k + n - 1))"
  rm -f "$WORK/d.trace"
  if ! timeout 120 "$gltrace" trim "$sel" -o "$WORK/d.trace" "$t" >/dev/null 2>"$WORK/trim.err"; then
    fail "$name: trim $sel failed: $(head -2 "$WORK/trim.err")"
    return 0
  fi
  md5s "$t" | sed -n "$((k + 1)),$((k + n))p" >"$WORK/full.md5"
  md5s "$WORK/d.trace" >"$WORK/trim.md5"
  if [ "$(frames_of "$WORK/d.trace")" -ne "$n" ]; then
    fail "$name: the trimmed trace holds $(frames_of "$WORK/d.trace") frames, expected $n"
  elif cmp -s "$WORK/full.md5" "$WORK/trim.md5" && [ -s "$WORK/trim.md5" ]; then
    pass "$name: trim $sel replays to the full trace's pixels"
  else
    fail "$name: trim $sel: snapshots differ from the full trace's"
    paste "$WORK/full.md5" "$WORK/trim.md5" | sed 's/^/    full, trimmed: /'
  fi
  # apitrace's trim of the same selection, replayed by apitrace's glretrace: reported
  rm -f "$WORK/a.trace"
  timeout 120 apitrace trim "$sel" -o "$WORK/a.trace" "$t" >/dev/null 2>&1 || true
  set +e
  timeout 120 glretrace "$WORK/a.trace" >"$WORK/a.out" 2>&1
  arc=$?
  set -e
  echo "    note: $name $sel: ours $(stat -c %s "$WORK/d.trace") bytes" \
    "(of $(stat -c %s "$t")), $(sed -n 's/.* \([0-9]*\) more kept.*/\1/p' "$WORK/trim.err") calls" \
    "kept for the selection; apitrace's trim $(stat -c %s "$WORK/a.trace") bytes, its glretrace:" \
    "exit $arc, $(sed -n 's/^Rendered \([0-9]*\) frames.*/\1 frames/p' "$WORK/a.out")," \
    "$(grep -c 'warning\|error' "$WORK/a.out" || true) warnings/errors" >&2
}
for t in "${traces[@]}"; do
  n=$(frames_of "$t")
  [ "$n" -ge 6 ] && check_trim "$t" $((n / 2)) 3
done
# threads: glthreads' second thread draws for a swap in the selection before the first
# thread's swap ends the frame before it
check_trim "$corpus/glthreads.trace" 1 2

# ---- 4. outputs never destroyed ----------------------------------------------------------------
t="$corpus/glxgears.trace"
cp "$t" "$WORK/in.trace"
for cmd in "trim --frames=1" "sed -e s/GL_TRIANGLES/GL_POINTS/"; do
  set +e
  # shellcheck disable=SC2086
  "$gltrace" $cmd -o "$WORK/in.trace" "$WORK/in.trace" >/dev/null 2>"$WORK/self.err"
  rc=$?
  set -e
  if [ "$rc" -ne 0 ] && cmp -s "$t" "$WORK/in.trace"; then
    pass "${cmd%% *}: the input as output refused, input intact"
  else
    fail "${cmd%% *}: the input as output: exit $rc, input intact: $(cmp -s "$t" "$WORK/in.trace" && echo yes || echo no)"
  fi
done
# failures found once the output was begun: a selection or an expression matching nothing
for cmd in "trim --frames=100000-" "sed -e s/NO_SUCH_STRING_IN_THE_TRACE/x/"; do
  echo keep >"$WORK/existing.trace"
  set +e
  # shellcheck disable=SC2086
  "$gltrace" $cmd -o "$WORK/existing.trace" "$t" >/dev/null 2>"$WORK/fail.err"
  rc=$?
  set -e
  if [ "$rc" -eq 1 ] && [ "$(cat "$WORK/existing.trace")" = keep ] &&
    [ -z "$(find "$WORK" -maxdepth 1 -name '*.gltrace-*')" ]; then
    pass "${cmd%% *}: a failure leaves an existing output as it was, no temporary file"
  else
    fail "${cmd%% *}: a failure (exit $rc) changed the existing output or left a file: $(ls -A "$WORK" | tr '\n' ' ')"
  fi
done
set +e
"$gltrace" trim --frames=100000- -o "$WORK/none.trace" "$t" >/dev/null 2>"$WORK/none.err"
rc=$?
set -e
[ "$rc" -eq 1 ] && [ ! -e "$WORK/none.trace" ] && grep -q "$t" "$WORK/none.err" &&
  pass "trim: frames past the end: exit 1, the trace named, nothing written" ||
  fail "trim: frames past the end: exit $rc: $(head -1 "$WORK/none.err")"

it_finish
