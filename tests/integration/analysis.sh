#!/usr/bin/env bash
# analysis: `gltrace diff`, `gltrace diff-state` and `gltrace leaks` beside apitrace 11's
# `apitrace diff`, `apitrace diff-state` and `apitrace leaks`.
#  - diff: pairs of corpus traces (a trace and its trimmed copy, two recordings of one
#    program, a trace and itself, traces of different programs), and a corpus trace against a copy of it with an enum
#    replaced by `gltrace sed`, and pairs of random subsets of a trace's calls
#    (`gltrace trim --exact`; repeated lines make alignments of equal cost): with
#    -t diff and -t sdiff, --call-nos,
#    --suppress-common-lines, widths, --calls, --ref-calls/--src-calls, the same bytes as
#    `apitrace diff` (run in the C locale, as sdiff then counts a byte per column).
#    apitrace passes --suppress-common-lines to its diff tool only, and sdiff prints every
#    line; ours honours it with sdiff too: that output is compared with GNU sdiff's
#    --suppress-common-lines run on apitrace's dumps.
#  - diff-state: state dumps of `apitrace replay -D` and of our `glretrace -D` at draws of
#    glmark2_shading and es2gears_x11, against each other and across traces, plain,
#    --ignore-added and --keep-images; and made-up JSON pairs (analysis_json.py: float
#    forms, tolerance, escapes, types changing, images, NaN, comments, shader sources
#    with similar and dissimilar lines, tabs, non-ASCII, random texts with random
#    edits): the same bytes as
#    `apitrace diff-state`, difflib.Differ's "? " marks included.
#  - leaks: on every corpus trace, our lines of the kinds apitrace follows (buffer,
#    texture) are apitrace's lines; every line we print, of any kind, is checked against
#    the trace's dump (analysis_leaks.py): the call created that name, no delete of it
#    before "until"; some traces leak more than buffers and textures, and we say so.
#  - bad input: missing files, files that are not traces or not JSON, damaged JSON, the
#    wrong number of arguments: an error naming the file, non-zero exit, no crash.
# Differences tolerated, with reasons:
#  - apitrace's leaks writes its lines to stderr, ours to stdout (data on stdout); ours
#    also follows framebuffers, renderbuffers, vertex arrays, queries, samplers,
#    programs, shaders, program pipelines and transform feedbacks (the registry's class=
#    namespaces): only buffer and texture lines are compared with apitrace's.
#  - diff-state: a replaced block of more than 10^6 pairs of lines in a multi-line
#    string (a 4 MB image with --keep-images) is printed plainly, where Python searches
#    every pair for similar ones (apitrace then runs past our 20 s limit: such a pair
#    is checked only for our exit status and output).
#  - diff: none. Our alignment follows GNU diff's (apitrace's tools) step for step;
#    every pair here, whole traces included, must give apitrace's bytes.
#   usage: analysis.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init analysis

it_bin_corpus "$@"
G="$bin/gltrace"
R="$bin/glretrace"
require_file "$G" "build gltrace first"
require_file "$R" "build glretrace first"
require_tool apitrace python3 timeout Xvfb sdiff diff
export LC_ALL=C

# same WHAT OUT_APITRACE OUT_OURS: byte comparison of the two outputs
same() { compare_files "$1" "$2" "$3"; }

# run2 NAME ARGS...: `apitrace ARGS` and `gltrace ARGS`, outputs in $WORK/NAME.{a,g}
run2() {
  local name=$1
  shift
  set +e
  timeout "${APITRACE_SECONDS:-120}" apitrace "$@" >"$WORK/$name.a" 2>"$WORK/$name.a.err"
  RCA=$?
  timeout 120 "$G" "$@" >"$WORK/$name.g" 2>"$WORK/$name.g.err"
  RCG=$?
  set -e
}

