#!/usr/bin/env bash
# mapped_buffers: the bytes programs write through buffer maps reach our traces as
# apitrace's fake memcpy calls, and glretrace replays them.
#   usage: mapped_buffers.sh BIN_DIR
# Under our own Xvfb (Mesa llvmpipe):
#   - map_app (tests/apps/map_app.c: objects filled through glMapBufferRange with
#     WRITE|INVALIDATE, with FLUSH_EXPLICIT + two glFlushMappedBufferRange, a persistent
#     coherent ring, a persistent non-coherent map with explicit flushes, glMapBuffer,
#     and a read-only map) recorded by gltrace, 5 frames, plain and with --warmup:
#       * `apitrace dump` exits 0 with nothing on stderr;
#       * exactly the expected fake memcpy calls, in apitrace's form
#         `memcpy(dest = 0x..., src = blob(N), n = N) // fake`: per frame one of 360 bytes
#         before each glUnmapBuffer of a write map (A, E), one per explicit flush (B: 2 x
#         180, D: 360, none at their unmap), one for the ring slot the frame wrote
#         (C, persistent coherent: before the first draw; its bytes that changed, up to
#         the slot's 5120), and none for the read map; the same number of memcpy calls as apitrace's own recording of the app;
#       * `gltrace dump` == `apitrace dump` (options "" and -v);
#       * glretrace replays with exit 0, no error or warning, all frames;
#       * the --warmup trace's glretrace snapshots equal the app's own frames (--save),
#         compare_png.py (frame i = snapshot i + 1, see tests/apps/README.md);
#   - glmark2's buffer scene with update-method=map (plain, and with
#     update-dispersion/interleave/update-fraction variants) recorded by gltrace: one
#     memcpy per glMapBuffer, apitrace dump silent, gltrace dump == apitrace dump, and
#     glretrace replays it with no error or warning that glretrace does not also print
#     for apitrace's own recording of the same scene (glretrace 11.1 reports a GL error
#     at glDeleteBuffers in the interleaved variant for apitrace's traces too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init mapped_buffers

[ $# -ge 1 ] || die "usage: $0 BIN_DIR"
bin=$(cd "$1" && pwd)
gltrace="$bin/gltrace"
app="$bin/map_app"
require_file "$gltrace" "build gltrace first"
require_file "$bin/../lib/libgltrace.so" "build libgltrace.so first (GLTRACE_RECORDING)"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_tool apitrace glretrace Xvfb glmark2 python3 cmp timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
FRAMES=5

start_xvfb

# record NAME -- PROGRAM [ARGS...]: gltrace -o $WORK/NAME.trace, exit 0 and a trace
record() {
  local name=$1
  shift 2
  set +e
  timeout 120 "$gltrace" -o "$WORK/$name.trace" -- "$@" >"$WORK/$name.rec.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ ! -s "$WORK/$name.trace" ]; then
    fail "$name: gltrace exits $rc (trace: $(stat -c %s "$WORK/$name.trace" 2>/dev/null || echo none)); log:"
    tail -10 "$WORK/$name.rec.log" | sed 's/^/    /'
    return 1
  fi
  pass "$name: recorded"
}

# dump_checks NAME: apitrace dump silent (to $WORK/NAME.dump.txt), gltrace dump equal
dump_checks() {
  local name=$1 t="$WORK/$1.trace"
  set +e
  timeout 60 apitrace dump --color=never "$t" >"$WORK/$name.dump.txt" 2>"$WORK/$name.dump.err"
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ -s "$WORK/$name.dump.err" ]; then
    fail "$name: apitrace dump exits $rc, $(wc -l <"$WORK/$name.dump.err") line(s) on stderr:"
    head -5 "$WORK/$name.dump.err" | cut -c1-300 | sed 's/^/    /'
  else
    pass "$name: apitrace dump exits 0, stderr empty"
  fi
  local opts
  for opts in "" "-v"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done
}

