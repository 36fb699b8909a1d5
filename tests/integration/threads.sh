#!/usr/bin/env bash
# threads: recording a program with a second thread and a shared context.
#   usage: threads.sh BIN_DIR
# gl33_demo --thread (tests/apps/README.md): a worker thread with its own 3.3 core context,
# created with the main context as share list and current on a 16x16 pbuffer, rewrites the
# shared checkerboard texture before each frame (glTexSubImage2D, glGenerateMipmap,
# glFinish) while the main thread waits; then the main thread draws. The threads strictly
# alternate, so the trace's call order is fixed.
# Recorded under our own Xvfb with `gltrace -o T -- gl33_demo --thread --warmup --frames 5
# --save own/`. Checks:
#   - gltrace exits 0 and writes the trace;
#   - the trace has calls on thread 1 (`gltrace dump --thread-ids`: @1): the worker's
#     glXCreatePbuffer, glXCreateContextAttribsARB (share_context = the main context),
#     glXMakeContextCurrent, one glTexSubImage2D per frame, each before that frame's first
#     glDrawElements (on @0) and after the previous swap; the swaps are all on @0;
#   - `apitrace dump` exits 0 with nothing on stderr; `gltrace dump` == `apitrace dump`
#     with every option set of DUMP_OPTION_SETS;
#   - `glretrace` (default: one replay thread, binding each traced thread's context at a
#     switch between them, as `--singlethread`) exits 0, prints no line
#     with "error" or "warning", renders 6 frames (warm-up + 5);
#   - `glretrace -s`: 6 snapshots, the last 5 equal the app's own frames 0-4
#     (compare_png.py); the first is the --warmup swap (see record_gltrace.sh);
#   - the worker's updates show: the app's frames with --thread differ from those without,
#     and an untraced --thread run saves the same frames as the traced one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init threads

require_recorder "$@"
app="$bin/gl33_demo"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_tool apitrace glretrace Xvfb python3 cmp timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
FRAMES=5

start_xvfb

# run_app WHAT LOG CMD...: runs CMD (timeout 60); a non-zero exit is a failure
run_app() {
  local what=$1 log=$2
  shift 2
  set +e
  timeout 60 "$@" >"$log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$what: exits $rc; log:"
    tail -10 "$log" | sed 's/^/    /'
    return 1
  fi
  pass "$what: exit 0"
}

# ---- recording ---------------------------------------------------------------------
t="$WORK/threads.trace"
mkdir -p "$WORK/own" "$WORK/plain" "$WORK/untraced" "$WORK/snap"
run_app "gltrace gl33_demo --thread" "$WORK/rec.log" \
  "$gltrace" -o "$t" -- "$app" --thread --warmup --frames "$FRAMES" --save "$WORK/own/" || true
[ -s "$t" ] || {
  fail "no trace written"
  it_finish
  exit
}
pass "trace written ($(stat -c %s "$t") bytes)"

# ---- thread ids ----------------------------------------------------------------------
run_timed "$WORK/tid.txt" "$WORK/tid.err" "$gltrace" dump --color=never --thread-ids "$t"
[ "$RC" -eq 0 ] || fail "gltrace dump --thread-ids exits $RC"
python3 - "$WORK/tid.txt" "$FRAMES" >"$WORK/tid.cmp" <<'PYEOF'
import re, sys
frames = int(sys.argv[2])
calls = []  # (number, thread, name, text)
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    m = re.match(r'(\d+) @(\d+) (\w+)\(', line)
    if m:
        calls.append((int(m.group(1)), int(m.group(2)), m.group(3), line))
def check(ok, what):
    print(('PASS ' if ok else 'FAIL ') + what)
t1 = [c for c in calls if c[1] == 1]
check(len(t1) > 0, 'the trace has calls on thread @1 (%d)' % len(t1))
check({c[1] for c in calls} <= {0, 1}, 'only threads @0 and @1 (%s)' % sorted({c[1] for c in calls}))
names1 = [c[2] for c in t1]
for name in ('glXCreatePbuffer', 'glXCreateContextAttribsARB', 'glXMakeContextCurrent'):
    check(name in names1, '%s on @1' % name)
main_ctx = [re.search(r'\) = (\S+)', c[3]).group(1) for c in calls
            if c[2] == 'glXCreateContextAttribsARB' and c[1] == 0]
shared = [c[3] for c in t1 if c[2] == 'glXCreateContextAttribsARB']
check(len(main_ctx) == 1 and len(shared) == 1 and
      ('share_context = %s,' % main_ctx[0]) in shared[0],
      "@1's context shares the main context's objects")
swaps = [c for c in calls if c[2] == 'glXSwapBuffers']
check(len(swaps) == frames + 1 and all(c[1] == 0 for c in swaps),
      '%d swaps, all on @0 (%d found)' % (frames + 1, len(swaps)))
subs = [c for c in calls if c[2] == 'glTexSubImage2D']
check(len(subs) == frames and all(c[1] == 1 for c in subs),
      '%d glTexSubImage2D, all on @1 (%d found)' % (frames, len(subs)))