# ---- diff ------------------------------------------------------------------------------
# valid_alignment OUT REF SRC OPTS: our -t diff output holds each dump whole
valid_alignment() {
  python3 - "$@" <<'EOF'
import subprocess, sys
out, ref, src, g = sys.argv[1:5]
lines = open(out, 'rb').read().split(b'\n')[:-1]
def dump(t):
    return subprocess.run([g, 'dump', '--color=never', '--arg-names=no', '--call-nos=no',
                           '--calls=0-10000', t], capture_output=True).stdout.split(b'\n')[:-1]
a = [l[2:] for l in lines if l[:2] in (b'  ', b'- ')]
b = [l[2:] for l in lines if l[:2] in (b'  ', b'+ ')]
sys.exit(0 if a == dump(ref) and b == dump(src) else 1)
EOF
}

# sdiff_suppressed OPTS REF SRC: apitrace's tracediff.py passes --suppress-common-lines
# to diff only, never to sdiff; ours honours it: the reference is GNU sdiff's own
# --suppress-common-lines on apitrace's dumps, as tracediff.py makes them
sdiff_suppressed() {
  local w nos=no
  w=$(echo "$1" | sed -n 's/.*-w \([0-9]*\).*/\1/p')
  case "$1" in *--call-nos*) nos=yes ;; esac
  apitrace dump --color=never --arg-names=no --call-nos=$nos --calls=0-10000 "$2" >"$WORK/sd.ref"
  apitrace dump --color=never --arg-names=no --call-nos=$nos --calls=0-10000 "$3" >"$WORK/sd.src"
  sdiff --width="$w" --speed-large-files --suppress-common-lines "$WORK/sd.ref" "$WORK/sd.src" \
    >"$WORK/diff.a" || true
}

c="$corpus"
timeout 120 "$G" sed -e s/GL_LINEAR/GL_NEAREST/ -o "$WORK/texture_sed.trace" "$c/glmark2_texture.trace" \
  >/dev/null 2>"$WORK/sed.err" || fail "gltrace sed failed: $(head -c 300 "$WORK/sed.err")"
pairs=(
  "$c/tri.trace $c/trim_tri.trace"
  "$c/glmark2_shading.trace $c/glmark2_shading_trim_frames10-12.trace"
  "$c/glxgears.trace $c/keithel_glxgears.trace"
  "$c/glxdemo.trace $c/glxdemo_zlib.trace"
  "$c/glmark2_texture.trace $WORK/texture_sed.trace"
  "$c/es2gears_x11.trace $c/es2gears_x11.trace"
  "$c/glxgears.trace $c/glxinfo.trace"
  "$c/es2gears_x11.trace $c/tri_glsl.trace"
  "$c/glmark2_texture.trace $c/glmark2_build.trace"
)
# whole traces (GNU diff's shortcuts for long searches come into play)
whole_pairs=(
  "$c/glmark2_buffersub.trace $c/glmark2_desktop.trace"
  "$c/glmark2_desktop.trace $c/glmark2_texture.trace"
  "$c/es2gears_x11.trace $c/glxgears.trace"
)
option_sets=(
  "-t diff"
  "-t diff --call-nos"
  "-t diff --suppress-common-lines"
  "-t diff --calls=0-300"
  "-t diff --ref-calls=0-200 --src-calls=100-400"
  "-t sdiff -w 100"
  "-t sdiff -w 157 --call-nos"
  "-t sdiff -w 80 --suppress-common-lines"
  "-t sdiff -w 30"
)
for pair in "${whole_pairs[@]}"; do
  read -r ref src <<<"$pair"
  for opts in "-t diff --calls=0-1000000" "-t sdiff -w 130 --call-nos --calls=0-1000000"; do
    # shellcheck disable=SC2086
    run2 diff diff $opts "$ref" "$src"
    if [ "$RCG" -eq 0 ] && [ "$RCA" -eq 0 ] && cmp -s "$WORK/diff.a" "$WORK/diff.g"; then
      pass "diff $(basename "$ref") $(basename "$src") $opts"
    else
      fail "diff $(basename "$ref") $(basename "$src") $opts: output differs or exit $RCG"
      first_diff "$WORK/diff.a" "$WORK/diff.g"
    fi
  done