# replay NAME TRACE [GLRETRACE OPTIONS...]: glretrace's exit status, its error/warning
# lines without call numbers in $WORK/NAME.bad, the frames in RENDERED
replay() {
  local name=$1 t=$2
  shift 2
  set +e
  timeout 120 glretrace "$@" "$t" >"$WORK/$name.retrace.log" 2>&1
  RETRACE_RC=$?
  set -e
  grep -iE 'error|warning' "$WORK/$name.retrace.log" | sed 's/^[0-9]*: //' | sort -u \
    >"$WORK/$name.bad" || true
  RENDERED=$(sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p' "$WORK/$name.retrace.log" | tail -1)
}

# ---- map_app -------------------------------------------------------------------------
mkdir -p "$WORK/own" "$WORK/snap"
set +e
timeout 60 "$app" --frames "$FRAMES" --warmup --save "$WORK/own/" >"$WORK/own.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 0 ] && pass "map_app --save: exit 0" || {
  fail "map_app --save exits $rc:"
  tail -5 "$WORK/own.log" | sed 's/^/    /'
}

memcpy_re='^[0-9]+ memcpy\(dest = 0x[0-9a-f]+, src = blob\(([0-9]+)\), n = \1\) // fake$'
for name in map_app map_app_warmup; do
  args=(--frames "$FRAMES")
  swaps_want=$FRAMES
  if [ "$name" = map_app_warmup ]; then
    args+=(--warmup)
    swaps_want=$((FRAMES + 1))
  fi
  record "$name" -- "$app" "${args[@]}" || continue
  dump_checks "$name"
  d="$WORK/$name.dump.txt"
  # the fake memcpy calls, as apitrace prints them
  total=$(grep -c ' memcpy(' "$d" || true)
  good=$(grep -cE "$memcpy_re" "$d" || true)
  [ "$total" -eq "$good" ] && pass "$name: $total memcpy calls in apitrace's form" ||
    fail "$name: $((total - good)) of $total memcpy lines not of the form 'memcpy(dest = 0x..., src = blob(N), n = N) // fake'"
  # 180 and 360 bytes: unmaps and flushes; the ring's are trimmed to the bytes that
  # changed (at most the 5120 of a slot, more than 360: the wave moves everywhere)
  sizes=$(grep -oE "$memcpy_re" "$d" | sed -E 's/.*n = ([0-9]+).*/\1/' |
    awk '$1 > 360 && $1 <= 5120 { $1 = "ring" } { print }' | sort | uniq -c |
    awk '{printf "%s%sx%s", sep, $1, $2; sep=" "}')
  want="$((2 * FRAMES))x180 $((3 * FRAMES))x360 ${FRAMES}xring"
  [ "$sizes" = "$want" ] && pass "$name: memcpy calls (count x bytes) $sizes" ||
    fail "$name: memcpy calls (count x bytes) '$sizes', expected '$want'"
  # where they are: before unmaps of write maps and before flushes, never before the
  # unmap of the read map, the ring's before a draw
  python3 - "$d" >"$WORK/$name.order" <<'EOF'
import re, sys
calls = [l for l in open(sys.argv[1]) if re.match(r'^\d+ ', l)]
bad = []
for i, l in enumerate(calls):
    if ' memcpy(' not in l:
        continue
    nxt = calls[i + 1] if i + 1 < len(calls) else ''
    n = int(re.search(r'n = (\d+)', l).group(1))
    ok = (360 < n <= 5120 and ' glDrawArrays(' in nxt) or \
         (n in (180, 360) and re.search(r' gl(UnmapBuffer|FlushMappedBufferRange)\(', nxt))
    if not ok:
        bad.append('%s  then  %s' % (l.strip()[:90], nxt.strip()[:90]))
for i, l in enumerate(calls):
    if 'GL_MAP_READ_BIT)' in l and i + 2 < len(calls) and ' memcpy(' in calls[i + 1]:
        bad.append('memcpy after a read-only map: ' + calls[i + 1].strip()[:90])
if bad:
    print('\n'.join(bad))
