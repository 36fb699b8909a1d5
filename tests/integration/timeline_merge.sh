#!/usr/bin/env bash
# timeline_merge: one timeline of a game's own functions (XRay) and its GL calls.
#   usage: timeline_merge.sh BIN_DIR
# xray_game (built with clang -fxray-instrument) runs under `gltrace --timeline`, once
# writing an XRay FDR log (started by the game after its first glXMakeCurrent) and once
# a basic-mode log. `gltrace convert --instr-map=xray_game LOG game.fxt` merges each log
# with the live GL timeline into FXT and JSON. Checks: both outputs pass the strict
# readers; the merge holds every XRay slice (named through the instrumentation map) and
# every GL call; XRay's and gltrace's events of the main thread share one track (same
# pid and tid); and, on the FDR log's CLOCK_MONOTONIC anchors, the i-th glBegin lies
# inside the i-th draw_mesh slice (its caller) within 200 us. The same holds when the GL
# timeline goes through a trace-cmd .dat first (written on trace-cmd's "mono" clock).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init timeline_merge
require_recorder "${1:-}"
require_file "$bin/xray_game" "built with clang -fxray-instrument (tests/apps)"
require_tool python3 timeout trace-cmd
start_xvfb

frames=5
run_game() { # MODE: fdr or basic
  local mode=$1 xopts="patch_premain=false xray_logfile_base=$WORK/$1-" args=(--frames $frames)
  if [ "$mode" = fdr ]; then args+=(--fdr); else xopts="patch_premain=true xray_mode=xray-basic xray_logfile_base=$WORK/$1-"; fi
  # every call kept: both modes drop calls under 5 us by default
  XRAY_OPTIONS="$xopts" XRAY_BASIC_OPTIONS="func_duration_threshold_us=0" run_timed "$WORK/$mode.out" "$WORK/$mode.err" \
    "$gltrace" -o "$WORK/$mode.trace" --timeline="$WORK/$mode.fxt" -- "$bin/xray_game" "${args[@]}"
  local log
  log=$(ls "$WORK/$mode-"xray_game.* 2>/dev/null | head -1)
  if [ "$RC" -ne 0 ] || [ -z "$log" ] || [ ! -s "$WORK/$mode.fxt" ]; then
    fail "$mode: xray_game under gltrace --timeline exits $RC (log '${log}')"
    sed 's/^/    stderr: /' "$WORK/$mode.err" | head -5
    return 1
  fi
  pass "$mode: game ran, XRay log and GL timeline written"
  LOG=$log
}