done
for pair in "${pairs[@]}"; do
  read -r ref src <<<"$pair"
  what="diff $(basename "$ref") $(basename "$src")"
  for opts in "${option_sets[@]}"; do
    # shellcheck disable=SC2086
    run2 diff diff $opts "$ref" "$src"
    case "$opts" in *sdiff*--suppress-common-lines*) sdiff_suppressed "$opts" "$ref" "$src" ;; esac
    if [ "$RCG" -ne 0 ] || [ "$RCA" -ne 0 ]; then
      fail "$what $opts: exits $RCG (apitrace $RCA): $(head -c 300 "$WORK/diff.g.err")"
    elif cmp -s "$WORK/diff.a" "$WORK/diff.g"; then
      pass "$what $opts"
    elif [ "$opts" = "-t diff" ] && valid_alignment "$WORK/diff.g" "$ref" "$src" "$G"; then
      fail "$what $opts: a valid alignment, but not GNU diff's"
      first_diff "$WORK/diff.a" "$WORK/diff.g"
    else
      fail "$what $opts: output differs"
      first_diff "$WORK/diff.a" "$WORK/diff.g"
    fi
  done
done
# random pairs: two random subsets of a trace's calls (`gltrace trim --exact`), where
# repeated lines (glPushMatrix, glCallList) make many alignments of equal cost
for t in glxgears glmark2_shading; do
  for seed in 1 2 3 4; do
    python3 -c '
import random, sys
r = random.Random(int(sys.argv[1]))
for side in range(2):
    print(",".join(map(str, sorted(r.sample(range(3000), r.randrange(300, 2500))))))
' "$seed" >"$WORK/sets.txt"
    sed -n 1p "$WORK/sets.txt" >"$WORK/set1.txt"
    sed -n 2p "$WORK/sets.txt" >"$WORK/set2.txt"
    for k in 1 2; do
      timeout 120 "$G" trim --exact --calls="@$WORK/set$k.txt" -o "$WORK/rand$k.trace" "$c/$t.trace" \
        >/dev/null 2>&1 || fail "gltrace trim --exact of random calls of $t failed"
    done
    for opts in "-t diff" "-t sdiff -w 120 --call-nos"; do
      # shellcheck disable=SC2086
      run2 diff diff $opts "$WORK/rand1.trace" "$WORK/rand2.trace"
      if [ "$RCG" -eq 0 ] && [ "$RCA" -eq 0 ] && cmp -s "$WORK/diff.a" "$WORK/diff.g"; then
        pass "diff, random calls of $t (seed $seed) $opts"
      else
        fail "diff, random calls of $t (seed $seed) $opts: output differs or exit $RCG"
        first_diff "$WORK/diff.a" "$WORK/diff.g"
      fi
    done
  done
done
# the exit status: 0 as apitrace, 1 with --exit-code where the calls differ
run2 diff diff -t diff "$c/tri.trace" "$c/trim_tri.trace"
set +e
"$G" diff --exit-code "$c/tri.trace" "$c/trim_tri.trace" >/dev/null 2>&1; d1=$?
"$G" diff --exit-code "$c/tri.trace" "$c/tri.trace" >/dev/null 2>&1; d0=$?
set -e
[ "$RCG" -eq 0 ] && [ "$d1" -eq 1 ] && [ "$d0" -eq 0 ] && pass "diff exit status" ||
  fail "diff exit status: $RCG, --exit-code $d1 (differing) and $d0 (equal)"

# ---- diff-state --------------------------------------------------------------------------
start_xvfb
# draws TRACE N: the first and last draw calls after the first swap (from the corpus dump)
draws() {
  python3 - "$1.dump.txt" <<'EOF'
import re, sys
calls, swap = [], None
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'(\d+) (\w+)\(', line)
    if m:
        no, fn = int(m.group(1)), m.group(2)
        if swap is None and 'SwapBuffers' in fn:
            swap = no
        elif swap is not None and fn.startswith('glDraw'):
            calls.append(no)
