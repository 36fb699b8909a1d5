#!/usr/bin/env bash
# snapshot: a frame range's trace replays alone. `gltrace --frames=A-B` writes the state
# snapshot (window system, objects with their contents, context state) before frame A;
# the range trace must replay in our glretrace and in apitrace's to the same pixels as
# frames A..B of a full recording of the same deterministic program (under our own
# Xvfb, Mesa llvmpipe). Exact equality (tolerance 0): both recordings come from the same
# driver.
#   usage: snapshot.sh BIN_DIR
# Checks, for gl33_demo (GL 3.3 core, GLX), gl33_demo --thread (a second thread with a
# shared context on a pbuffer) and es2_demo (GLES 2 on EGL):
#   - the range trace's frames replay (ours, apitrace's) to the full recording's frames
#     A..B replayed by the same replayer;
#   - `apitrace dump` reads it whole; `gltrace info` says where the snapshot ends;
# and a trigger: SIGUSR2 starts and stops a range while gl33_demo runs; its frames replay
# to the same frames of a full recording.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
require_file "$here/../apps/compare_png.py"
ours="$bin/glretrace"
start_xvfb
cd "$WORK"

# check_range NAME FIRST LAST FRAMES APP ARGS...: record FRAMES frames in full and the
# range FIRST-LAST, then compare
check_range() {
  local name=$1 first=$2 last=$3 frames=$4
  shift 4
  "$gltrace" -o "$name.full.trace" --backtrace=none -- "$@" --frames "$frames" \
    >/dev/null 2>"$name.full.log" || fail "$name: the full recording fails: $(tail -2 "$name.full.log")"
  "$gltrace" -o "$name.trace" --backtrace=none --frames="$first-$last" -- "$@" --frames "$frames" \
    >/dev/null 2>"$name.range.log" || fail "$name: the range recording fails: $(tail -2 "$name.range.log")"
  local tr="$name.$first-$last.trace"
  if [ ! -s "$tr" ]; then
    fail "$name: no $tr: $(tail -3 "$name.range.log")"
    return
  fi
  # $ALLOW: what the snapshot may leave out for this program (said, as it must be)
  if grep "state snapshot:" "$name.range.log" | grep -qvE "${ALLOW:-^$}"; then
    fail "$name: the snapshot says it left things out: $(grep "state snapshot:" "$name.range.log" | head -3)"
  else
    pass "$name: the snapshot reads back everything${ALLOW:+ but what it says: $ALLOW}"
  fi
  timeout 60 apitrace dump "$tr" >"$name.apitrace.txt" 2>&1 &&
    grep -q "gltrace: end of the state snapshot" "$name.apitrace.txt" &&
    pass "$name: apitrace dump reads the range trace" ||
    fail "$name: apitrace dump: $(tail -2 "$name.apitrace.txt")"
  "$gltrace" info "$tr" >"$name.info.json" 2>&1
  python3 - "$name.info.json" "$first" <<'EOF' && pass "$name: gltrace info says where the snapshot ends" || fail "$name: gltrace info: $(head -c 300 "$name.info.json")"
import json, sys
info = json.load(open(sys.argv[1]))
snap = info.get("Snapshot") or {}
assert snap.get("FirstFrame") == int(sys.argv[2]), snap
assert snap.get("EndCall", 0) > 0, snap
EOF
  for who in ours api; do
    local rep=$ours
    [ "$who" = api ] && rep=glretrace
    replay_frames "$rep" "$name.full.trace" "$name.full.$who"
    replay_frames "$rep" "$tr" "$name.range.$who"
    # apitrace's glretrace on Mesa draws a trace's first frame into a 32x32 back buffer
    # (its window grows at the first swap: tests/apps/README.md), a range's too: its
    # frames are compared from the second on
    local from=$first
    [ "$who" = api ] && from=$((first + 1))
    same_frames "$name ($who): the range replays to the full recording" "$name.full.$who" \
      "$name.range.$who" "$from" "$last" "$first"
  done
}

check_range gl33 5 7 10 "$bin/gl33_demo"
# the worker's context is current on its thread: its own state cannot be read (it sets
# all it uses each frame)
ALLOW="context 0x[0-9a-f]+ is current on thread 1" check_range gl33_thread 4 6 9 "$bin/gl33_demo" --thread
check_range es2 4 6 9 "$bin/es2_demo"

# ---- a trigger: start and stop while the program runs --------------------------------
tr=$(trigger_range t "$bin/gl33_demo" --frames 1000000)
if [[ "$tr" =~ ^t\.([0-9]+)-([0-9]+)\.trace$ ]]; then
  s=${BASH_REMATCH[1]} e=${BASH_REMATCH[2]}
  [ "$e" -gt $((s + 40)) ] && e=$((s + 40)) # a slow machine: compare the first 41 frames
  "$gltrace" -o trig.full.trace --backtrace=none -- "$bin/gl33_demo" --frames $((e + 1)) \
    >/dev/null 2>&1
  replay_frames "$ours" trig.full.trace trig.full
  replay_frames "$ours" "$tr" trig.range
  same_frames "trigger $tr (ours): the range replays to the full recording" trig.full trig.range \
    "$s" "$e" "$s"
else
  fail "no trace named t.S-E.trace from the trigger: $(ls)"
fi

it_finish
