#!/usr/bin/env bash
# mapped_buffers: the bytes programs write through buffer maps reach our traces as
# apitrace's fake memcpy calls, and glretrace replays them.
#   usage: mapped_buffers.sh BIN_DIR
# Under our own Xvfb (Mesa llvmpipe):
#   - map_app (tests/apps/map_app.c: objects filled through glMapBufferRange with
#     WRITE|INVALIDATE, with FLUSH_EXPLICIT + two glFlushMappedBufferRange, a persistent
#     coherent ring, a persistent non-coherent map with explicit flushes, glMapBuffer, a
#     persistent map neither coherent nor flushed (glMemoryBarrier), glMapNamedBufferRange
#     with glFlushMappedNamedBufferRange, glMapNamedBuffer, and a read-only map) recorded
#     by gltrace, 5 frames, plain and with --warmup:
#       * `apitrace dump` exits 0 with nothing on stderr;
#       * exactly the expected fake memcpy calls, in apitrace's form
#         `memcpy(dest = 0x..., src = blob(N), n = N) // fake`, each right before the
#         call it belongs to (unmap of a write map: the whole range; explicit flush: the
#         flushed range; the persistent maps' changed bytes before the first call that
#         lets the GL read them), none for the read map; as many as apitrace's own
#         recording of the app has, plus the ones it misses;
#       * `gltrace dump` == `apitrace dump` (options "" and -v);
#       * glretrace replays with exit 0, no error or warning, all frames;
#       * the --warmup trace's glretrace snapshots equal the app's own frames (--save),
#         compare_png.py (frame i = snapshot i + 1, see tests/apps/README.md);
#   - coherent_app (tests/apps/coherent_app.c: one write pattern per case through coherent
#     persistent maps, and GL_VMWX_map_buffer_debug's notified maps) recorded by gltrace
#     and by apitrace: apitrace dump silent, gltrace dump == apitrace dump, the same
#     memcpy calls (bytes, and the call each comes before) in both recordings and as
#     apitrace's rule gives them, glNotifyMappedBufferRangeVMWX got from
#     glXGetProcAddressARB, neither its bit nor a call of it in the trace, and glretrace
#     replays the trace silently;
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

require_recorder "$@"
app="$bin/map_app"
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
  # where they are and how big: each memcpy belongs to the next call that is not one,
  # per frame: glUnmapBuffer 2 x 360 (A, E), glFlushMappedBufferRange 2 x 180 + 360
  # (B, D), glFlushMappedNamedBufferRange 360 (G), glUnmapNamedBuffer 360 (H), the
  # persistent map F (neither coherent nor flushed) at glMemoryBarrier, which makes its
  # writes the GL's, trimmed to the bytes that changed (at most 360), and the coherent
  # map C at the first draw that reads it, where apitrace writes it too, in apitrace's
  # runs of whole pages (its slot's 5120 bytes span 2 pages, and apitrace's doubling
  # marks a third: more than 360, at most 12288); none after a read-only map
  python3 - "$d" >"$WORK/$name.where" <<'EOF'
import collections, re, sys
calls = [l for l in open(sys.argv[1]) if re.match(r'^\d+ ', l)]
seen = collections.Counter()
pending = []
for l in calls:
    m = re.match(r'^\d+ (\w+)\(', l)
    name = m.group(1) if m else '?'
    if name == 'memcpy':
        pending.append(int(re.search(r'n = (\d+)', l).group(1)))
        continue
    if name == 'glMapBufferRange' and 'GL_MAP_READ_BIT)' in l:
        name = 'read-map'
    if pending:
        if name == 'glMemoryBarrier':
            ok = len(pending) == 1 and 0 < pending[0] <= 360
            seen['%s:%s' % (name, 'F' if ok else '/'.join(map(str, pending)))] += 1
        elif name == 'glDrawArrays':
            ok = len(pending) == 1 and 360 < pending[0] <= 12288
            seen['%s:%s' % (name, 'C' if ok else '/'.join(map(str, pending)))] += 1
        else:
            for n in pending:
                seen['%s:%d' % (name, n)] += 1
        pending = []
print(' '.join('%dx%s' % (v, k) for k, v in sorted(seen.items())))
EOF
  got=$(cat "$WORK/$name.where")
  want="${FRAMES}xglDrawArrays:C $((2 * FRAMES))xglFlushMappedBufferRange:180"
  want+=" ${FRAMES}xglFlushMappedBufferRange:360"
  want+=" ${FRAMES}xglFlushMappedNamedBufferRange:360 ${FRAMES}xglMemoryBarrier:F"
  want+=" $((2 * FRAMES))xglUnmapBuffer:360 ${FRAMES}xglUnmapNamedBuffer:360"
  [ "$got" = "$want" ] && pass "$name: memcpy calls (count x next call:bytes) $got" ||
    fail "$name: memcpy calls (count x next call:bytes) '$got', expected '$want'"
  # apitrace's own recording has as many but F's (it records nothing for persistent maps
  # that are neither coherent nor explicitly flushed)
  set +e
  timeout 120 apitrace trace -o "$WORK/$name.apitrace.trace" "$app" "${args[@]}" \
    >"$WORK/$name.apitrace.log" 2>&1
  set -e
  theirs=$(apitrace dump --color=never "$WORK/$name.apitrace.trace" 2>/dev/null |
    grep -c ' memcpy(' || true)
  [ "$theirs" -eq $((total - FRAMES)) ] &&
    pass "$name: $total memcpy calls, apitrace's recording $theirs (F's $FRAMES missing)" ||
    fail "$name: $total memcpy calls, apitrace's recording of the app has $theirs, expected $((total - FRAMES))"

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