print(calls[0], calls[-1])
EOF
}
dumps=()
for t in glmark2_shading es2gears_x11; do
  for n in $(draws "$c/$t.trace"); do
    timeout 120 apitrace replay -D "$n" "$c/$t.trace" >"$WORK/$t.$n.a.json" 2>"$WORK/replay.err" ||
      fail "apitrace replay -D $n $t: $(head -c 300 "$WORK/replay.err")"
    timeout 120 "$R" -D "$n" "$c/$t.trace" >"$WORK/$t.$n.g.json" 2>"$WORK/replay.err" ||
      fail "glretrace -D $n $t: $(head -c 300 "$WORK/replay.err")"
    dumps+=("$t.$n")
  done
done
python3 "$here/analysis_json.py" "$WORK" >/dev/null
state_pairs=(
  "${dumps[0]}.a ${dumps[1]}.a" "${dumps[0]}.g ${dumps[1]}.g" "${dumps[0]}.a ${dumps[0]}.g"
  "${dumps[3]}.a ${dumps[3]}.g" "${dumps[1]}.a ${dumps[2]}.a" "${dumps[2]}.g ${dumps[0]}.g"
  "mixed.ref mixed.src" "mixed.src mixed.ref" "equal.ref equal.src" "scalars.ref scalars.src"
  "random0.ref random0.src" "random1.ref random1.src" "random2.ref random2.src"
  "random3.src random3.ref"
)
for pair in "${state_pairs[@]}"; do
  read -r a b <<<"$pair"
  for opts in "" "--ignore-added" "--keep-images"; do
    # --keep-images compares the images' base64 text: 20 s are ample where apitrace
    # finishes at all (1-2 s here), and spare CI the 2 minutes of the pair it never ends
    limit=120
    [ "$opts" = --keep-images ] && limit=20
    # shellcheck disable=SC2086
    APITRACE_SECONDS=$limit run2 state diff-state $opts "$WORK/$a.json" "$WORK/$b.json"
    cat "$WORK/state.g" >>"$WORK/state.all"
    if [ "$RCA" -eq 124 ] && [ "$RCG" -eq 0 ] && [ -s "$WORK/state.g" ]; then
      pass "diff-state $a $b $opts (apitrace ran past $limit s)"
      continue
    fi
    if [ "$RCG" -ne 0 ] || [ "$RCA" -ne 0 ]; then
      fail "diff-state $a $b $opts: exits $RCG (apitrace $RCA): $(head -c 300 "$WORK/state.g.err")"
      continue
    fi
    same "diff-state $a $b $opts" "$WORK/state.a" "$WORK/state.g"
  done
done
# the multi-line strings did differ somewhere, with Differ's marks
grep -q -E '^ *- "' "$WORK/state.all" && grep -q -E '^ +\^' "$WORK/state.all" &&
  pass "diff-state: a changed shader source compared line by line, changes marked" ||
  fail "diff-state: no multi-line string difference, or no \"? \" marks, was printed"