# frame k (k = 0..frames-1) lies between swap k (the warm-up for k = 0) and swap k + 1:
# its glTexSubImage2D (@1) comes before its first glDrawElements (@0)
for k in range(min(frames, len(swaps) - 1)):
    lo, hi = swaps[k][0], swaps[k + 1][0]
    inside = [c for c in calls if lo < c[0] < hi]
    sub = [c[0] for c in inside if c[2] == 'glTexSubImage2D' and c[1] == 1]
    draw = [c[0] for c in inside if c[2] == 'glDrawElements' and c[1] == 0]
    check(len(sub) == 1 and len(draw) == 2 and sub[0] < draw[0],
          'frame %d: @1 glTexSubImage2D (%s) before the @0 draws (%s)' % (k, sub, draw))
PYEOF
while read -r verdict rest; do
  if [ "$verdict" = PASS ]; then pass "$rest"; else fail "$rest"; fi
done <"$WORK/tid.cmp"
grep -q . "$WORK/tid.cmp" || fail "thread-id checks printed nothing"

# ---- apitrace reads it; dumps equal ----------------------------------------------------
set +e
timeout 60 apitrace dump --color=never "$t" >"$WORK/a.txt" 2>"$WORK/a.err"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  fail "apitrace dump exits $rc"
  head -8 "$WORK/a.err" | sed 's/^/    /'
elif [ -s "$WORK/a.err" ]; then
  fail "apitrace dump prints on stderr; the first lines:"
  head -8 "$WORK/a.err" | cut -c1-300 | sed 's/^/    /'
else
  pass "apitrace dump exits 0, stderr empty"
fi
for opts in "${DUMP_OPTION_SETS[@]}"; do
  # shellcheck disable=SC2086
  dump_vs_apitrace "dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
done

# ---- glretrace -------------------------------------------------------------------------
# retrace WHAT [GLRETRACE OPTIONS...]: exit 0, no error/warning line, FRAMES + 1 frames
retrace() {
  local what=$1
  shift
  set +e
  timeout 120 glretrace "$@" "$t" >"$WORK/retrace.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$what: glretrace exits $rc; its output ends:"
    tail -8 "$WORK/retrace.log" | cut -c1-300 | sed 's/^/    /'
  else
    pass "$what: glretrace exits 0"
  fi
  if grep -qiE 'error|warning' "$WORK/retrace.log"; then
    fail "$what: glretrace printed error/warning lines; the first:"
    grep -iE 'error|warning' "$WORK/retrace.log" | head -8 | cut -c1-300 | sed 's/^/    /'
  else
    pass "$what: glretrace prints no error or warning"
  fi
  local rendered
  rendered=$(sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p' "$WORK/retrace.log" | tail -1)
  if [ "$rendered" = $((FRAMES + 1)) ]; then
    pass "$what: glretrace rendered $((FRAMES + 1)) frames"
  else
    fail "$what: glretrace rendered ${rendered:-no} frames, expected $((FRAMES + 1))"
  fi
}
retrace "replay"
retrace "snapshots" -s "$WORK/snap/"

snaps=() # glob order: the zero-padded call numbers, ascending
for f in "$WORK"/snap/*.png; do
  [ -e "$f" ] && snaps+=("${f##*/}")
done
if [ "${#snaps[@]}" -ne $((FRAMES + 1)) ]; then
  fail "glretrace took ${#snaps[@]} snapshots, expected $((FRAMES + 1)): ${snaps[*]+"${snaps[*]}"}"
else
  pass "$((FRAMES + 1)) snapshots"
fi
# compare WHAT A B EXPECT: compare_png.py's verdict on A and B is EXPECT (same/differ)
compare() {
  local what=$1 a=$2 b=$3 expect=$4 verdict rc
  set +e
  verdict=$(python3 "$compare_png" "$a" "$b" 2>&1)
  rc=$?
  set -e
  if { [ "$expect" = same ] && [ "$rc" -eq 0 ]; } || { [ "$expect" = differ ] && [ "$rc" -eq 1 ]; }; then
    pass "$what"
  else
    fail "$what: ${verdict//"$WORK/"/} (exit $rc)"
  fi
}
for ((i = 0; i < FRAMES; i++)); do
  own=$(printf '%s/own/%010u.png' "$WORK" "$i")
  if [ ! -s "$own" ]; then
    fail "frame $i: the app saved no $own"
  elif [ $((i + 1)) -ge "${#snaps[@]}" ]; then
    fail "frame $i: no glretrace snapshot for it"
  else
    compare "frame $i == snapshot ${snaps[i + 1]}" "$own" "$WORK/snap/${snaps[i + 1]}" same
  fi
done

# ---- the worker's updates show; tracing does not change the frames -----------------------
if run_app "gl33_demo --warmup (no thread)" "$WORK/plain.log" \
  "$app" --warmup --frames "$FRAMES" --save "$WORK/plain/" &&
  run_app "gl33_demo --thread (untraced)" "$WORK/untraced.log" \
    "$app" --thread --warmup --frames "$FRAMES" --save "$WORK/untraced/"; then
  for ((i = 0; i < FRAMES; i++)); do
    f=$(printf '%010u.png' "$i")
    [ -s "$WORK/own/$f" ] || continue
    compare "frame $i: --thread differs from no thread" "$WORK/own/$f" "$WORK/plain/$f" differ
    compare "frame $i: traced == untraced" "$WORK/own/$f" "$WORK/untraced/$f" same
  done
fi

it_finish