# ---- coherent_app: apitrace's memcpy calls, write pattern by write pattern -------------
# tests/apps/coherent_app.c: one pattern per case through persistent maps, each case
# ended by a draw (or an unmap); GL_VMWX_map_buffer_debug's cases run since both
# recorders offer that extension. Each recorder's memcpy calls as "next call:bytes", in
# order, must be the same, and apitrace's (glmemshadow.cpp: each run of dirty buffer
# pages, whole, clipped to the map; pages written in order dirty 1, 2, 4... pages at a
# time) are, with P the page size:
#   small 100 | window 30 | span 3P | scattered P P P | fill 7P | ends P, P-100 |
#   offset 2P | twice P, P, nothing | unmap P-100 at glUnmapBuffer | flush 30 at
#   glFlushMappedBufferRange, then P (apitrace 11's flush leaves the page dirty) | sync P inside
#   glClientWaitSync, P inside glWaitSync, P inside glGetSynciv, nothing at the draw |
#   named P | notify 30 40 (the notifications only) | notify_coherent 30 (notified), P
# memcpy_calls DUMP: "call:bytes ..." for each memcpy, the call the next non-memcpy line makes
memcpy_calls() {
  python3 - "$1" <<'EOF'
import re, sys
calls = [l for l in open(sys.argv[1]) if re.match(r'^\d+ ', l)]
out, pending = [], []
for l in calls:
    m = re.match(r'^\d+ (\w+)\(', l)
    if m and m.group(1) == 'memcpy':
        pending.append(re.search(r'n = (\d+)', l).group(1))
    elif m and pending:
        out += ['%s:%s' % (m.group(1), n) for n in pending]
        pending = []
print(' '.join(out))
EOF
}
app="$bin/coherent_app"
name=coherent_app
if [ ! -x "$app" ]; then
  fail "$name not built ($app)"
elif record "$name" -- "$app"; then
  P=$(getconf PAGESIZE)
  dump_checks "$name"
  set +e
  timeout 120 apitrace trace -o "$WORK/$name.apitrace.trace" "$app" >"$WORK/$name.apitrace.log" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 0 ] && pass "$name: apitrace's recording, exit 0" ||
    fail "$name: apitrace trace exits $rc: $(tail -2 "$WORK/$name.apitrace.log" | tr '\n' ' ')"
  # -v: dump hides glGetSynciv, glGetStringi and glXGetProcAddressARB by default
  apitrace dump --color=never -v "$WORK/$name.apitrace.trace" >"$WORK/$name.apitrace.dump" 2>/dev/null || true
  apitrace dump --color=never -v "$WORK/$name.trace" >"$WORK/$name.dump-v.txt" 2>/dev/null || true
  ours=$(memcpy_calls "$WORK/$name.dump-v.txt")
  theirs=$(memcpy_calls "$WORK/$name.apitrace.dump")
  if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
    pass "$name: the same $(echo "$ours" | wc -w) memcpy calls as apitrace's recording"
  else
    fail "$name: memcpy calls differ from apitrace's:"$'\n'"    ours:     $ours"$'\n'"    apitrace: $theirs"
  fi
  d=glDrawArrays
  want="$d:100 $d:30 $d:$((3 * P)) $d:$P $d:$P $d:$P $d:$((7 * P)) $d:$P $d:$((P - 100))"
  want+=" $d:$((2 * P)) $d:$P $d:$P glUnmapBuffer:$((P - 100)) glFlushMappedBufferRange:30 $d:$P"
  want+=" glClientWaitSync:$P glWaitSync:$P glGetSynciv:$P"
  want+=" $d:$P $d:30 $d:40 $d:30 $d:$P"
  [ "$ours" = "$want" ] && pass "$name: memcpy calls as apitrace's rule gives them (page $P)" ||
    fail "$name: memcpy calls '$ours', apitrace's rule gives '$want'"
  # GL_VMWX_map_buffer_debug: offered, its function from glXGetProcAddressARB, its bit out
  # of the recorded flags, the notifications recorded as memcpy calls only
  grep -q '^[0-9]* glGetStringi(name = GL_EXTENSIONS, index = [0-9]*) = "GL_VMWX_map_buffer_debug"$' \
    "$WORK/$name.dump-v.txt" && pass "$name: GL_VMWX_map_buffer_debug offered" ||
    fail "$name: GL_VMWX_map_buffer_debug not offered by glGetStringi"
  grep -q '^[0-9]* glXGetProcAddressARB(procName = "glNotifyMappedBufferRangeVMWX") = 0x' \
    "$WORK/$name.dump-v.txt" && pass "$name: glNotifyMappedBufferRangeVMWX from glXGetProcAddressARB" ||
    fail "$name: no glXGetProcAddressARB of glNotifyMappedBufferRangeVMWX"
  if grep -qE 'glNotifyMappedBufferRangeVMWX\(|0x80000000|GL_MAP_NOTIFY' "$WORK/$name.dump-v.txt"; then
    fail "$name: the VMWX bit or a glNotifyMappedBufferRangeVMWX call is in the trace"
  else
    pass "$name: no VMWX bit and no glNotifyMappedBufferRangeVMWX call in the trace"
  fi
  replay "$name" "$WORK/$name.trace"
  if [ "$RETRACE_RC" -eq 0 ] && [ ! -s "$WORK/$name.bad" ]; then
    pass "$name: glretrace replays it, exit 0, no error or warning"
  else
    fail "$name: glretrace exits $RETRACE_RC: $(head -3 "$WORK/$name.bad" | tr '\n' ' ')"
  fi
fi

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