# ---- leaks -------------------------------------------------------------------------------
beyond=0
for t in "$c"/*.trace; do
  name=$(basename "$t")
  set +e
  timeout 120 apitrace leaks "$t" >/dev/null 2>"$WORK/leaks.a"
  RCA=$?
  timeout 120 "$G" leaks "$t" >"$WORK/leaks.g" 2>"$WORK/leaks.g.err"
  RCG=$?
  set -e
  if [ "$RCG" -ne 0 ]; then
    if [ "$RCA" -ne 0 ] && [ "$RCG" -lt 124 ]; then
      pass "leaks $name: fails as apitrace's does (exit $RCG)"
    else
      fail "leaks $name: exits $RCG (apitrace $RCA): $(head -c 300 "$WORK/leaks.g.err")"
    fi
    continue
  fi
  grep -E '^[0-9]+: error: (buffer|texture) ' "$WORK/leaks.g" >"$WORK/leaks.g.apitrace" || true
  grep -E '^[0-9]+: error: ' "$WORK/leaks.a" >"$WORK/leaks.a.lines" || true
  same "leaks $name: apitrace's lines" "$WORK/leaks.a.lines" "$WORK/leaks.g.apitrace"
  run_py_checker "leaks $name against its dump" 120 "$here/analysis_leaks.py" "$WORK/leaks.g" "$t.dump.txt"
  grep -q -v -E '^[0-9]+: error: (buffer|texture) ' "$WORK/leaks.g" && beyond=$((beyond + 1))
done
[ "$beyond" -ge 1 ] && pass "leaks: $beyond traces leak objects apitrace does not follow" ||
  fail "leaks: no trace leaks anything beyond buffers and textures"
set +e
"$G" leaks --exit-code "$c/es2gears_x11.trace" >/dev/null 2>&1; l1=$?
"$G" leaks --contexts "$c/es2gears_x11.trace" >"$WORK/ctx.txt" 2>&1; l2=$?
set -e
[ "$l1" -eq 1 ] && [ "$l2" -eq 0 ] && grep -q 'created in context 0x[0-9a-f]*[1-9a-f]' "$WORK/ctx.txt" &&
  pass "leaks --exit-code, --contexts" || fail "leaks --exit-code ($l1) or --contexts ($l2) wrong"

# ---- bad input ---------------------------------------------------------------------------
printf 'not a trace\n' >"$WORK/text.trace"
printf '{"a": [1, 2' >"$WORK/cut.json"
printf '{"a": 1} x' >"$WORK/extra.json"
printf '{"a": "\\q"}' >"$WORK/escape.json"
python3 -c 'print("[" * 5000 + "]" * 5000)' >"$WORK/deep.json"
# bad NAME EXPECT ARGS...: non-zero exit, no crash, stderr holds EXPECT
bad() {
  local name=$1 expect=$2
  shift 2
  set +e
  timeout 20 "$G" "$@" >/dev/null 2>"$WORK/bad.err"
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ] && grep -q -F -- "$expect" "$WORK/bad.err"; then
    pass "bad input: $name"
  else
    fail "bad input: $name: exit $rc, stderr: $(head -c 300 "$WORK/bad.err")"
  fi
}
bad "diff, missing file" "$WORK/none.trace" diff "$c/tri.trace" "$WORK/none.trace"
bad "diff, not a trace" "$WORK/text.trace" diff "$WORK/text.trace" "$c/tri.trace"
bad "diff, one trace" "expected two traces" diff "$c/tri.trace"
bad "diff, unknown tool" "wdiff" diff -t wdiff "$c/tri.trace" "$c/tri.trace"
bad "diff, bad call set" "call set" diff --calls=x-y "$c/tri.trace" "$c/tri.trace"
bad "diff-state, missing file" "$WORK/none.json" diff-state "$WORK/mixed.ref.json" "$WORK/none.json"
bad "diff-state, cut JSON" "$WORK/cut.json: line 1" diff-state "$WORK/cut.json" "$WORK/extra.json"
bad "diff-state, extra data" "$WORK/extra.json: line 1: extra data" diff-state "$WORK/mixed.ref.json" "$WORK/extra.json"
bad "diff-state, bad escape" "$WORK/escape.json" diff-state "$WORK/escape.json" "$WORK/mixed.ref.json"
bad "diff-state, a trace" "$c/tri.trace" diff-state "$c/tri.trace" "$WORK/mixed.ref.json"
bad "diff-state, too deep" "nested deeper" diff-state "$WORK/deep.json" "$WORK/mixed.ref.json"
bad "leaks, missing file" "$WORK/none.trace" leaks "$WORK/none.trace"
bad "leaks, not a trace" "$WORK/text.trace" leaks "$WORK/text.trace"
bad "leaks, two traces" "one trace" leaks "$c/tri.trace" "$c/tri.trace"

it_finish