check_merge() { # MODE LOG
  local mode=$1 log=$2 ext
  for ext in fxt json; do
    run_timed /dev/null "$WORK/m.err" "$gltrace" convert -q --instr-map="$bin/xray_game" \
      "$log" "$WORK/$mode.fxt" -o "$WORK/merged-$mode.$ext"
    if [ "$RC" -ne 0 ]; then
      fail "$mode: merge to .$ext exits $RC: $(head -1 "$WORK/m.err")"
      return
    fi
    run_timed "$WORK/merged-$mode.$ext.txt" "$WORK/p.err" "$gltrace" convert --strict --print \
      "$WORK/merged-$mode.$ext"
    if [ "$RC" -ne 0 ]; then
      fail "$mode: merged .$ext fails the strict reader: $(head -1 "$WORK/p.err")"
      return
    fi
    pass "$mode: merged .$ext passes the strict reader"
  done
  # the live timeline and the merge, read by a walker written from the FXT spec alone
  local f
  for f in "$mode.fxt" "merged-$mode.fxt"; do
    if python3 "$here/fxt_check.py" "$WORK/$f" >/dev/null 2>"$WORK/fc.err"; then
      pass "$mode: $f passes fxt_check.py"
    else
      fail "$mode: $f: fxt_check.py: $(head -1 "$WORK/fc.err")"
    fi
  done
  # the GL timeline as a trace-cmd file (on the "mono" trace clock), merged with the log
  run_timed /dev/null "$WORK/d.err" "$gltrace" convert -q "$WORK/$mode.fxt" -o "$WORK/$mode.dat"
  if [ "$RC" -eq 0 ] && trace-cmd dump --summary -i "$WORK/$mode.dat" 2>&1 | grep '"mono" clock' >/dev/null; then
    pass "$mode: GL timeline written as .dat on trace-cmd's mono clock"
  else
    fail "$mode: GL timeline as .dat: exit $RC, not on the mono clock: $(head -1 "$WORK/d.err")"
  fi
  run_timed "$WORK/merged-$mode.dat.txt" "$WORK/md.err" "$gltrace" convert -q --strict \
    --instr-map="$bin/xray_game" "$log" "$WORK/$mode.dat" -o -
  [ "$RC" -eq 0 ] || fail "$mode: merge of the log and the .dat exits $RC: $(head -1 "$WORK/md.err")"
  run_timed "$WORK/gl.txt" /dev/null "$gltrace" convert --strict --print "$WORK/$mode.fxt"
  python3 - "$WORK/merged-$mode.fxt.txt" "$WORK/merged-$mode.json.txt" \
    "$WORK/merged-$mode.dat.txt" "$WORK/gl.txt" "$frames" "$mode" >"$WORK/verdicts" <<'PYEOF'
import sys
merged_fxt, merged_json, merged_dat, gl_only, frames, mode = sys.argv[1:]
frames = int(frames)

def events(path):
    out = []
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        out.append(dict(kind=f[0], ts=int(f[1]), dur=int(f[2]), pid=f[3], tid=f[4], cat=f[5], name=f[6]))
    return out

def verdict(ok, what):
    print(('PASS ' if ok else 'FAIL ') + what)

gl = [e for e in events(gl_only) if e['kind'] == 'complete']
for label, path in (('fxt', merged_fxt), ('json', merged_json), ('log+dat', merged_dat)):
    ev = events(path)
    calls = [e for e in ev if e['kind'] == 'complete']
    verdict(len(calls) == len(gl) and [c['name'] for c in calls] == [g['name'] for g in gl],
            '%s %s: all %d GL calls, in order' % (mode, label, len(gl)))
    begins = [e for e in ev if e['kind'] == 'begin']
    ends = [e for e in ev if e['kind'] == 'end']
    names = [b['name'] for b in begins]
    want = {'update_world': frames, 'render_scene': frames, 'draw_mesh': 4 * frames}
    got = {n: names.count(n) for n in want}
    verdict(got == want and len(ends) >= len(begins) - 1,
            '%s %s: XRay slices named by the map %s (want %s), %d begins %d ends'
            % (mode, label, got, want, len(begins), len(ends)))
    meshes = [b for b in begins if b['name'] == 'draw_mesh']
    tracks = {(b['pid'], b['tid']) for b in meshes}
    gl_tracks = {(c['pid'], c['tid']) for c in calls if c['name'] == 'glBegin'}
    verdict(len(tracks) == 1 and tracks == gl_tracks,
            '%s %s: XRay and GL events of the main thread on one track %s %s'
            % (mode, label, sorted(tracks), sorted(gl_tracks)))
    if mode != 'fdr':
        continue
    # the slice of each draw_mesh: its begin up to the next end on the track, nested
    stack, spans = [], []
    for e in sorted((e for e in ev if e['kind'] in ('begin', 'end')), key=lambda e: e['ts']):
        if e['kind'] == 'begin':
            stack.append(e)
        elif stack:
            b = stack.pop()
            if b['name'] == 'draw_mesh':
                spans.append((b['ts'], e['ts']))
    glbegins = [c for c in calls if c['name'] == 'glBegin']
    slack = 200000
    inside = sum(1 for (s, t), c in zip(spans, glbegins) if s - slack <= c['ts'] <= t + slack)
    verdict(len(spans) == len(glbegins) == 4 * frames and inside == len(spans),
            '%s %s: each glBegin inside its draw_mesh on the wall clock (%d of %d, %d spans)'
            % (mode, label, inside, len(glbegins), len(spans)))
PYEOF
  local v rest
  while read -r v rest; do
    if [ "$v" = PASS ]; then pass "$rest"; else fail "$rest"; fi
  done <"$WORK/verdicts"
}

for mode in fdr basic; do
  LOG=
  run_game "$mode" || continue
  check_merge "$mode" "$LOG"
done
it_finish
