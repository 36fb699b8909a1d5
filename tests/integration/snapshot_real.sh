#!/usr/bin/env bash
# snapshot_real: frame ranges of real programs replay alone. A `gltrace --frames=A-B`
# trace of a program (its state snapshot, then frames A..B) must replay, in our glretrace
# and in apitrace's, to the same pixels as frames A..B of a full recording of the same
# program, exactly (same driver: Mesa llvmpipe under our own Xvfb). The programs run
# with step_clock.so preloaded (tests/apps/step_clock.c), so those animated by the clock
# draw the same frames in both runs.
#   usage: snapshot_real.sh BIN_DIR
# Programs: heavy_app (a call storm: immediate mode, uniforms and buffer updates every
# frame, a second thread with a shared context), glmark2 scenes (textures, shading,
# buffers with persistent maps off), Qt 5's hellogl2 (QOpenGLWidget, GLX and EGL) and
# threadedqopenglwidget (a render thread per widget). A program that is not installed
# is skipped with a note.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot_real

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
require_file "$here/../apps/compare_png.py"
step_clock="$bin/../lib/libstep_clock.so"
require_file "$step_clock" "build the step_clock module (tests/apps)"
ours="$bin/glretrace"
start_xvfb
cd "$WORK"

# check NAME FIRST LAST CMD...: a full recording of frames 0..LAST (stopped after its
# LAST+1-th swap) and a range FIRST-LAST recording (--quit-after), compared
check() {
  local name=$1 first=$2 last=$3
  shift 3
  swap_stop $((last + 1))
  set +e
  LD_PRELOAD=$step_clock "$gltrace" --backtrace=none -o "$name.full.trace" -- \
    "${SWAP_STOP[@]}" "$@" >"$name.full.log" 2>&1
  LD_PRELOAD=$step_clock timeout -k 10 300 "$gltrace" --backtrace=none -o "$name.trace" \
    --frames="$first-$last" --quit-after -- "$@" >"$name.range.log" 2>&1
  set -e
  local tr="$name.$first-$last.trace"
  if [ ! -s "$name.full.trace" ] || [ ! -s "$tr" ]; then
    fail "$name: no trace (full: $(tail -1 "$name.full.log"); range: $(tail -1 "$name.range.log"))"
    return 0
  fi
  # $ALLOW: what the snapshot may leave out for this program (said, as it must be)
  if grep "state snapshot:" "$name.range.log" | grep -qvE "${ALLOW:-^$}"; then
    fail "$name: the snapshot left things out: $(grep "state snapshot:" "$name.range.log" | head -3 | tr '\n' ' ')"
  fi
  timeout 120 apitrace dump "$tr" >/dev/null 2>"$name.dump.err" &&
    pass "$name: apitrace dump reads the range trace" ||
    fail "$name: apitrace dump: $(tail -2 "$name.dump.err")"
  local who rep
  for who in ours api; do
    rep=$ours
    [ "$who" = api ] && rep=glretrace
    replay_frames "$rep" "$name.full.trace" "$name.full.$who" 300
    replay_frames "$rep" "$tr" "$name.range.$who" 300
    # apitrace's glretrace on Mesa draws a trace's first frame into a 32x32 back buffer
    # (its window grows at the first swap: tests/apps/README.md), a range's too: its
    # frames are compared from the second on
    local from=$first
    [ "$who" = api ] && from=$((first + 1))
    same_frames "$name ($who): the range replays to the full recording" "$name.full.$who" \
      "$name.range.$who" "$from" "$last" "$first"
  done
  echo "snapshot_real: $name: range $(stat -c %s "$tr") bytes, full $(stat -c %s "$name.full.trace") bytes"
}

# its second thread's context is current there: its own state is not written (it sets
# what it uses each frame)
ALLOW="context 0x[0-9a-f]+ is current on thread 1" check heavy_app 5 7 "$bin/heavy_app" --frames 1000
if command -v glmark2 >/dev/null; then
  STEP_CLOCK_US=10000 check glmark2_texture 12 14 glmark2 --size 256x192 \
    -b texture:duration=0.5 -b shading:duration=0.5
  STEP_CLOCK_US=10000 check glmark2_shading 40 42 glmark2 --size 256x192 \
    -b texture:duration=0.3 -b shading:shading=phong:duration=0.5
else
  echo "snapshot_real: note: glmark2 not installed: skipped"
fi
qt=/usr/lib/x86_64-linux-gnu/qt5/examples/opengl
if [ -x "$qt/hellogl2/hellogl2" ]; then
  export QT_QPA_PLATFORM=xcb QT_HASH_SEED=0 STEP_CLOCK_OBJECTS=libQt5Core
  # hellogl2 draws two frames and waits: its range is frame 1 (apitrace's replay of it
  # is not compared: its first frame)
  check qt_hellogl2 1 1 "$qt/hellogl2/hellogl2"
  QT_XCB_GL_INTEGRATION=xcb_egl check qt_hellogl2_egl 1 1 "$qt/hellogl2/hellogl2"
  # (threadedqopenglwidget is left out: its two render threads read the stepped clock
  # in no fixed order, so two runs do not draw the same frames)
  check qt_qopenglwindow 20 23 "$qt/qopenglwindow/qopenglwindow"
else
  echo "snapshot_real: note: Qt 5 examples not installed: skipped"
fi

it_finish