EOF
  if [ -s "$WORK/$name.order" ]; then
    fail "$name: memcpy calls in the wrong place:"
    head -5 "$WORK/$name.order" | sed 's/^/    /'
  else
    pass "$name: every memcpy right before its unmap, flush or draw"
  fi
  # apitrace's own recording has as many
  set +e
  timeout 120 apitrace trace -o "$WORK/$name.apitrace.trace" "$app" "${args[@]}" \
    >"$WORK/$name.apitrace.log" 2>&1
  set -e
  theirs=$(apitrace dump --color=never "$WORK/$name.apitrace.trace" 2>/dev/null |
    grep -c ' memcpy(' || true)
  [ "$theirs" -eq "$total" ] && pass "$name: $total memcpy calls, as apitrace's recording" ||
    fail "$name: $total memcpy calls, apitrace's recording of the app has $theirs"

  if [ "$name" = map_app_warmup ]; then
    rm -rf "$WORK/snap" && mkdir -p "$WORK/snap"
    replay "$name" "$WORK/$name.trace" -s "$WORK/snap/"
  else
    replay "$name" "$WORK/$name.trace"
  fi
  [ "$RETRACE_RC" -eq 0 ] && pass "$name: glretrace exits 0" ||
    fail "$name: glretrace exits $RETRACE_RC"
  [ -s "$WORK/$name.bad" ] && {
    fail "$name: glretrace prints errors or warnings:"
    head -5 "$WORK/$name.bad" | cut -c1-300 | sed 's/^/    /'
  } || pass "$name: glretrace prints no error or warning"
  [ "${RENDERED:-}" = "$swaps_want" ] && pass "$name: glretrace rendered $swaps_want frames" ||
    fail "$name: glretrace rendered ${RENDERED:-no} frames, expected $swaps_want"

  if [ "$name" = map_app_warmup ]; then
    snaps=()
    for f in "$WORK"/snap/*.png; do [ -e "$f" ] && snaps+=("${f##*/}"); done
    for ((i = 0; i < FRAMES; i++)); do
      own=$(printf '%s/own/%010u.png' "$WORK" "$i")
      if [ ! -s "$own" ] || [ $((i + 1)) -ge "${#snaps[@]}" ]; then
        fail "map_app: frame $i: no own frame or no snapshot (${#snaps[@]} snapshots)"
        continue
      fi
      set +e
      verdict=$(python3 "$compare_png" "$own" "$WORK/snap/${snaps[i + 1]}" 2>&1)
      rc=$?
      set -e
      [ "$rc" -eq 0 ] && pass "map_app: frame $i == snapshot ${snaps[i + 1]}" ||
        fail "map_app: frame $i differs from the replay: ${verdict//"$WORK/"/}"
    done
  fi
done

# ---- glmark2's buffer scene, update-method=map -----------------------------------------
scenes=(
  buffer:update-method=map:duration=0.4
  buffer:update-method=map:update-dispersion=0.9:interleave=true:duration=0.4
  buffer:update-method=map:update-fraction=0.2:interleave=false:columns=50:duration=0.4
)
n=0
for scene in "${scenes[@]}"; do
  n=$((n + 1))
  name="glmark2_map_$n"
  record "$name" -- glmark2 --size 256x192 -b "$scene" || continue
  dump_checks "$name"
  d="$WORK/$name.dump.txt"
  maps=$(grep -cE '^[0-9]+ glMapBuffer(Range)?\(' "$d" || true)
  copies=$(grep -cE "$memcpy_re" "$d" || true)
  if [ "$maps" -gt 0 ] && [ "$maps" -eq "$copies" ]; then
    pass "$name: $maps maps, as many memcpy calls"
  else
    fail "$name: $maps maps, $copies memcpy calls (want one per map, at least one)"
  fi
  swaps=$(grep -cE '^[0-9]+ glXSwapBuffers\(' "$d" || true)
  replay "$name" "$WORK/$name.trace"
  [ "$RETRACE_RC" -eq 0 ] && pass "$name: glretrace exits 0" ||
    fail "$name: glretrace exits $RETRACE_RC"
  [ "${RENDERED:-}" = "$swaps" ] && pass "$name: glretrace rendered $swaps frames" ||
    fail "$name: glretrace rendered ${RENDERED:-no} frames, the trace holds $swaps swaps"
  if [ -s "$WORK/$name.bad" ]; then
    # only what glretrace also says about apitrace's own recording of the scene
    set +e
    timeout 120 apitrace trace -o "$WORK/$name.apitrace.trace" glmark2 --size 256x192 \
      -b "$scene" >/dev/null 2>&1
    set -e
    replay "$name.apitrace" "$WORK/$name.apitrace.trace"
    extra=$(comm -23 "$WORK/$name.bad" "$WORK/$name.apitrace.bad")
    if [ -n "$extra" ]; then
      fail "$name: glretrace prints errors or warnings it does not print for apitrace's trace:"
      echo "$extra" | head -5 | cut -c1-300 | sed 's/^/    /'
    else
      pass "$name: glretrace's only complaints are the ones it has about apitrace's own trace"
    fi
  else
    pass "$name: glretrace prints no error or warning"
  fi
done

it_finish
